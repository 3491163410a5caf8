import { calendarTable, dayIndexOf, tradingDayAt } from "./_calendar-table";
import { CalendarError } from "./calendar-error";
import type { IsoDate } from "./types";

/**
 * True when NYSE holds a session on the date (a weekday that is not a full-day closure).
 *
 * @param date ET calendar date `YYYY-MM-DD` in the covered years
 * @throws CalendarError `invalid_date`, `out_of_range`
 * @example
 * isTradingDay("2025-01-09"); // false (national day of mourning)
 * @see docs/methodology.md#nyse-holidays
 */
export function isTradingDay(date: IsoDate): boolean {
  return calendarTable().tradingIndex[dayIndexOf(date)] >= 0;
}

/**
 * True when the date is a trading day whose regular session ends at 13:00 ET.
 *
 * @example
 * isEarlyClose("2024-12-24"); // true
 * @see docs/methodology.md#early-closes
 */
export function isEarlyClose(date: IsoDate): boolean {
  return calendarTable().early[dayIndexOf(date)] === 1;
}

/**
 * NYSE's name of the full-day closure on a weekday, or null (trading days and weekends).
 *
 * @example
 * holidayName("2026-07-03"); // "Independence Day" (observed)
 * @see docs/methodology.md#nyse-holidays
 */
export function holidayName(date: IsoDate): string | null {
  return calendarTable().holidayNames[dayIndexOf(date)];
}

/**
 * The trading day `n` sessions after (`n > 0`) or before (`n < 0`) the date. From a non-trading
 * date, `+1` is the next trading day and `-1` the previous one; `n = 0` returns the date unchanged.
 *
 * @param n whole number of trading days
 * @throws CalendarError `invalid_argument`, `invalid_date`, `out_of_range` (also when the result leaves the covered years)
 * @example
 * addTradingDays("2024-03-28", 1); // "2024-04-01" (skips Good Friday and the weekend)
 * @see docs/methodology.md#trading-day-arithmetic
 */
export function addTradingDays(date: IsoDate, n: number): IsoDate {
  if (!Number.isInteger(n)) throw new CalendarError("invalid_argument", `n must be an integer, got ${n}`);
  const t = calendarTable();
  const i = dayIndexOf(date);
  if (n === 0) return date;
  const own = t.tradingIndex[i];
  // A non-trading date sits between positions atOrAfter-1 and atOrAfter.
  const base = own >= 0 ? own : n > 0 ? t.atOrAfter[i] - 1 : t.atOrAfter[i];
  return tradingDayAt(base + n, `${n} trading days from ${date}`);
}

/**
 * The first trading day strictly after the date.
 *
 * @example
 * nextTradingDay("2024-12-24"); // "2024-12-26"
 * @see docs/methodology.md#trading-day-arithmetic
 */
export function nextTradingDay(date: IsoDate): IsoDate {
  return addTradingDays(date, 1);
}

/**
 * The last trading day strictly before the date.
 *
 * @example
 * previousTradingDay("2025-01-10"); // "2025-01-08"
 * @see docs/methodology.md#trading-day-arithmetic
 */
export function previousTradingDay(date: IsoDate): IsoDate {
  return addTradingDays(date, -1);
}

/** Positions `[first, last]` of the trading days within `[from, to]` (empty when first > last). */
function span(from: IsoDate, to: IsoDate): [number, number] {
  const t = calendarTable();
  const a = dayIndexOf(from);
  const b = dayIndexOf(to);
  const first = t.atOrAfter[a];
  const last = t.tradingIndex[b] >= 0 ? t.tradingIndex[b] : t.atOrAfter[b] - 1;
  return [first, last];
}

/**
 * Number of trading days `d` with `from <= d <= to` (both inclusive); 0 when `from > to`.
 *
 * @example
 * countTradingDays("2024-01-01", "2024-12-31"); // 252
 * @see docs/methodology.md#trading-day-arithmetic
 */
export function countTradingDays(from: IsoDate, to: IsoDate): number {
  const [first, last] = span(from, to);
  return Math.max(0, last - first + 1);
}

/**
 * The trading days `d` with `from <= d <= to`, ascending; empty when `from > to`.
 *
 * @example
 * tradingDaysBetween("2024-03-28", "2024-04-02"); // ["2024-03-28", "2024-04-01", "2024-04-02"]
 * @see docs/methodology.md#trading-day-arithmetic
 */
export function tradingDaysBetween(from: IsoDate, to: IsoDate): IsoDate[] {
  const [first, last] = span(from, to);
  return last < first ? [] : calendarTable().tradingDays.slice(first, last + 1);
}
