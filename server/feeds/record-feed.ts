/**
 * Recording a live feed into the store of record (server/recording): the recorder follows the
 * feed's market through a view whose clock runs `RECORD_LAG_MS` behind, so a minute is written
 * once its board (polled just after the minute, answered within the poll period) and its prints
 * have arrived; a minute whose board never came is stored without one (a gap, never filled in).
 * @see docs/data.md#recording-a-live-feed
 */
import type { Clock, MarketData } from "../../lib/market/market-data";
import { startRecording, type RecordingHandle } from "../recording/recorder";

/** How far behind the feed the recorder runs: one poll period and 30 s for a slow snapshot. */
export const RECORD_LAG_MS = 90_000;

/** `market` as seen `lagMs` in the past: the same data, a clock that runs behind. */
function laggedView(market: MarketData, lagMs: number): MarketData {
  const clock: Clock = { now: () => market.clock.now() - lagMs };
  return new Proxy(market, { get: (target, key, receiver) => (key === "clock" ? clock : Reflect.get(target, key, receiver)) });
}

/**
 * Start recording `market` (a feed's) into `dataDir`'s store, `RECORD_LAG_MS` behind it.
 * @example const rec = await recordFeed(feed.market, { dataDir, underlyings: ["SPY"], log });
 */
export function recordFeed(
  market: MarketData,
  options: { dataDir: string; underlyings: readonly string[]; log: (line: Record<string, unknown>) => void },
): Promise<RecordingHandle> {
  const { log } = options;
  return startRecording(laggedView(market, RECORD_LAG_MS), {
    dataDir: options.dataDir,
    underlyings: options.underlyings,
    onError: (error) => log({ ts: new Date().toISOString(), level: "error", msg: "recording_failed", error: String((error as Error)?.message ?? error).slice(0, 300) }),
    onSession: (date, symbol) => log({ ts: new Date().toISOString(), level: "info", msg: "recording_session_compacted", date, symbol }),
  });
}
