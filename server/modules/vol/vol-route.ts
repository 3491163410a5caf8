import { LruCache } from "../../cache/lru-cache";
import type { AppServices } from "../../services";
import { routeDefiner } from "../define-route";

/** Memoised values kept per app (readings per symbol and minute, daily history rows). */
const MEMO_ENTRIES = 5_000;

/** The volatility module's state. */
export interface VolState {
  services: AppServices;
  memo: LruCache<string, unknown>;
}

/** The volatility module's state for one app. */
export function createVolState(services: AppServices): VolState {
  return { services, memo: new LruCache<string, unknown>(MEMO_ENTRIES) };
}

/** `defineRoute` for volatility routes (`ctx.state` is the `VolState`). */
export const volRoute = routeDefiner<VolState>();
