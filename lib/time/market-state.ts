import { calendarTable, dayIndexOfEpochDay, tradingDayAt } from "./_calendar-table";
import { sessionRow } from "./_session-table";
import { etEpochDayOf } from "./et-time";
import type { IsoDate, MarketState } from "./types";

/**
 * The trading date whose extended session (from 04:00 ET) contains the instant or, between
 * sessions, most recently started before it. Overnight, weekends and holidays map to the previous
 * trading date; 04:00 ET on a trading day starts that day.
 *
 * @param ms epoch milliseconds
 * @throws CalendarError `out_of_range` when that date is outside the covered years
 * @example
 * sessionDateAt(Date.UTC(2024, 2, 9, 15, 0)); // "2024-03-08" (a Saturday maps to Friday)
 * @see docs/methodology.md#market-state
 */
export function sessionDateAt(ms: number): IsoDate {
  const cal = calendarTable();
  const i = dayIndexOfEpochDay(etEpochDayOf(ms));
  const k = cal.tradingIndex[i];
  if (k >= 0 && ms >= sessionRow(k).extendedOpenMs[k]) return cal.tradingDays[k];
  // atOrAfter of a trading day is the day itself, so -1 is the previous session in both cases.
  return tradingDayAt(cal.atOrAfter[i] - 1, `the session before ${cal.dates[i]}`);
}

/**
 * US equity session state at an instant: `pre_open` [04:00, 09:30) ET, `open` [09:30, regular
 * close), `post_close` [regular close, extended close), `closed` otherwise and on non-trading days.
 *
 * @example
 * marketStateAt(Date.UTC(2024, 10, 29, 18, 30)); // "post_close" (13:30 ET on an early close)
 * @see docs/methodology.md#market-state
 */
export function marketStateAt(ms: number): MarketState {
  const cal = calendarTable();
  const k = cal.tradingIndex[dayIndexOfEpochDay(etEpochDayOf(ms))];
  if (k < 0) return "closed";
  const s = sessionRow(k);
  if (ms < s.extendedOpenMs[k]) return "closed";
  if (ms < s.regularOpenMs[k]) return "pre_open";
  if (ms < s.regularCloseMs[k]) return "open";
  if (ms < s.extendedCloseMs[k]) return "post_close";
  return "closed";
}
