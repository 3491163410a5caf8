import { cacheShareBytes } from "../../cache/cache-budget";
import { LruCache } from "../../cache/lru-cache";
import type { AppServices } from "../../services";
import type { StreamHub } from "../../streams/stream-hub";
import type { BarsQuery } from "./bar-stream-source";
import { routeDefiner } from "../define-route";

/** Complete sessions kept per app at most (hourly and daily entries together); bytes bound them too. */
const CACHE_ENTRIES = 200_000;

/** Parts of the budget's `price` share: finished sessions' bars, chart-mark sessions (`session-marks.ts`). */
export const PRICE_SPLIT = { sessions: 0.6, marks: 0.4 } as const;

/** The price module's state: finished sessions' hourly and daily bars, packed. */
export interface PriceState {
  services: AppServices;
  sessions: LruCache<string, Float64Array>;
  /** The live bar stream hub, made on the first stream (`priceStreamHub`). */
  hub: StreamHub<BarsQuery> | null;
}

/** The price module's state for one app. */
export function createPriceState(services: AppServices): PriceState {
  const maxBytes = cacheShareBytes(services.cacheBytes, "price") * PRICE_SPLIT.sessions;
  return { services, sessions: new LruCache<string, Float64Array>({ maxEntries: CACHE_ENTRIES, maxBytes }), hub: null };
}

/** `defineRoute` for price routes (`ctx.state` is the `PriceState`). */
export const priceRoute = routeDefiner<PriceState>();
