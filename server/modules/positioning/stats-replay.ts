/**
 * One symbol's session replayed minute by minute into its daily statistics: the frames are the
 * grids `/v1/historical` returns for the same minutes and parameters, so the two always agree.
 * Pure over its inputs (market, kernel engine, options), so it runs in the request's thread or in
 * a statistics worker alike. See docs/operations.md#daily-statistics-performance.
 */
import type { KernelEngine } from "../../../lib/kernels";
import type { ChainSnapshot, MarketData } from "../../../lib/market/market-data";
import type { ChainWindowSelect } from "../../../lib/market/simulated";
import {
  dailyStats,
  exposureGrid,
  PositioningError,
  sessionFrameInstants,
  statFrame,
  strikeWindow,
  type DailyStat,
  type ExposureGridOptionsInput,
  type StatFrame,
} from "../../../lib/positioning";

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

type WindowedChain = (symbol: string, atMs: number, select: ChainWindowSelect) => ChainSnapshot | null;

/**
 * The market's windowed board source, when it has one (the simulator's `chainWindowSync`) and the
 * options select a plain nearest-N window: only the window's contracts are generated, with the
 * values the full board gives them, so the grid is identical at a fraction of the cost.
 */
function windowedSource(market: MarketData, options: ExposureGridOptionsInput): ((symbol: string, atMs: number) => ChainSnapshot | null) | null {
  const fn = (market as MarketData & { chainWindowSync?: WindowedChain }).chainWindowSync;
  if (typeof fn !== "function" || options.expirations !== undefined) return null;
  const maxStrikes = options.maxStrikes;
  const maxExpirations = options.maxExpirations;
  if (typeof maxStrikes !== "number" && maxStrikes !== "all") return null;
  if (typeof maxExpirations !== "number" && maxExpirations !== "all") return null;
  const select: ChainWindowSelect = { maxExpirations, strikeWindow: (strikes, spot) => strikeWindow(strikes, spot, maxStrikes) };
  return (symbol, atMs) => fn.call(market, symbol, atMs, select);
}

/**
 * Replays `task`'s session (frames without a board of their own minute are skipped) into its
 * daily statistics; null on days without a session or without frames.
 * @example await replayStatsSession(market, engine, { symbol: "SPY", date: "2024-03-06", extended: false, nowMs, options })
 * @see docs/methodology.md#daily-statistics
 */
export async function replayStatsSession(market: MarketData, engine: KernelEngine, task: StatsSessionTask): Promise<DailyStat | null> {
  const { symbol, date, extended, nowMs, options } = task;
  const windowed = windowedSource(market, options);
  const frames: StatFrame[] = [];
  for (const t of sessionFrameInstants(date, { extended })) {
    if (t > nowMs) break;
    const chain = windowed ? windowed(symbol, t) : await market.chain(symbol, t);
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
