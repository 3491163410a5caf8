import { parseArgs } from "node:util";
import { resolveDataDir } from "./accounts/open-db";
import { DEFAULT_PG_GROUP_COMMIT_WINDOW_MS } from "./accounts/postgres/pg-batcher";
import { DEFAULT_FLOW_FILL_SESSIONS } from "./daily-store/plan";
import { DEFAULT_CACHE_MB, MAX_CACHE_MB, MIN_CACHE_MB } from "./cache/cache-budget";
import { DEFAULT_STORE_TIMEOUT_MS } from "./store-deadline";
import { DEFAULT_STREAM_TIMINGS, type HostNames, type StreamTimings } from "./services";

/** Everything `optionscope serve` needs, from flags and environment (flags win). */
export interface ServeConfig {
  port: number;
  hostname: string;
  /** Accounts store and other state (`OPTIONSCOPE_DATA_DIR`, default ./.optionscope). */
  dataDir: string;
  seed: string | undefined;
  /** Pinned or starting simulated instant (`OPTIONSCOPE_NOW`), ms. */
  nowMs: number | undefined;
  /** Simulated seconds per real second (`OPTIONSCOPE_CLOCK_SPEED`). */
  clockSpeed: number | undefined;
  /** Folder of real data files; absent -> the simulated market. */
  marketDataDir: string | undefined;
  hosts: HostNames;
  streams: StreamTimings;
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  maxHeaderSize: number;
  /** Print one JSON line per request. */
  accessLog: boolean;
  /**
   * Accounts-store durability (`full` when absent; docs/operations.md#durability). No flag sets it:
   * the load bench (bench/server-load.ts) does, to measure both settings on the real composition.
   */
  durability?: "full" | "normal";
  /** Per-IP edge ceiling (requests per address over 5 minutes) and trusted proxies; null turns it off. */
  ipCeiling: { maxRequests: number; trustedProxies: string[] } | null;
  /**
   * Redis for the state several instances share (`--redis` / `OPTIONSCOPE_REDIS`): per-key rate
   * limits, per-account in-flight slots, the per-IP ceiling, console sign-in limits and the stream
   * resume buffer. Absent: all in process (one instance).
   */
  redisUrl: string | undefined;
  /**
   * The accounts store (`--store` / `OPTIONSCOPE_STORE`): a PostgreSQL URL shared by several
   * instances; absent: the SQLite file in `dataDir`. See docs/operations.md#postgresql.
   */
  storeUrl: string | undefined;
  /**
   * Fill the persisted daily store in a background worker (`--no-daily-fill` /
   * `OPTIONSCOPE_DAILY_FILL=off` turn it off; the store is still read and written on demand).
   * See docs/operations.md#daily-store.
   */
  dailyFill?: boolean;
  /**
   * Flow sessions the fill keeps, back from the last finished one (`--daily-fill-sessions N|all` /
   * `OPTIONSCOPE_DAILY_FILL_SESSIONS`; Infinity for `all`); absent: the default horizon
   * (docs/operations.md#daily-fill-horizon).
   */
  dailyFillSessions?: number;
  /**
   * Worker threads for the request path's cold rows (`--compute-workers N` /
   * `OPTIONSCOPE_COMPUTE_WORKERS`; 0: compute on the event loop); absent: the cores less one, 1 to 4.
   * See docs/operations.md#compute-workers.
   */
  computeWorkers?: number;
  /**
   * Threads of the background fill (`--fill-threads N` / `OPTIONSCOPE_FILL_THREADS`, 1 to 64);
   * absent: one per core. See docs/operations.md#daily-fill-threads.
   */
  fillThreads?: number;
  /**
   * Group-commit window of the accounts store, ms (`--group-commit-ms` /
   * `OPTIONSCOPE_GROUP_COMMIT_MS`); absent: the store's default (docs/operations.md#group-commit).
   */
  groupCommitMs?: number;
  /**
   * The bytes all caches may hold together, MiB (`--cache-mb` / `OPTIONSCOPE_CACHE_MB`); absent:
   * DEFAULT_CACHE_MB (docs/operations.md#cache-budget).
   */
  cacheMb?: number;
  /**
   * Deadline of one accounts-store call on PostgreSQL, ms (`--store-timeout-ms` /
   * `OPTIONSCOPE_STORE_TIMEOUT_MS`); absent: DEFAULT_STORE_TIMEOUT_MS (docs/operations.md#store-deadline).
   */
  storeTimeoutMs?: number;
  /**
   * Answer `GET /metrics` on {base_url} (`--metrics` / `OPTIONSCOPE_METRICS=on`): event loop,
   * in-flight requests and worker pools in Prometheus text, without a key (docs/operations.md#metrics).
   */
  metrics?: boolean;
  /** Period of the `event_loop` log line, ms (`OPTIONSCOPE_LOOP_LOG_S`, seconds; 0: no line); absent: 60 s. */
  loopLogIntervalMs?: number;
  /**
   * A live vendor feed instead of the simulator (`--feed massive --underlyings SPY,SPXW`); the key
   * comes from `MASSIVE_API_KEY` only, never a flag. See docs/data.md#massive-live-feed.
   */
  feed?: FeedConfig;
  /** A live board this far behind the newest one is `stale: true` (`--stale-after-s` / `OPTIONSCOPE_STALE_AFTER_S`), ms. */
  staleAfterMs?: number;
}

/** The live feed of `serve --feed`. */
export interface FeedConfig {
  name: "massive";
  /** Our symbols to follow (`SPY`, `SPXW`). */
  underlyings: string[];
  /** From `MASSIVE_API_KEY`; never logged. */
  apiKey: string;
  /** `OPTIONSCOPE_MASSIVE_REST_URL` (a proxy, or the loopback fake in tests); default the vendor's. */
  restBaseUrl?: string;
  /** `OPTIONSCOPE_MASSIVE_WS_URL`; default the vendor's. */
  wsBaseUrl?: string;
  /** Record the feed into the data directory's store of record (default; `--no-record` / `OPTIONSCOPE_RECORD=off` turn it off). */
  record: boolean;
}

/** The live feeds `--feed` accepts. */
const FEEDS = ["massive"] as const;

function feedOf(
  name: string | undefined,
  underlyings: string | undefined,
  dataDir: string | undefined,
  record: boolean,
  env: Record<string, string | undefined>,
): FeedConfig | undefined {
  if (name === undefined || name === "") return undefined;
  if (!(FEEDS as readonly string[]).includes(name)) throw new UsageError(`Invalid --feed: ${JSON.stringify(name.slice(0, 40))} (expected one of: ${FEEDS.join(", ")})`);
  if (dataDir) throw new UsageError("--feed and --data are two market sources: give one of them");
  const list = (underlyings ?? "")
    .split(",")
    .map((u) => u.trim().toUpperCase())
    .filter((u) => u !== "");
  if (list.length === 0) throw new UsageError("--feed massive needs --underlyings (env OPTIONSCOPE_UNDERLYINGS), e.g. --underlyings SPY,SPXW");
  const apiKey = (env.MASSIVE_API_KEY ?? "").trim();
  if (apiKey === "") throw new UsageError("--feed massive needs the key in the environment variable MASSIVE_API_KEY (it is never taken as a flag)");
  return {
    name: "massive",
    underlyings: [...new Set(list)],
    apiKey,
    restBaseUrl: env.OPTIONSCOPE_MASSIVE_REST_URL || undefined,
    wsBaseUrl: env.OPTIONSCOPE_MASSIVE_WS_URL || undefined,
    record,
  };
}

/** A usage error of the command line (exit code 2). */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

export const SERVE_USAGE = `Usage: optionscope serve [options]
  --port N               listen port (env PORT, default 8080)
  --hostname ADDR        listen address (default 0.0.0.0)
  --data-dir DIR         accounts store (env OPTIONSCOPE_DATA_DIR, default ./.optionscope)
  --seed S               simulator seed (env OPTIONSCOPE_SEED)
  --now ISO              pin the simulated clock (env OPTIONSCOPE_NOW)
  --clock-speed X        simulated seconds per real second (env OPTIONSCOPE_CLOCK_SPEED)
  --data DIR             serve real data files from DIR instead of the simulator
  --feed massive         serve a live Massive (formerly Polygon.io) feed instead of the simulator; the key
                         comes from the environment variable MASSIVE_API_KEY, never a flag
  --underlyings A,B      with --feed: the symbols to follow, e.g. SPY,SPXW (env OPTIONSCOPE_UNDERLYINGS)
  --no-record            with --feed: do not record it into the store of record in --data-dir (env
                         OPTIONSCOPE_RECORD=off); recorded by default, and replayed after a restart
  --stale-after-s N      a live board more than N seconds behind the newest one is stale: true
                         (env OPTIONSCOPE_STALE_AFTER_S, default 1200)
  --host-base NAME       match {base_url} by Host header (also --host-flow-alias, --host-atlas, --host-mcp)
  --request-timeout-ms N request time limit before 504 (default 25000)
  --no-access-log        no JSON line per request (errors and notices are still logged)
  --ip-ceiling N|off     requests per source address over 5 minutes (env OPTIONSCOPE_IP_CEILING, default 6000)
  --trusted-proxies A,B  proxies whose X-Forwarded-For names the client (env OPTIONSCOPE_TRUSTED_PROXIES)
  --redis URL            share rate limits, in-flight slots, the IP ceiling, console sign-in limits and stream resume with other instances (env OPTIONSCOPE_REDIS)
  --store URL            accounts store: postgres://user@host:port/db, shared by several instances
                         (env OPTIONSCOPE_STORE; default the SQLite file in --data-dir)
  --no-daily-fill        do not precompute finished sessions in the background (env OPTIONSCOPE_DAILY_FILL=off)
  --daily-fill-sessions N|all
                         flow sessions the background fill keeps, newest first (env OPTIONSCOPE_DAILY_FILL_SESSIONS,
                         default ${DEFAULT_FLOW_FILL_SESSIONS}; older sessions are computed on demand; more: optionscope precompute)
  --fill-threads N       threads of the background fill, below the serving priority (env OPTIONSCOPE_FILL_THREADS;
                         default one per core, 1 to 64)
  --compute-workers N    worker threads for cold flow summaries and volatility readings, off the request loop
                         (env OPTIONSCOPE_COMPUTE_WORKERS; default the cores less one, 1 to 4; 0 computes on the loop)
  --cache-mb N           MiB all caches may hold together, split across them (env OPTIONSCOPE_CACHE_MB;
                         default ${DEFAULT_CACHE_MB}, ${MIN_CACHE_MB} or more; the process needs about 300 MB more)
  --group-commit-ms N    under load, a debit waits up to N ms for others to share its commit (env
                         OPTIONSCOPE_GROUP_COMMIT_MS; default ${DEFAULT_PG_GROUP_COMMIT_WINDOW_MS} with --store, 0 with SQLite)
  --store-timeout-ms N   with --store, a store call unanswered after N ms answers 503 with Retry-After
                         (env OPTIONSCOPE_STORE_TIMEOUT_MS; default ${DEFAULT_STORE_TIMEOUT_MS}, 100 to 60000)
  --metrics              answer GET /metrics (Prometheus text, no key): event-loop delay, in-flight
                         requests, worker pools (env OPTIONSCOPE_METRICS=on; keep it off the public edge)
Environment: STREAM_MAX_DURATION_S (3600), STREAM_BILLING_INTERVAL_S (60), STREAM_KEEPALIVE_S (15),
  OPTIONSCOPE_LOOP_LOG_S (60: seconds between event_loop log lines, 0 for none)
`;

const secondsToMs = (s: number | undefined) => (s === undefined ? undefined : s * 1000);

function num(name: string, raw: string | undefined, check: (n: number) => boolean, allowed?: string): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || !check(n)) throw new UsageError(`Invalid ${name}: ${raw}${allowed ? ` (expected ${allowed})` : ""}`);
  return n;
}

/** A `redis://` or `rediss://` URL, or undefined when unset. */
function redisUrlOf(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const url = raw.trim();
  if (!/^rediss?:\/\/[^\s]+$/.test(url))
    throw new UsageError(`Invalid --redis / OPTIONSCOPE_REDIS: expected redis://host:port[/db] (got ${JSON.stringify(url.slice(0, 80))})`);
  return url;
}

/**
 * A `postgres://` or `postgresql://` URL from the flag or `OPTIONSCOPE_STORE`; undefined (SQLite)
 * when neither is set or it says `sqlite`. Anything else is a usage error naming the allowed form.
 * @example resolveStoreUrl(undefined, { OPTIONSCOPE_STORE: "postgres://app@db/optionscope" })
 */
export function resolveStoreUrl(flag: string | undefined, env: Record<string, string | undefined>): string | undefined {
  const raw = (flag ?? env.OPTIONSCOPE_STORE ?? "").trim();
  if (raw === "" || raw === "sqlite") return undefined;
  if (!/^postgres(ql)?:\/\/\S+$/.test(raw)) {
    const shown = JSON.stringify(raw.replace(/:[^:@/]*@/, ":***@").slice(0, 80));
    throw new UsageError(`Invalid --store / OPTIONSCOPE_STORE: expected postgres://user[:password]@host[:port]/database or sqlite (got ${shown})`);
  }
  return raw;
}

/**
 * A fill horizon in sessions: a whole number (0 or more) or `all` (Infinity); undefined when unset.
 * `name` is what the error message names.
 * @example parseFillSessions("all", "--sessions") // Infinity
 */
export function parseFillSessions(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const v = raw.trim();
  if (v === "all") return Number.POSITIVE_INFINITY;
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v)))
    throw new UsageError(`Invalid ${name}: expected a whole number of sessions (0 or more) or \`all\` (got ${JSON.stringify(v.slice(0, 40))})`);
  return Number(v);
}

function ipCeilingOf(raw: string | undefined, proxies: string | undefined): ServeConfig["ipCeiling"] {
  if (raw === "off") return null;
  const maxRequests = num("ip ceiling", raw, (n) => Number.isInteger(n) && n > 0) ?? 6000;
  const trustedProxies = (proxies ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  return { maxRequests, trustedProxies };
}

/**
 * Resolve `serve` options from argv (after the `serve` word) and the environment.
 * @example resolveServeConfig(["--port", "0"], { OPTIONSCOPE_NOW: "2024-03-06T15:00:00Z" }).nowMs
 */
export function resolveServeConfig(argv: string[], env: Record<string, string | undefined>): ServeConfig {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: "string" },
      hostname: { type: "string" },
      "data-dir": { type: "string" },
      seed: { type: "string" },
      now: { type: "string" },
      "clock-speed": { type: "string" },
      data: { type: "string" },
      "host-base": { type: "string" },
      "host-flow-alias": { type: "string" },
      "host-atlas": { type: "string" },
      "host-mcp": { type: "string" },
      "request-timeout-ms": { type: "string" },
      "no-access-log": { type: "boolean" },
      "ip-ceiling": { type: "string" },
      "trusted-proxies": { type: "string" },
      redis: { type: "string" },
      store: { type: "string" },
      "no-daily-fill": { type: "boolean" },
      "daily-fill-sessions": { type: "string" },
      "compute-workers": { type: "string" },
      "fill-threads": { type: "string" },
      "group-commit-ms": { type: "string" },
      "cache-mb": { type: "string" },
      "store-timeout-ms": { type: "string" },
      metrics: { type: "boolean" },
      feed: { type: "string" },
      underlyings: { type: "string" },
      "no-record": { type: "boolean" },
      "stale-after-s": { type: "string" },
    },
  });
  const nowRaw = values.now ?? env.OPTIONSCOPE_NOW;
  const nowMs = nowRaw ? Date.parse(nowRaw) : undefined;
  if (nowRaw && !Number.isFinite(nowMs)) throw new UsageError(`Invalid OPTIONSCOPE_NOW / --now: ${nowRaw}`);
  const positive = (n: number) => n > 0;
  return {
    port: num("port", values.port ?? env.PORT, (n) => Number.isInteger(n) && n >= 0 && n < 65536) ?? 8080,
    hostname: values.hostname ?? env.HOST ?? "0.0.0.0",
    dataDir: resolveDataDir(values["data-dir"], env),
    seed: values.seed ?? env.OPTIONSCOPE_SEED,
    nowMs,
    clockSpeed: num("clock speed", values["clock-speed"] ?? env.OPTIONSCOPE_CLOCK_SPEED, (n) => n >= 0),
    marketDataDir: values.data ?? env.OPTIONSCOPE_DATA,
    hosts: {
      base: values["host-base"] ?? env.OPTIONSCOPE_HOST_BASE,
      flowAlias: values["host-flow-alias"] ?? env.OPTIONSCOPE_HOST_FLOW_ALIAS,
      atlas: values["host-atlas"] ?? env.OPTIONSCOPE_HOST_ATLAS,
      mcp: values["host-mcp"] ?? env.OPTIONSCOPE_HOST_MCP,
    },
    streams: {
      maxDurationS: num("STREAM_MAX_DURATION_S", env.STREAM_MAX_DURATION_S, positive) ?? DEFAULT_STREAM_TIMINGS.maxDurationS,
      billingIntervalS: num("STREAM_BILLING_INTERVAL_S", env.STREAM_BILLING_INTERVAL_S, positive) ?? DEFAULT_STREAM_TIMINGS.billingIntervalS,
      keepaliveS: num("STREAM_KEEPALIVE_S", env.STREAM_KEEPALIVE_S, positive) ?? DEFAULT_STREAM_TIMINGS.keepaliveS,
    },
    requestTimeoutMs: num("request timeout", values["request-timeout-ms"], positive) ?? 25_000,
    headersTimeoutMs: 10_000,
    maxHeaderSize: 16_384,
    accessLog: !values["no-access-log"],
    ipCeiling: ipCeilingOf(values["ip-ceiling"] ?? env.OPTIONSCOPE_IP_CEILING, values["trusted-proxies"] ?? env.OPTIONSCOPE_TRUSTED_PROXIES),
    redisUrl: redisUrlOf(values.redis ?? env.OPTIONSCOPE_REDIS),
    storeUrl: resolveStoreUrl(values.store, env),
    dailyFill: !values["no-daily-fill"] && env.OPTIONSCOPE_DAILY_FILL !== "off",
    cacheMb: num(
      "--cache-mb / OPTIONSCOPE_CACHE_MB",
      values["cache-mb"] ?? env.OPTIONSCOPE_CACHE_MB,
      (n) => n >= MIN_CACHE_MB && n <= MAX_CACHE_MB,
      `a number of MiB from ${MIN_CACHE_MB} to ${MAX_CACHE_MB}`,
    ),
    groupCommitMs: num(
      "--group-commit-ms / OPTIONSCOPE_GROUP_COMMIT_MS",
      values["group-commit-ms"] ?? env.OPTIONSCOPE_GROUP_COMMIT_MS,
      (n) => n >= 0 && n <= 1000,
      "a number of milliseconds from 0 to 1000",
    ),
    storeTimeoutMs: num(
      "--store-timeout-ms / OPTIONSCOPE_STORE_TIMEOUT_MS",
      values["store-timeout-ms"] ?? env.OPTIONSCOPE_STORE_TIMEOUT_MS,
      (n) => Number.isInteger(n) && n >= 100 && n <= 60_000,
      "an integer number of milliseconds from 100 to 60000",
    ),
    computeWorkers: num(
      "--compute-workers / OPTIONSCOPE_COMPUTE_WORKERS",
      values["compute-workers"] ?? env.OPTIONSCOPE_COMPUTE_WORKERS,
      (n) => Number.isInteger(n) && n >= 0 && n <= 64,
      "an integer from 0 to 64",
    ),
    fillThreads: num(
      "--fill-threads / OPTIONSCOPE_FILL_THREADS",
      values["fill-threads"] ?? env.OPTIONSCOPE_FILL_THREADS,
      (n) => Number.isInteger(n) && n >= 1 && n <= 64,
      "an integer from 1 to 64",
    ),
    metrics: values.metrics === true || env.OPTIONSCOPE_METRICS === "on",
    loopLogIntervalMs: secondsToMs(num("OPTIONSCOPE_LOOP_LOG_S", env.OPTIONSCOPE_LOOP_LOG_S, (n) => n >= 0 && n <= 86_400, "a number of seconds from 0 to 86400")),
    dailyFillSessions: parseFillSessions(values["daily-fill-sessions"] ?? env.OPTIONSCOPE_DAILY_FILL_SESSIONS, "--daily-fill-sessions / OPTIONSCOPE_DAILY_FILL_SESSIONS"),
    feed: feedOf(
      values.feed ?? env.OPTIONSCOPE_FEED,
      values.underlyings ?? env.OPTIONSCOPE_UNDERLYINGS,
      values.data ?? env.OPTIONSCOPE_DATA,
      !values["no-record"] && env.OPTIONSCOPE_RECORD !== "off",
      env,
    ),
    staleAfterMs: secondsToMs(
      num(
        "--stale-after-s / OPTIONSCOPE_STALE_AFTER_S",
        values["stale-after-s"] ?? env.OPTIONSCOPE_STALE_AFTER_S,
        (n) => n >= 60 && n <= 86_400 * 30,
        "a number of seconds from 60 to 2592000",
      ),
    ),
  };
}
