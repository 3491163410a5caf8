import { formatInTimeZone, fromZonedTime } from "date-fns-tz";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CalendarError, ET_ZONE, etDateOf, etInstant, etMinutesOfDay } from "../../lib/time";
import { codeOf } from "../_helpers/thrown";
import { violations } from "../_helpers/violations";

const utc = (y: number, mo: number, d: number, h = 0, mi = 0) => Date.UTC(y, mo - 1, d, h, mi);
const MINUTE = 60_000;

/**
 * US daylight time starts the second Sunday of March at 02:00 EST (07:00Z) and ends the first
 * Sunday of November at 02:00 EDT (06:00Z) (Energy Policy Act of 2005, 15 U.S.C. 260a).
 */
const TRANSITIONS_UTC = [
  [utc(2023, 3, 12, 7), utc(2023, 11, 5, 6)],
  [utc(2024, 3, 10, 7), utc(2024, 11, 3, 6)],
  [utc(2025, 3, 9, 7), utc(2025, 11, 2, 6)],
  [utc(2026, 3, 8, 7), utc(2026, 11, 1, 6)],
];

describe("etInstant against hand-computed UTC", () => {
  it("09:30 ET is 13:30Z in summer and 14:30Z in winter", () => {
    expect(etInstant("2024-07-01", "09:30")).toBe(utc(2024, 7, 1, 13, 30));
    expect(etInstant("2024-01-02", "09:30")).toBe(utc(2024, 1, 2, 14, 30));
    expect(etInstant("2024-01-02", "16:00")).toBe(utc(2024, 1, 2, 21, 0));
    expect(etInstant("2024-07-01", "20:00")).toBe(utc(2024, 7, 2, 0, 0));
    expect(etInstant("2024-07-01", "04:00:30")).toBe(utc(2024, 7, 1, 8, 0) + 30_000);
  });

  it("around the 2024 spring-forward (2024-03-10)", () => {
    expect(etInstant("2024-03-08", "09:30")).toBe(utc(2024, 3, 8, 14, 30));
    expect(etInstant("2024-03-09", "23:59")).toBe(utc(2024, 3, 10, 4, 59));
    expect(etInstant("2024-03-10", "00:00")).toBe(utc(2024, 3, 10, 5, 0));
    expect(etInstant("2024-03-10", "01:59")).toBe(utc(2024, 3, 10, 6, 59));
    expect(etInstant("2024-03-10", "03:00")).toBe(utc(2024, 3, 10, 7, 0));
    expect(etInstant("2024-03-10", "09:30")).toBe(utc(2024, 3, 10, 13, 30));
    expect(etInstant("2024-03-11", "09:30")).toBe(utc(2024, 3, 11, 13, 30));
    // 02:30 does not exist: documented to move forward by the gap, to 03:30 EDT.
    expect(etInstant("2024-03-10", "02:30")).toBe(utc(2024, 3, 10, 7, 30));
  });

  it("around the 2024 fall-back (2024-11-03)", () => {
    expect(etInstant("2024-11-01", "09:30")).toBe(utc(2024, 11, 1, 13, 30));
    expect(etInstant("2024-11-03", "00:00")).toBe(utc(2024, 11, 3, 4, 0));
    // 01:30 happens twice: documented to resolve to the first (EDT) one.
    expect(etInstant("2024-11-03", "01:30")).toBe(utc(2024, 11, 3, 5, 30));
    expect(etInstant("2024-11-03", "02:00")).toBe(utc(2024, 11, 3, 7, 0));
    expect(etInstant("2024-11-04", "09:30")).toBe(utc(2024, 11, 4, 14, 30));
    expect(etInstant("2024-11-02", "09:30")).toBe(utc(2024, 11, 2, 13, 30));
  });
});

describe("etDateOf and etMinutesOfDay", () => {
  it("roll at ET midnight, 04:00Z in summer and 05:00Z in winter", () => {
    expect(etDateOf(utc(2024, 7, 2, 3, 59))).toBe("2024-07-01");
    expect(etDateOf(utc(2024, 7, 2, 4, 0))).toBe("2024-07-02");
    expect(etDateOf(utc(2024, 1, 2, 4, 59))).toBe("2024-01-01");
    expect(etDateOf(utc(2024, 1, 2, 5, 0))).toBe("2024-01-02");
    expect(etDateOf(utc(2031, 1, 1, 4, 59))).toBe("2030-12-31");
    expect(etDateOf(utc(2031, 1, 1, 5, 0))).toBe("2031-01-01"); // beyond the calendar years is fine here
    expect(etMinutesOfDay(utc(2024, 1, 2, 14, 30))).toBe(570);
    expect(etMinutesOfDay(utc(2024, 11, 3, 5, 30))).toBe(90); // 01:30 EDT
    expect(etMinutesOfDay(utc(2024, 11, 3, 6, 30))).toBe(90); // 01:30 EST
    expect(etMinutesOfDay(utc(2024, 3, 10, 7, 0))).toBe(180); // 03:00 EDT
  });

  it("fast path switches offset exactly at each DST transition", () => {
    for (const [start, end] of TRANSITIONS_UTC) {
      expect(etMinutesOfDay(start - MINUTE)).toBe(119); // 01:59 EST
      expect(etMinutesOfDay(start)).toBe(180); // 03:00 EDT
      expect(etMinutesOfDay(end - MINUTE)).toBe(119); // 01:59 EDT
      expect(etMinutesOfDay(end)).toBe(60); // 01:00 EST
    }
  });

  it("matches date-fns-tz every 7 minutes across ±5 days of every transition 2020-2030", () => {
    let checked = 0;
    // One assertion for all instants, and one date-fns-tz call per instant for both fields: an
    // expect each, and a second format, cost more than the code under test (test/_helpers/violations.ts).
    const v = violations();
    for (let y = 2020; y <= 2030; y++) {
      for (const month of [3, 11]) {
        const mid = utc(y, month, month === 3 ? 11 : 4);
        for (let t = mid - 5 * 86_400_000; t <= mid + 5 * 86_400_000; t += 7 * MINUTE) {
          const [day, hm] = formatInTimeZone(t, ET_ZONE, "yyyy-MM-dd HH:mm").split(" ");
          const date = etDateOf(t);
          v.check(Object.is(date, day), () => `${new Date(t).toISOString()}: etDateOf ${date}, date-fns-tz ${day}`);
          const [h, m] = hm.split(":").map(Number);
          const mins = etMinutesOfDay(t);
          v.check(Object.is(mins, h * 60 + m), () => `${new Date(t).toISOString()}: etMinutesOfDay ${mins}, date-fns-tz ${hm}`);
          checked++;
        }
      }
    }
    v.expectNone("etDateOf and etMinutesOfDay vs date-fns-tz");
    expect(checked).toBeGreaterThan(40_000);
  });

  it("matches date-fns-tz on random instants, 1971-2199", () => {
    const near = fc.integer({ min: utc(2019, 1, 1) / 1000, max: utc(2032, 1, 1) / 1000 }).map((s) => s * 1000);
    const far = fc.integer({ min: utc(1971, 1, 2) / MINUTE, max: utc(2199, 12, 30) / MINUTE }).map((m) => m * MINUTE);
    fc.assert(
      fc.property(fc.oneof(near, near, far), (t) => {
        // One date-fns-tz call gives both fields (the oracle costs more than the code under test).
        const [day, hm] = formatInTimeZone(t, ET_ZONE, "yyyy-MM-dd HH:mm").split(" ");
        expect(etDateOf(t)).toBe(day);
        const [h, m] = hm.split(":").map(Number);
        expect(etMinutesOfDay(t)).toBe(h * 60 + m);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("etInstant fast path against date-fns-tz fromZonedTime", () => {
  const date = fc.integer({ min: utc(1971, 1, 2) / 86_400_000, max: utc(2199, 12, 30) / 86_400_000 });
  const nearDate = fc.integer({ min: utc(2020, 1, 1) / 86_400_000, max: utc(2030, 12, 31) / 86_400_000 });
  const minute = fc.integer({ min: 0, max: 1439 });

  it("agrees on every unambiguous wall time", () => {
    fc.assert(
      fc.property(fc.oneof(nearDate, nearDate, date), minute, (day, mins) => {
        const d = new Date(day * 86_400_000).toISOString().slice(0, 10);
        const hhmm = `${String(Math.floor(mins / 60)).padStart(2, "0")}:${String(mins % 60).padStart(2, "0")}`;
        const sunday = new Date(day * 86_400_000).getUTCDay() === 0;
        // Skip 01:00-02:59 on Sundays, where the wall time may be repeated or missing.
        fc.pre(!(sunday && mins >= 60 && mins < 180));
        const ms = etInstant(d, hhmm);
        expect(ms).toBe(fromZonedTime(`${d}T${hhmm}:00`, ET_ZONE).getTime());
        expect(etDateOf(ms)).toBe(d);
        expect(etMinutesOfDay(ms)).toBe(mins);
      }),
      { numRuns: 3000 },
    );
  });

  it("agrees on every minute of the trading hours of DST-adjacent days", () => {
    const v = violations();
    for (const d of ["2024-03-08", "2024-03-10", "2024-03-11", "2024-11-01", "2024-11-03", "2024-11-04"]) {
      for (let mins = 4 * 60; mins < 20 * 60; mins++) {
        const hhmm = `${String(Math.floor(mins / 60)).padStart(2, "0")}:${String(mins % 60).padStart(2, "0")}`;
        const got = etInstant(d, hhmm);
        const want = fromZonedTime(`${d}T${hhmm}:00`, ET_ZONE).getTime();
        v.check(Object.is(got, want), () => `${d} ${hhmm}: etInstant ${got}, date-fns-tz ${want}`);
      }
    }
    v.expectNone("etInstant vs date-fns-tz");
  });
});

describe("ET errors", () => {
  it("rejects malformed times, dates and instants", () => {
    for (const t of ["9:30", "24:00", "09:60", "09:30:60", "0930", "09:30 ", "ab:cd", ""]) {
      expect(codeOf(CalendarError, () => etInstant("2024-07-01", t))).toBe("invalid_time");
    }
    expect(codeOf(CalendarError, () => etInstant("2024-02-30", "09:30"))).toBe("invalid_date");
    expect(codeOf(CalendarError, () => etDateOf(Number.NaN))).toBe("invalid_time");
    expect(codeOf(CalendarError, () => etDateOf(Number.POSITIVE_INFINITY))).toBe("invalid_time");
    expect(codeOf(CalendarError, () => etDateOf(utc(2300, 1, 1)))).toBe("out_of_range");
    expect(codeOf(CalendarError, () => etInstant("1960-01-04", "09:30"))).toBe("out_of_range");
  });
});
