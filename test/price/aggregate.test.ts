// Aggregation of one-minute bars: every resolution against the slow reference in _reference.ts,
// session anchoring, early closes, DST, daily/weekly time stamps, sided volume.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { aggregateBars, aggregateDaily, aggregateIntraday, aggregateWeekly, RESOLUTIONS, resolutionMinutes } from "../../lib/price";
import { sessionBounds, sessionMinuteCount } from "../../lib/time";
import { calendarDates, refDaily, refIntraday, refWeekly, rows, syntheticMinutes, utcMidnight } from "./_reference";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const INTRADAY = RESOLUTIONS.filter((r) => r !== "D" && r !== "W");
const hhmmUtc = (ms: number) => new Date(ms).toISOString().slice(11, 16);

// 2024-03-07..2024-03-12 crosses the DST start (Sunday 03-10); 2024-11-26..12-03 holds
// Thanksgiving (11-28) and the early close (11-29); 2024-01-12..01-19 holds MLK day (01-15).
const WINDOWS: [string, string][] = [
  ["2024-03-07", "2024-03-12"],
  ["2024-11-26", "2024-12-03"],
  ["2024-01-12", "2024-01-19"],
];

describe("intraday aggregation matches the slow reference", () => {
  for (const [from, to] of WINDOWS) {
    const minutes = syntheticMinutes(calendarDates(from, to), from.length + Number(to.slice(-2)), { drop: 0.05 });
    for (const extended of [false, true]) {
      for (const r of INTRADAY) {
        it(`${from}..${to} resolution ${r}${extended ? " extended" : ""}`, () => {
          const got = aggregateIntraday(minutes, resolutionMinutes(r)!, { extended });
          expect(rows(got)).toEqual(refIntraday(minutes, resolutionMinutes(r)!, extended));
        });
      }
    }
  }

  it("holds for random minute subsets and resolutions (property)", () => {
    const all = syntheticMinutes(calendarDates("2024-06-28", "2024-07-09"), 7);
    fc.assert(
      fc.property(
        fc.constantFrom(...INTRADAY),
        fc.boolean(),
        fc.integer({ min: 0, max: all.t.length }),
        fc.integer({ min: 0, max: all.t.length }),
        (r, extended, a, b) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const part = {
            t: all.t.subarray(lo, hi),
            o: all.o.subarray(lo, hi),
            h: all.h.subarray(lo, hi),
            l: all.l.subarray(lo, hi),
            c: all.c.subarray(lo, hi),
            v: all.v.subarray(lo, hi),
            bv: all.bv!.subarray(lo, hi),
            sv: all.sv!.subarray(lo, hi),
            uv: all.uv!.subarray(lo, hi),
          };
          const m = resolutionMinutes(r)!;
          expect(rows(aggregateIntraday(part, m, { extended }))).toEqual(refIntraday(part, m, extended));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("session alignment", () => {
  const full = syntheticMinutes(calendarDates("2024-03-06", "2024-03-06"), 1);
  const early = syntheticMinutes(calendarDates("2024-11-29", "2024-11-29"), 2);

  it("one-minute bars: 390 regular, 960 extended, 210 and 780 on the 13:00 early close", () => {
    expect(aggregateIntraday(full, 1).t.length).toBe(390);
    expect(aggregateIntraday(full, 1, { extended: true }).t.length).toBe(960);
    expect(aggregateIntraday(early, 1).t.length).toBe(210);
    expect(aggregateIntraday(early, 1, { extended: true }).t.length).toBe(780);
    // The same counts lib/time states for the sessions.
    expect(sessionMinuteCount("2024-11-29")).toBe(210);
  });

  it("60-minute regular bars start 09:30, 10:30, ... 15:30 ET and the last is 30 minutes long", () => {
    const bars = aggregateIntraday(full, 60);
    // 2024-03-06 is EST (UTC-5).
    expect(Array.from(bars.t, hhmmUtc)).toEqual(["14:30", "15:30", "16:30", "17:30", "18:30", "19:30", "20:30"]);
    let lastVolume = 0;
    for (let i = 0; i < full.t.length; i++)
      if (full.t[i] >= Date.parse("2024-03-06T20:30:00Z") && full.t[i] < Date.parse("2024-03-06T21:00:00Z")) lastVolume += full.v[i];
    expect(bars.v[bars.v.length - 1]).toBe(lastVolume);
  });

  it("extended bars are anchored at 04:00 ET", () => {
    const bars = aggregateIntraday(full, 240, { extended: true });
    expect(Array.from(bars.t, hhmmUtc)).toEqual(["09:00", "13:00", "17:00", "21:00"]); // 04:00, 08:00, 12:00, 16:00 EST
    expect(aggregateIntraday(full, 480, { extended: true }).t.length).toBe(2);
    expect(aggregateIntraday(full, 480).t.length).toBe(1);
  });

  it("early close: 13:00 ET ends the session, the last 60-minute bar is 12:30-13:00", () => {
    const bars = aggregateIntraday(early, 60);
    expect(bars.t.length).toBe(4);
    expect(hhmmUtc(bars.t[3])).toBe("17:30"); // 12:30 EST
    expect(aggregateIntraday(early, 5).t.length).toBe(42);
  });

  it("anchors follow DST: 09:30 ET is 14:30 UTC before and 13:30 UTC after 2024-03-10", () => {
    const m = syntheticMinutes(calendarDates("2024-03-08", "2024-03-11"), 3);
    const starts = Array.from(aggregateIntraday(m, 390).t, (t) => new Date(t).toISOString().slice(0, 16));
    expect(starts).toEqual(["2024-03-08T14:30", "2024-03-11T13:30"]);
  });

  it("minute bars outside any session (weekend, holiday) are dropped", () => {
    const m = syntheticMinutes(calendarDates("2024-11-28", "2024-12-01"), 4); // Thanksgiving + weekend minutes
    const days = aggregateDaily(m);
    expect(Array.from(days.t, (t) => new Date(t).toISOString().slice(0, 10))).toEqual(["2024-11-29"]);
  });
});

describe("daily and weekly bars", () => {
  const minutes = syntheticMinutes(calendarDates("2024-01-08", "2024-02-23"), 11, { drop: 0.02 });

  it("daily bars come from the regular session, t = 00:00 UTC of the session date", () => {
    const daily = aggregateDaily(minutes);
    expect(rows(daily)).toEqual(refDaily(minutes));
    expect(daily.t[0]).toBe(utcMidnight("2024-01-08"));
    // The regular session only: the daily open is the 09:30 minute's open, not the 04:00 one's.
    const open930 = minutes.t.indexOf(sessionBounds("2024-01-08").openMs);
    expect(daily.o[0]).toBe(minutes.o[open930]);
  });

  it("weekly bars: one per week, t = the week's first trading day (Tuesday after MLK day)", () => {
    const weekly = aggregateWeekly(aggregateDaily(minutes));
    expect(rows(weekly)).toEqual(refWeekly(refDaily(minutes)));
    const days = Array.from(weekly.t, (t) => new Date(t).toISOString().slice(0, 10));
    expect(days).toEqual(["2024-01-08", "2024-01-16", "2024-01-22", "2024-01-29", "2024-02-05", "2024-02-12", "2024-02-20"]);
  });

  it("aggregateBars dispatches every resolution, D and W ignoring extended", () => {
    for (const r of RESOLUTIONS) expect(aggregateBars(minutes, r, { extended: true }).t.length).toBeGreaterThan(0);
    expect(rows(aggregateBars(minutes, "D", { extended: true }))).toEqual(refDaily(minutes));
  });
});

describe("volume columns", () => {
  it("bv + sv + uv = v on every aggregated bar of the simulator's minutes", async () => {
    const market = simulatedMarketAt(5, Date.parse("2024-06-01T00:00:00Z"));
    const { openMs, closeMs } = sessionBounds("2024-05-30", { extended: true });
    const minutes = await market.minuteBars("AAPL", openMs, closeMs, { extended: true });
    for (const r of RESOLUTIONS) {
      const b = aggregateBars(minutes, r, { extended: true });
      for (let i = 0; i < b.t.length; i++) expect(b.bv![i] + b.sv![i] + b.uv![i]).toBe(b.v[i]);
    }
    const regular = await market.minuteBars("AAPL", openMs, closeMs);
    expect(aggregateIntraday(regular, 1).t.length).toBe(390);
    expect(aggregateIntraday(minutes, 1, { extended: true }).t.length).toBe(960);
  });

  it("sources without sided volume give bars without bv/sv/uv", () => {
    const m = syntheticMinutes(calendarDates("2024-03-06", "2024-03-07"), 9, { sided: false });
    for (const r of RESOLUTIONS) {
      const b = aggregateBars(m, r);
      expect(b.bv).toBeUndefined();
      expect(b.uv).toBeUndefined();
    }
  });
});
