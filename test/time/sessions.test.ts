import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CalendarError,
  etDateOf,
  isEarlyClose,
  isTradingDay,
  marketStateAt,
  minutesOfSession,
  previousTradingDay,
  sessionBounds,
  sessionDateAt,
  sessionMinuteCount,
  tradingDaysBetween,
} from "../../lib/time";

const utc = (y: number, mo: number, d: number, h = 0, mi = 0) => Date.UTC(y, mo - 1, d, h, mi);
const MINUTE = 60_000;

describe("sessionBounds", () => {
  it("regular and extended sessions on both sides of the 2024 DST changes (hand-computed UTC)", () => {
    // EST = UTC-5 until 2024-03-10 and from 2024-11-03; EDT = UTC-4 in between.
    expect(sessionBounds("2024-03-08")).toEqual({ openMs: utc(2024, 3, 8, 14, 30), closeMs: utc(2024, 3, 8, 21) });
    expect(sessionBounds("2024-03-11")).toEqual({ openMs: utc(2024, 3, 11, 13, 30), closeMs: utc(2024, 3, 11, 20) });
    expect(sessionBounds("2024-03-08", { extended: true })).toEqual({ openMs: utc(2024, 3, 8, 9), closeMs: utc(2024, 3, 9, 1) });
    expect(sessionBounds("2024-03-11", { extended: true })).toEqual({ openMs: utc(2024, 3, 11, 8), closeMs: utc(2024, 3, 12, 0) });
    expect(sessionBounds("2024-11-01")).toEqual({ openMs: utc(2024, 11, 1, 13, 30), closeMs: utc(2024, 11, 1, 20) });
    expect(sessionBounds("2024-11-04")).toEqual({ openMs: utc(2024, 11, 4, 14, 30), closeMs: utc(2024, 11, 4, 21) });
    expect(sessionBounds("2024-11-04", { extended: true })).toEqual({ openMs: utc(2024, 11, 4, 9), closeMs: utc(2024, 11, 5, 1) });
  });

  it("early closes end at 13:00 ET (regular) and 17:00 ET (extended)", () => {
    expect(sessionBounds("2024-11-29")).toEqual({ openMs: utc(2024, 11, 29, 14, 30), closeMs: utc(2024, 11, 29, 18) });
    expect(sessionBounds("2024-11-29", { extended: true })).toEqual({ openMs: utc(2024, 11, 29, 9), closeMs: utc(2024, 11, 29, 22) });
    expect(sessionBounds("2025-07-03")).toEqual({ openMs: utc(2025, 7, 3, 13, 30), closeMs: utc(2025, 7, 3, 17) });
  });

  it("frames: 390 / 210 regular and 960 / 780 extended, one minute apart from the open", () => {
    expect(sessionMinuteCount("2024-07-01")).toBe(390);
    expect(sessionMinuteCount("2024-07-03")).toBe(210);
    expect(sessionMinuteCount("2024-07-01", { extended: true })).toBe(960);
    expect(sessionMinuteCount("2024-07-03", { extended: true })).toBe(780);
    const frames = minutesOfSession("2024-03-11");
    expect(frames).toHaveLength(390);
    expect(frames[0]).toBe(utc(2024, 3, 11, 13, 30)); // 09:30 EDT
    expect(frames[389]).toBe(utc(2024, 3, 11, 19, 59)); // 15:59 EDT
    const ext = minutesOfSession("2024-11-04", { extended: true });
    expect(ext[0]).toBe(utc(2024, 11, 4, 9)); // 04:00 EST
    expect(ext[959]).toBe(utc(2024, 11, 5, 0, 59)); // 19:59 EST
    for (let i = 1; i < ext.length; i++) expect(ext[i] - ext[i - 1]).toBe(MINUTE);
  });

  it("every trading day 2020-2030 has the same wall-clock session", () => {
    for (const d of tradingDaysBetween("2020-01-01", "2030-12-31")) {
      const r = sessionBounds(d);
      const x = sessionBounds(d, { extended: true });
      expect(etDateOf(r.openMs)).toBe(d);
      expect(etDateOf(x.closeMs - MINUTE)).toBe(d);
      expect(x.openMs).toBe(r.openMs - 330 * MINUTE);
      expect(r.closeMs - r.openMs).toBe((isEarlyClose(d) ? 210 : 390) * MINUTE);
      expect(x.closeMs - r.closeMs).toBe(240 * MINUTE);
    }
  });

  it("refuses days without a session", () => {
    for (const d of ["2024-03-09", "2025-01-09", "2024-12-25"]) {
      try {
        sessionBounds(d);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(CalendarError);
        expect((e as CalendarError).code).toBe("no_session");
      }
    }
  });
});

describe("marketStateAt", () => {
  it("walks through a regular day (2024-03-11, EDT)", () => {
    expect(marketStateAt(utc(2024, 3, 11, 7, 59))).toBe("closed"); // 03:59
    expect(marketStateAt(utc(2024, 3, 11, 8, 0))).toBe("pre_open"); // 04:00
    expect(marketStateAt(utc(2024, 3, 11, 13, 29))).toBe("pre_open");
    expect(marketStateAt(utc(2024, 3, 11, 13, 30))).toBe("open"); // 09:30
    expect(marketStateAt(utc(2024, 3, 11, 19, 59))).toBe("open");
    expect(marketStateAt(utc(2024, 3, 11, 20, 0))).toBe("post_close"); // 16:00
    expect(marketStateAt(utc(2024, 3, 11, 23, 59))).toBe("post_close");
    expect(marketStateAt(utc(2024, 3, 12, 0, 0))).toBe("closed"); // 20:00
  });

  it("early close, weekend, holiday and the DST Friday", () => {
    expect(marketStateAt(utc(2024, 11, 29, 17, 59))).toBe("open"); // 12:59 EST
    expect(marketStateAt(utc(2024, 11, 29, 18, 0))).toBe("post_close");
    expect(marketStateAt(utc(2024, 11, 29, 22, 0))).toBe("closed"); // 17:00
    expect(marketStateAt(utc(2024, 3, 9, 15))).toBe("closed");
    expect(marketStateAt(utc(2025, 1, 9, 16))).toBe("closed");
    expect(marketStateAt(utc(2024, 3, 8, 14, 29))).toBe("pre_open"); // 09:29 EST
    expect(marketStateAt(utc(2024, 3, 8, 14, 30))).toBe("open");
  });
});

describe("sessionDateAt", () => {
  it("maps nights, weekends and holidays to the session that last started", () => {
    expect(sessionDateAt(utc(2024, 3, 11, 7, 59))).toBe("2024-03-08"); // Monday 03:59 EDT
    expect(sessionDateAt(utc(2024, 3, 11, 8, 0))).toBe("2024-03-11"); // Monday 04:00 EDT
    expect(sessionDateAt(utc(2024, 3, 9, 15))).toBe("2024-03-08"); // Saturday
    expect(sessionDateAt(utc(2024, 3, 12, 1))).toBe("2024-03-11"); // 21:00 EDT
    expect(sessionDateAt(utc(2025, 1, 9, 16))).toBe("2025-01-08"); // day of mourning
    expect(sessionDateAt(utc(2024, 11, 29, 23))).toBe("2024-11-29"); // after the early close
  });

  it("is the latest trading day whose extended open is not after the instant", () => {
    const t = fc.integer({ min: utc(2020, 1, 3) / MINUTE, max: utc(2030, 12, 31) / MINUTE }).map((m) => m * MINUTE);
    fc.assert(
      fc.property(t, (ms) => {
        const d = sessionDateAt(ms);
        expect(isTradingDay(d)).toBe(true);
        const open = sessionBounds(d, { extended: true }).openMs;
        expect(open).toBeLessThanOrEqual(ms);
        // The next trading day's extended open is after ms.
        const days = tradingDaysBetween(d, etDateOf(ms));
        for (const later of days.slice(1)) expect(sessionBounds(later, { extended: true }).openMs).toBeGreaterThan(ms);
        expect(marketStateAt(ms) === "closed" || etDateOf(ms) === d).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it("throws out_of_range before the first covered session", () => {
    try {
      sessionDateAt(utc(2020, 1, 2, 8, 59)); // 03:59 EST on the first trading day
      expect.unreachable();
    } catch (e) {
      expect((e as CalendarError).code).toBe("out_of_range");
    }
    expect(previousTradingDay("2020-01-03")).toBe("2020-01-02");
  });
});
