import { LruCache } from "../../cache/lru-cache";
import type { AppServices } from "../../services";
import { routeDefiner } from "../define-route";

/** Memoised small values kept per app (universe, premium norms, rollups, dark-pool days). */
const MEMO_ENTRIES = 2_000;
/**
 * Session tapes kept per app: a full SPXW session is ~30k prints (a few MB with its columns), so
 * the tape cache is bounded separately from the small-value memo.
 */
const TAPE_ENTRIES = 64;

/**
 * The flow module's state. `memo` caches small derived values under a string key; `tapes` holds
 * session tapes (see `tape.ts`). Module files keep their own typed helpers over both, so routes
 * never recompute a session's tape.
 */
export interface FlowState {
  services: AppServices;
  memo: LruCache<string, unknown>;
  tapes: LruCache<string, unknown>;
}

/** The flow module's state for one app. */
export function createFlowState(services: AppServices): FlowState {
  return { services, memo: new LruCache<string, unknown>(MEMO_ENTRIES), tapes: new LruCache<string, unknown>(TAPE_ENTRIES) };
}

/** `defineRoute` for flow routes (`ctx.state` is the `FlowState`). */
export const flowRoute = routeDefiner<FlowState>();
