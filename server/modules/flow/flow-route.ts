import { LruCache } from "../../cache/lru-cache";
import type { AppServices } from "../../services";
import { routeDefiner } from "../define-route";
import { createPagingHints, type PagingHints } from "./paging-hints";

/** Memoised small values kept per app (universe, premium norms, rollups, dark-pool days). */
const MEMO_ENTRIES = 2_000;
/**
 * Session tapes kept per app: a full SPXW session is ~30k prints (a few MB with its columns), so
 * the tape cache is bounded separately from the small-value memo.
 */
const TAPE_ENTRIES = 64;
/**
 * Ticker session summaries kept per app (`session-summary.ts`), apart from the small-value memo
 * so a market-wide scan neither evicts those values nor its own earlier work: enough for a
 * market-wide scan of 6 sessions over the simulated universe's 146 tickers (a week's screens and
 * the day before), so a retried scan resumes where the timed-out one stopped. Longer scans (the
 * 30-session tide, baselines) resume from the persisted daily store, which keeps every finished
 * summary computed. A summary is ~0.2 MB in memory: this bounds the cache near 200 MB.
 * @see docs/methodology.md#flow-session-summaries
 */
export const SUMMARY_ENTRIES = 1_024;

/**
 * The flow module's state. `memo` caches small derived values under a string key; `tapes` holds
 * session tapes (see `tape.ts`). Module files keep their own typed helpers over both, so routes
 * never recompute a session's tape.
 */
export interface FlowState {
  services: AppServices;
  memo: LruCache<string, unknown>;
  tapes: LruCache<string, unknown>;
  /** Session summaries by (ticker, session, instant) (see `SUMMARY_ENTRIES`). */
  summaries: LruCache<string, unknown>;
  /** Windows the trade feeds were asked for lately (the `X-Skylit-Hint` detector). */
  hints: PagingHints;
}

/** The flow module's state for one app. */
export function createFlowState(services: AppServices): FlowState {
  return {
    services,
    memo: new LruCache<string, unknown>(MEMO_ENTRIES),
    tapes: new LruCache<string, unknown>(TAPE_ENTRIES),
    summaries: new LruCache<string, unknown>(SUMMARY_ENTRIES),
    hints: createPagingHints(),
  };
}

/** `defineRoute` for flow routes (`ctx.state` is the `FlowState`). */
export const flowRoute = routeDefiner<FlowState>();

/**
 * The flow module's per-account in-flight cap (spec: "a small fixed cap", not shown): over it is
 * 429 `TOO_MANY_CONCURRENT_QUERIES` with `Retry-After`. @see docs/api.md#flow-in-flight-cap
 */
export const FLOW_IN_FLIGHT_PER_ACCOUNT = 4;
/** Seconds a client waits after the in-flight 429 (flow queries finish in well under a second warm). */
export const FLOW_IN_FLIGHT_RETRY_AFTER_S = 1;
/** The flow module's request time limit (spec, Limits: 25 seconds, then 504 `GATEWAY_TIMEOUT`). */
export const FLOW_REQUEST_TIMEOUT_MS = 25_000;

/** What every flow route shares: host, module, entitlement, in-flight cap, time limit. */
export const FLOW_ROUTE_DEFAULTS = {
  host: "flow",
  module: "flow",
  method: "GET",
  entitlement: "flow",
  concurrency: {
    kind: "flow",
    max: () => FLOW_IN_FLIGHT_PER_ACCOUNT,
    retryAfterS: FLOW_IN_FLIGHT_RETRY_AFTER_S,
    code: "too_many_concurrent_queries",
  },
  timeoutMs: FLOW_REQUEST_TIMEOUT_MS,
} as const;

/** A flow route with the module's in-flight cap and time limit filled in where it declares none. */
export function withFlowLimits<R extends { concurrency?: unknown; timeoutMs?: number }>(route: R): R {
  return {
    ...route,
    concurrency: route.concurrency ?? FLOW_ROUTE_DEFAULTS.concurrency,
    timeoutMs: route.timeoutMs ?? FLOW_ROUTE_DEFAULTS.timeoutMs,
  };
}

/** The flow envelope's `meta`: response time and request id, plus paging fields when given. */
export function flowMeta(services: AppServices, requestId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { timestamp: new Date(services.wallNowMs()).toISOString(), requestId, ...extra };
}
