/**
 * "The board at an instant", one rule for every module: a reading of session `date` at `atMs`
 * uses `MarketData.chain(symbol, boardInstantMs(date, atMs))`, the minute board at or before the
 * instant, the instant clamped to the session's `[open, close]`. At 11:00:00 that is the 11:00
 * board (whose volume counts the prints before 11:00, as a tape cut at 11:00 does), after the
 * close the closing board. For today's session at `now` it is `chain(symbol, now)`.
 * @see docs/methodology.md#the-board-at-an-instant
 */
import { sessionBounds } from "../time/session";
import { isTradingDay, previousTradingDay } from "../time/trading-days";
import type { IsoDate } from "../time/types";

/**
 * The instant whose board a reading of session `date` at `atMs` uses (also where the session's
 * tape is cut: prints before it).
 * @example boardInstantMs("2024-03-06", Date.parse("2024-03-06T16:00:00Z")) // the 11:00 ET minute itself
 */
export function boardInstantMs(date: IsoDate, atMs: number): number {
  const { openMs, closeMs } = sessionBounds(date);
  return Math.max(openMs, Math.min(closeMs, atMs));
}

/**
 * Instants whose boards are the last to list an expiration dated `expiration` (an expiration leaves
 * the board at its settlement): the minute before its settlement date's close (PM-settled), then
 * the previous session's close (AM-settled, gone from 09:30). Try them in order.
 * @example lastListingInstantsMs("2024-03-05") // [close of 2024-03-05 - 1 ms, close of 2024-03-04]
 */
export function lastListingInstantsMs(expiration: IsoDate): number[] {
  const settles = isTradingDay(expiration) ? expiration : previousTradingDay(expiration);
  const { openMs, closeMs } = sessionBounds(settles);
  return [closeMs - 1, openMs - 1];
}
