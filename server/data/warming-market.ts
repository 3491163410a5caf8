/**
 * A market that is still loading: the server listens at once and answers data calls with 503
 * `warming_up` (the service control's warm-up probe) until the files are read, then this market
 * delegates to the loaded one. See docs/operations.md#maintenance-and-warm-up.
 */
import type { Clock, MarketData } from "../../lib/market/market-data";
import { ApiError } from "../errors";
import type { LoadProgress } from "./load-file-market";

/** `Retry-After` while loading, seconds. */
export const WARMING_RETRY_AFTER_S = 5;

/** The market while it loads, its warm-up probe, and the load itself. */
export interface WarmingMarket {
  market: MarketData;
  /** Null once loaded; else what `createServiceControl({ warmup })` reports. */
  warmup(): { retryAfterS: number; progress: { done: number; total: number } | null } | null;
  /** Resolves with the loaded market (rejects when the load fails). */
  ready: Promise<MarketData>;
}

/**
 * Start `load` and serve through the result once it resolves.
 * @example const w = warmingMarket(clock, (onProgress) => loadFileMarket(dir, { clock, onProgress }));
 */
export function warmingMarket(clock: Clock, load: (onProgress: (p: LoadProgress) => void) => Promise<MarketData>): WarmingMarket {
  let loaded: MarketData | null = null;
  let progress: { done: number; total: number } | null = null;
  const ready = load((p) => {
    progress = { done: p.fileIndex + (p.done ? 1 : 0), total: p.fileCount };
  }).then((m) => {
    loaded = m;
    return m;
  });
  ready.catch(() => {});
  const current = (): MarketData => {
    if (loaded) return loaded;
    throw new ApiError(503, "warming_up", "Market data is loading after a start; retry shortly.", {
      headers: { "Retry-After": String(WARMING_RETRY_AFTER_S) },
      details: { retry_after: WARMING_RETRY_AFTER_S },
    });
  };
  const market: MarketData = {
    get simulated() {
      return loaded?.simulated ?? false;
    },
    get seed() {
      return loaded?.seed;
    },
    clock,
    universe: () => current().universe(),
    symbolInfo: (t) => current().symbolInfo(t),
    chain: (s, t) => current().chain(s, t),
    spot: (s, t) => current().spot(s, t),
    minuteBars: (t, a, b, o) => current().minuteBars(t, a, b, o),
    optionPrints: (t, a, b) => current().optionPrints(t, a, b),
    offExchangePrints: (t, a, b) => current().offExchangePrints(t, a, b),
    earnings: (t, a, b) => current().earnings(t, a, b),
  };
  return {
    market,
    ready,
    warmup: () => (loaded ? null : { retryAfterS: WARMING_RETRY_AFTER_S, progress }),
  };
}
