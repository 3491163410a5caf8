/**
 * One symbol's session replayed minute by minute into its daily statistics: the frames are the
 * grids `/v1/historical` returns for the same minutes and parameters, so the two always agree.
 * Pure over its inputs (market, kernel engine, options), so it runs in the request's thread or in
 * a statistics worker alike. See docs/operations.md#daily-statistics-performance.
 */
import type { KernelEngine } from "../../../lib/kernels";
import type { MarketData } from "../../../lib/market/market-data";
import {
  dailyStats,
  exposureGrid,
  PositioningError,
  sessionFrameInstants,
  statFrame,
  type DailyStat,
  type ExposureGridOptionsInput,
  type StatFrame,
} from "../../../lib/positioning";
import { windowedBoards } from "./windowed-boards";

/** One symbol-session to replay. */
export interface StatsSessionTask {
  symbol: string;
  /** ET session date `YYYY-MM-DD`. */
  date: string;
  extended: boolean;
  /** The request's market "now", ms: later minutes are not replayed. */
  nowMs: number;
  /** Grid options of every frame (the replay defaults with the asked metric). */
  options: ExposureGridOptionsInput;
}

/**
 * Replays `task`'s session (frames without a board of their own minute are skipped) into its
 * daily statistics; null on days without a session or without frames.
 * @example await replayStatsSession(market, engine, { symbol: "SPY", date: "2024-03-06", extended: false, nowMs, options })
 * @see docs/methodology.md#daily-statistics
 */
export async function replayStatsSession(market: MarketData, engine: KernelEngine, task: StatsSessionTask): Promise<DailyStat | null> {
  const { symbol, date, extended, nowMs, options } = task;
  // Extended sessions replay extended-hours boards (docs/methodology.md#extended-hours-boards).
  // A window's rows only, where the market can read less than whole boards (the simulator, the store of record).
  const windowed = windowedBoards(market, options, { extended });
  const frames: StatFrame[] = [];
  for (const t of sessionFrameInstants(date, { extended })) {
    if (t > nowMs) break;
    const chain = windowed ? await windowed(symbol, t) : await market.chain(symbol, t, { extended });
    if (!chain || chain.asOfMs !== t) continue;
    try {
      frames.push(statFrame(exposureGrid(chain, options, engine)));
    } catch (error) {
      if (error instanceof PositioningError && error.code !== "invalid_parameter") continue;
      throw error;
    }
  }
  return dailyStats(frames, { date, extended, nowMs });
}
