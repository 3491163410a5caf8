import { LruCache } from "../../cache/lru-cache";
import type { AppServices } from "../../services";
import { routeDefiner } from "../define-route";

/** Memoised values kept per app (session tapes, rollups, dark-pool days). */
const MEMO_ENTRIES = 2_000;

/**
 * The flow module's state. `memo` caches derived values under a string key; module files keep
 * their own typed helpers over it (see `tape.ts`) so routes never recompute a session's tape.
 */
export interface FlowState {
  services: AppServices;
  memo: LruCache<string, unknown>;
}

/** The flow module's state for one app. */
export function createFlowState(services: AppServices): FlowState {
  return { services, memo: new LruCache<string, unknown>(MEMO_ENTRIES) };
}

/** `defineRoute` for flow routes (`ctx.state` is the `FlowState`). */
export const flowRoute = routeDefiner<FlowState>();
