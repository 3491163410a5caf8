import { isTradingDay, minutesOfSession, sessionBounds } from "../time";
import { dailyStatsInWindow, type DailyStat, type StatFrame } from "./daily-stats";

/**
 * The instants of a session's one-minute frames: every whole minute from the open up to, not
 * including, the close (regular 09:30..15:59 ET, extended 04:00..19:59 ET; fewer on early-close
 * days). Replay and statistics both use these stamps. Empty for weekends and NYSE holidays.
 *
 * @param date ET session date `YYYY-MM-DD`
 * @returns frame instants, ms since the epoch, ascending
 * @example sessionFrameInstants("2025-03-05").length // 390
 * @see docs/methodology.md#daily-statistics
 */
export function sessionFrameInstants(date: string, options: { extended?: boolean } = {}): number[] {
  if (!isTradingDay(date)) return [];
  return minutesOfSession(date, { extended: options.extended ?? false });
}

/**
 * Daily statistics of one symbol's session from its frames, exactly as the spec defines them.
 *
 * The session is the regular one (09:30-16:00 ET) or, with `extended`, 04:00-20:00 ET, with early
 * closes from the NYSE calendar. Returns null on days without a session or without frames.
 *
 * @param frames the session's frames (cells are strike x expiration grid cells, dollars)
 * @param options.date ET session date; `nowMs` decides `complete`
 * @example
 * const stamps = sessionFrameInstants("2025-03-05");
 * const frames = stamps.map((t) => statFrame(exposureGrid(market.chain("SPY", t), {}, engine)));
 * dailyStats(frames, { date: "2025-03-05", nowMs: Date.now() });
 * @see docs/methodology.md#daily-statistics
 */
export function dailyStats(frames: readonly StatFrame[], options: { date: string; extended?: boolean; nowMs: number }): DailyStat | null {
  if (!isTradingDay(options.date)) return null;
  const { openMs, closeMs } = sessionBounds(options.date, { extended: options.extended ?? false });
  return dailyStatsInWindow(frames, { date: options.date, openMs, closeMs, nowMs: options.nowMs });
}
