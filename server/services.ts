import type { KernelEngine } from "../lib/kernels";
import type { Clock, MarketData } from "../lib/market/market-data";
import type { AccountService, ConcurrencyLimiter, RateLimiter } from "./accounts/types";
import type { AnyRoute } from "./modules/define-route";
import type { ModuleDef, MountedModule } from "./modules/define-module";
import type { StreamTuning } from "./streams/settings";
import type { ReplayStoreFactory } from "./streams/replay-store";
import type { IpCeiling, IpCeilingOptions } from "./limits/ip-ceiling";
import type { ServiceControl } from "./control/service-state";
import type { DailyDataStore } from "./daily-store/store";
import type { ComputePool } from "./daily-store/compute-pool";
import type { MetricsRegistry } from "./metrics/registry";
import type { FeedStatus } from "./feeds/market-feed";

/** A structured log sink: one JSON-able object per line. Never given a key. */
export type Logger = (line: Record<string, unknown>) => void;

/** Host names for matching by `Host` header (DESIGN section 4); unset ones use path prefixes. */
export interface HostNames {
  base?: string;
  flowAlias?: string;
  atlas?: string;
  mcp?: string;
}

/** A fetch-style handler (the MCP tool server mounts as one). */
export type FetchLike = (request: Request) => Response | Promise<Response>;

/** Options of `createApp`. Everything is injected: no env reads, no listening. */
export interface AppOptions {
  market: MarketData;
  accounts: AccountService;
  rateLimiter: RateLimiter;
  concurrency: ConcurrencyLimiter;
  /** The API modules served, in order (their routes' order is the OpenAPI and tool order); default `builtinModules`. */
  // biome-ignore lint/suspicious/noExplicitAny: modules of different services types in one list
  modules?: readonly ModuleDef<any>[];
  /** The per-contract kernels; default WASM when it loads, else the JS engine. */
  kernels?: KernelEngine;
  /** The market clock (what "now" is for data); default `market.clock`. */
  clock?: Clock;
  /** Wall time for rate limits and logs, ms; default `Date.now`. */
  wallNowMs?: () => number;
  hosts?: HostNames;
  logger?: Logger;
  /** Request time limit, ms (then 504 `gateway_timeout`); default 25000. */
  requestTimeoutMs?: number;
  /**
   * With a compute pool: a flow or volatility call still computing after this long answers
   * `503 warming_up` while its rows go on computing in the workers; default 8000.
   * See docs/operations.md#compute-workers.
   */
  coldAnswerMs?: number;
  /** Per-IP requests per minute for requests without a valid key; default 120. */
  anonymousRequestsPerMinute?: number;
  /** The tool server mounted at {mcp_url}; absent -> 404 there. */
  mcp?: FetchLike;
  /** Public base URL written into OpenAPI `servers` (default derived from the request). */
  publicBaseUrl?: string;
  /** Stream timings (DESIGN section 7); defaults 3600 / 60 / 15 seconds. */
  streams?: Partial<StreamTimings>;
  /** The per-IP edge ceiling (requests over 5 minutes, trusted proxies), or a built one (shared on Redis); `false` turns it off. */
  ipCeiling?: IpCeilingOptions | IpCeiling | false;
  /** The stream resume store of each stream hub; default in process (`createReplayStore`), shared on Redis with `--redis`. */
  resumeStore?: ReplayStoreFactory;
  /** Maintenance pause and warm-up (`createServiceControl`); default always open. */
  control?: ServiceControl;
  /**
   * The persisted daily store (finished sessions' derived data, filled in the background);
   * absent -> computed on demand and kept in memory only. See docs/architecture.md#persisted-daily-store.
   */
  dailyStore?: DailyDataStore;
  /**
   * Worker threads for the request path's cold rows (flow session summaries, volatility closing
   * readings); absent -> computed on the event loop. See docs/architecture.md#worker-pools.
   */
  computePool?: ComputePool;
  /**
   * The bytes all server caches may hold together, MiB (`--cache-mb` / `OPTIONSCOPE_CACHE_MB`);
   * default `DEFAULT_CACHE_MB`. See docs/operations.md#cache-budget.
   */
  cacheMb?: number;
  /**
   * Where gauges go (event loop, in-flight requests, worker pools); absent -> none are kept.
   * `serveMetrics` also answers `GET /metrics` on {base_url} with them (Prometheus text format).
   * See docs/operations.md#metrics.
   */
  metrics?: MetricsRegistry;
  serveMetrics?: boolean;
  /**
   * A live feed's state (`MarketFeed.status`): served at `GET /v1/status/feed` on {base_url}
   * when given. See docs/data.md#feed-status.
   */
  feedStatus?: () => FeedStatus;
  /**
   * A live board more than this far behind the newest one that should exist is `stale: true`
   * (`--stale-after-s`); default DEFAULT_STALE_AFTER_MS (docs/methodology.md#staleness).
   */
  staleAfterMs?: number;
}

/** Stream lifecycle timings, seconds (env STREAM_MAX_DURATION_S, STREAM_BILLING_INTERVAL_S, STREAM_KEEPALIVE_S). */
export interface StreamTimings {
  maxDurationS: number;
  billingIntervalS: number;
  keepaliveS: number;
}

/** The spec's stream timings: one hour, billed each minute, a ping every 15 seconds. */
export const DEFAULT_STREAM_TIMINGS: StreamTimings = Object.freeze({ maxDurationS: 3600, billingIntervalS: 60, keepaliveS: 15 });

/**
 * The app-wide services every module and adapter sees: the options with defaults filled in.
 * Module-specific state (caches, pools) is not here: each module owns its own (`defineModule`).
 */
export interface AppServices {
  market: MarketData;
  accounts: AccountService;
  rateLimiter: RateLimiter;
  concurrency: ConcurrencyLimiter;
  kernels: KernelEngine;
  clock: Clock;
  wallNowMs: () => number;
  logger: Logger;
  requestTimeoutMs: number;
  /** See `AppOptions.coldAnswerMs`. */
  coldAnswerMs: number;
  anonymousRequestsPerMinute: number;
  publicBaseUrl?: string;
  streams: StreamTimings;
  /** Stream hub tuning set with `configureStreams` before the first stream opens (tests, bench). */
  streamTuning: Partial<StreamTuning>;
  /** Builds each stream hub's resume store; absent -> in process. */
  resumeStore?: ReplayStoreFactory;
  /** Open, paused for maintenance, or warming up. */
  control: ServiceControl;
  /** The persisted daily store, when the server has one (`optionscope serve` does). */
  dailyStore?: DailyDataStore;
  /** The compute pool, when the server has one (`optionscope serve` does). */
  computePool?: ComputePool;
  /** The bytes all server caches may hold together, split by `cacheShareBytes` (docs/operations.md#cache-budget). */
  cacheBytes: number;
  /** Gauges registered here are scraped from `GET /metrics` when `serveMetrics` (docs/operations.md#metrics). */
  metrics?: MetricsRegistry;
  serveMetrics: boolean;
  /** See `AppOptions.feedStatus`. */
  feedStatus?: () => FeedStatus;
  /** See `AppOptions.staleAfterMs`. */
  staleAfterMs: number;
  /** The mounted modules with their state, in order. */
  modules: readonly MountedModule[];
  /** Every mounted route, in module order (OpenAPI documents, tool list). */
  routes: readonly AnyRoute[];
}
