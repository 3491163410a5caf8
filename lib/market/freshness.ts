/**
 * How old an answer's board is, and the one rule that calls it stale (positioning, flow and
 * volatility all use it): a board is stale when the newest board that should exist at `now` is
 * more than `limitMs` younger than it. During a session that newest board is now's minute; between
 * sessions it is the last session's closing board, so a closing board read overnight is not stale
 * but a 20-month-old board is, whatever the hour.
 * @see docs/methodology.md#staleness
 */
import { sessionBounds } from "../time/session";
import { sessionDateAt } from "../time/market-state";
import { previousTradingDay } from "../time/trading-days";

/** Default limit: a board more than 20 minutes behind the newest one is stale (the reference's figure). */
export const DEFAULT_STALE_AFTER_MS = 20 * 60_000;

/**
 * The instant of the newest regular-session board that exists at `nowMs`: now's minute while a
 * session is open, else the close of the last session that has closed.
 * @example expectedBoardMs(Date.parse("2024-03-06T16:00:30Z")) // Date.parse("2024-03-06T16:00:00Z")
 */
export function expectedBoardMs(nowMs: number): number {
  const date = sessionDateAt(nowMs);
  const { openMs, closeMs } = sessionBounds(date);
  if (nowMs < openMs) return sessionBounds(previousTradingDay(date)).closeMs;
  return Math.min(closeMs, Math.floor(nowMs / 60_000) * 60_000);
}

/** The age of a board at `nowMs` and whether it is stale. */
export interface Freshness {
  /** Seconds from the board's instant to now (0 when the board is ahead of now). */
  ageS: number;
  /** Seconds the board is behind the newest board that should exist. */
  lagS: number;
  stale: boolean;
}

/**
 * The freshness of a board of instant `asOfMs` read at `nowMs`.
 * @example freshness(Date.parse("2024-03-06T15:00:00Z"), Date.parse("2024-03-06T16:00:30Z")).stale // true (an hour behind, limit 20 min)
 */
export function freshness(asOfMs: number, nowMs: number, limitMs: number = DEFAULT_STALE_AFTER_MS): Freshness {
  const lagMs = Math.max(0, expectedBoardMs(nowMs) - asOfMs);
  return { ageS: Math.max(0, Math.round((nowMs - asOfMs) / 1000)), lagS: Math.round(lagMs / 1000), stale: lagMs > limitMs };
}
