import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addTradingDays, CalendarError, countTradingDays, isTradingDay, nextTradingDay, previousTradingDay, tradingDaysBetween } from "../../lib/time";
import { codeOf } from "../_helpers/thrown";

const DAY_MS = 86_400_000;
const FIRST_MS = Date.UTC(2020, 0, 1);
const LAST_MS = Date.UTC(2030, 11, 31);
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const shift = (date: string, days: number) => iso(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS);

/** Slow reference: walk the calendar one day at a time asking only isTradingDay. */
function slowAdd(date: string, n: number): string {
  let d = date;
  let left = Math.abs(n);
  while (left > 0) {
    d = shift(d, Math.sign(n));
    if (isTradingDay(d)) left--;
  }
  return d;
}
function slowCount(from: string, to: string): number {
  let n = 0;
  for (let d = from; d <= to; d = shift(d, 1)) if (isTradingDay(d)) n++;
  return n;
}

const anyDate = fc.integer({ min: FIRST_MS / DAY_MS + 70, max: LAST_MS / DAY_MS - 70 }).map((d) => iso(d * DAY_MS));

describe("trading-day arithmetic", () => {
  it("steps over weekends, holidays and one-off closures", () => {
    expect(nextTradingDay("2024-03-28")).toBe("2024-04-01"); // Good Friday + weekend
    expect(previousTradingDay("2024-04-01")).toBe("2024-03-28");
    expect(nextTradingDay("2025-01-08")).toBe("2025-01-10"); // Carter day of mourning
    expect(previousTradingDay("2025-01-10")).toBe("2025-01-08");
    expect(nextTradingDay("2024-12-24")).toBe("2024-12-26");
    expect(nextTradingDay("2026-07-02")).toBe("2026-07-06");
    expect(nextTradingDay("2024-03-09")).toBe("2024-03-11"); // from a Saturday
    expect(previousTradingDay("2024-03-10")).toBe("2024-03-08"); // from a Sunday
    expect(addTradingDays("2024-03-09", 0)).toBe("2024-03-09");
    expect(addTradingDays("2024-07-01", 5)).toBe("2024-07-09"); // skips July 4 and the weekend
    expect(addTradingDays("2024-07-09", -5)).toBe("2024-07-01");
  });

  it("counts and lists inclusively", () => {
    expect(countTradingDays("2024-03-28", "2024-04-02")).toBe(3);
    expect(tradingDaysBetween("2024-03-28", "2024-04-02")).toEqual(["2024-03-28", "2024-04-01", "2024-04-02"]);
    expect(countTradingDays("2024-03-29", "2024-03-31")).toBe(0);
    expect(tradingDaysBetween("2024-03-29", "2024-03-31")).toEqual([]);
    expect(countTradingDays("2024-04-02", "2024-03-28")).toBe(0);
    expect(tradingDaysBetween("2024-04-02", "2024-03-28")).toEqual([]);
    expect(countTradingDays("2024-04-01", "2024-04-01")).toBe(1);
  });

  it("addTradingDays agrees with a day-by-day walk", () => {
    fc.assert(
      fc.property(anyDate, fc.integer({ min: -25, max: 25 }), (d, n) => {
        expect(addTradingDays(d, n)).toBe(n === 0 ? d : slowAdd(d, n));
      }),
      { numRuns: 300 },
    );
  });

  it("countTradingDays and tradingDaysBetween agree with a day-by-day walk", () => {
    fc.assert(
      fc.property(anyDate, fc.integer({ min: -5, max: 60 }), (from, span) => {
        const to = shift(from, span);
        const list = tradingDaysBetween(from, to);
        expect(countTradingDays(from, to)).toBe(slowCount(from, to));
        expect(list).toHaveLength(countTradingDays(from, to));
        for (const d of list) expect(isTradingDay(d) && d >= from && d <= to).toBe(true);
        for (let i = 1; i < list.length; i++) expect(nextTradingDay(list[i - 1])).toBe(list[i]);
      }),
      { numRuns: 200 },
    );
  });

  it("add is invertible on trading days and counts its own steps", () => {
    fc.assert(
      fc.property(anyDate, fc.integer({ min: 1, max: 30 }), (d0, n) => {
        const d = isTradingDay(d0) ? d0 : nextTradingDay(d0);
        const e = addTradingDays(d, n);
        expect(addTradingDays(e, -n)).toBe(d);
        expect(countTradingDays(d, e)).toBe(n + 1);
        expect(previousTradingDay(nextTradingDay(d))).toBe(d);
      }),
      { numRuns: 200 },
    );
  });

  it("covers whole years: 2023 through 2030 total 2007 sessions", () => {
    // Sum of the per-year counts: 250 + 252 + 250 + 251 + 251 + 251 + 251 + 251 (see nyse-calendar.test.ts tables).
    expect(tradingDaysBetween("2023-01-01", "2030-12-31")).toHaveLength(2007);
  });

  it("throws typed errors at the edges of the covered years and for bad arguments", () => {
    expect(codeOf(CalendarError, () => nextTradingDay("2030-12-31"))).toBe("out_of_range");
    expect(codeOf(CalendarError, () => previousTradingDay("2020-01-02"))).toBe("out_of_range");
    expect(codeOf(CalendarError, () => addTradingDays("2024-01-02", 1.5))).toBe("invalid_argument");
    expect(codeOf(CalendarError, () => addTradingDays("2024-01-02", 10_000))).toBe("out_of_range");
    expect(codeOf(CalendarError, () => countTradingDays("2024-01-02", "2031-01-01"))).toBe("out_of_range");
    expect(codeOf(CalendarError, () => tradingDaysBetween("2024-01-32", "2024-02-01"))).toBe("invalid_date");
  });
});
