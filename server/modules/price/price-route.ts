import { LruCache } from "../../cache/lru-cache";
import type { AppServices } from "../../services";
import type { StreamHub } from "../../streams/stream-hub";
import type { BarsQuery } from "./bar-source";
import { routeDefiner } from "../define-route";

/** Complete sessions kept per app (hourly and daily entries together). */
const CACHE_ENTRIES = 200_000;

/** The price module's state: finished sessions' hourly and daily bars, packed. */
export interface PriceState {
  services: AppServices;
  sessions: LruCache<string, Float64Array>;
  /** The live bar stream hub, made on the first stream (`priceStreamHub`). */
  hub: StreamHub<BarsQuery> | null;
}

/** The price module's state for one app. */
export function createPriceState(services: AppServices): PriceState {
  return { services, sessions: new LruCache<string, Float64Array>(CACHE_ENTRIES), hub: null };
}

/** `defineRoute` for price routes (`ctx.state` is the `PriceState`). */
export const priceRoute = routeDefiner<PriceState>();
