import { cacheShareBytes } from "../../cache/cache-budget";
import { LruCache } from "../../cache/lru-cache";
import type { AppServices } from "../../services";
import { routeDefiner } from "../define-route";
import { createPagingHints, type PagingHints } from "./shared/paging-hints";
import { tapeCacheEntryBytes } from "./sessions/tape-bytes";
import { feedFreshnessMeta } from "../freshness-meta";

/**
 * The flow module's state. `memo` caches small derived values under a string key; `tapes` holds
 * session tapes (see `tape.ts`). Module files keep their own typed helpers over both, so routes
 * never recompute a session's tape.
 */
export interface FlowState {
  services: AppServices;
  memo: LruCache<string, unknown>;
  /** Session tapes and finished sessions' raw prints, sized by `tapeCacheEntryBytes`. */
  tapes: LruCache<string, unknown>;
  /**
   * Session summaries by (ticker, session, instant), ~0.2 MB each, kept apart from the small-value
   * memo so a market-wide scan neither evicts those values nor its own earlier work (a retried scan
   * resumes where the timed-out one stopped). Longer scans resume from the persisted daily store.
   * @see docs/methodology.md#flow-session-summaries
   */
  summaries: LruCache<string, unknown>;
  /** Windows the trade feeds were asked for lately (the `X-Skylit-Hint` detector). */
  hints: PagingHints;
}

/** The flow module's state for one app. */
export function createFlowState(services: AppServices): FlowState {
  return {
    services,
    memo: new LruCache<string, unknown>({ maxBytes: cacheShareBytes(services.cacheBytes, "flowMemo") }),
    tapes: new LruCache<string, unknown>({ maxBytes: cacheShareBytes(services.cacheBytes, "flowTapes"), sizeOf: tapeCacheEntryBytes }),
    summaries: new LruCache<string, unknown>({ maxBytes: cacheShareBytes(services.cacheBytes, "flowSummaries") }),
    hints: createPagingHints(undefined, cacheShareBytes(services.cacheBytes, "flowPagingHints")),
  };
}

/** `defineRoute` for flow routes (`ctx.state` is the `FlowState`). */
export const flowRoute = routeDefiner<FlowState>();

/**
 * The flow module's per-account in-flight cap (spec: "a small fixed cap", not shown): over it is
 * 429 `TOO_MANY_CONCURRENT_QUERIES` with `Retry-After`. @see docs/api.md#flow-in-flight-cap
 */
const FLOW_IN_FLIGHT_PER_ACCOUNT = 4;
/** Seconds a client waits after the in-flight 429 (flow queries finish in well under a second warm). */
const FLOW_IN_FLIGHT_RETRY_AFTER_S = 1;
/** The flow module's request time limit (spec, Limits: 25 seconds, then 504 `GATEWAY_TIMEOUT`). */
const FLOW_REQUEST_TIMEOUT_MS = 25_000;

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
  // With a live feed: how old its data is, by the one staleness rule (docs/methodology.md#staleness).
  return { timestamp: new Date(services.wallNowMs()).toISOString(), requestId, ...feedFreshnessMeta(services), ...extra };
}
