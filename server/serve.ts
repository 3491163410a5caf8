import { fixedClock, scaledClock, systemClock, type Clock, type MarketData } from "../lib/market";
import { createSimulatedMarket } from "../lib/market";
import { ensureDemoAccount } from "./accounts";
import { isSqliteStore, openAccountStore, type AccountStore } from "./accounts/open-store";
import type { PostgresAccountService } from "./accounts/postgres";
import { cachedPauses, openPgPauseStore } from "./accounts/postgres/pg-pause";
import { getHeapStatistics } from "node:v8";
import { createApp, type OptionscopeApp } from "./app";
import { CACHE_HEAP_WARN_FRACTION, defaultCacheMb } from "./cache/cache-budget";
import { createServiceControl, openPauseStore } from "./control/service-state";
import type { ServeConfig } from "./config";
import { loadFileMarket, progressBar } from "./data";
import { warmingMarket } from "./data/warming-market";
import { listen, type Listening } from "./http/listen";
import { createConsoleApp, createConsoleService, createKeyUseTracker } from "./console";
import { sharedLimits } from "./limits/shared-limits";
import type { FetchLike } from "./services";
import { createComputePool, DEFAULT_COMPUTE_WORKERS } from "./daily-store/compute-pool";
import { COMPUTE_NICE } from "./daily-store/priority";
import { withPooledChains } from "./daily-store/pooled-chains";
import { dailyDbPath, marketIdentity, openDailyStore, startRebuildingFill, type DailyFiller, type MarketSource } from "./daily-store";
import { DEFAULT_FILL_THREADS } from "./daily-store/filler";
import { FLOW_FIRST_DATE } from "./modules/flow/sessions/tape";
import { DEFAULT_HISTORY_SESSIONS } from "./modules/vol/daily-store";
import { createMetricsRegistry } from "./metrics/registry";
import { LOOP_LOG_INTERVAL_MS, monitorEventLoop } from "./metrics/event-loop";
import { workerPoolCollector } from "./metrics/pool-gauges";
import { dailyFillCollector } from "./metrics/fill-gauges";
import type { FeedConfig } from "./config";
import type { FeedStatus, MarketFeed } from "./feeds/market-feed";
import { createMassiveFeed } from "./feeds/massive/massive-feed";
import { recordFeed } from "./feeds/record-feed";
import { openRecordedMarket } from "./recording/recorded-market";
import type { RecordingHandle } from "./recording/recorder";

/** A started live feed, the store of record it reads the past from, and its recorder. */
interface RunningFeed {
  feed: MarketFeed;
  stop(): Promise<void>;
}

/**
 * Start the configured live feed (its first snapshots taken) over the data directory's store of
 * record (the past, after a restart), and record it there unless `--no-record`; rejects with a
 * `FeedError` (docs/data.md#recording-a-live-feed).
 */
async function startFeed(
  config: FeedConfig,
  dataDir: string,
  clock: Clock,
  staleAfterMs: number | undefined,
  log: (line: Record<string, unknown>) => void,
): Promise<RunningFeed> {
  const history = openRecordedMarket(dataDir, { clock });
  const feed = createMassiveFeed({
    apiKey: config.apiKey,
    symbols: config.underlyings,
    restBaseUrl: config.restBaseUrl,
    wsBaseUrl: config.wsBaseUrl,
    clock,
    history,
    // The same limit the answers' `stale` uses: past it, a down feed answers 503 instead.
    staleAfterMs,
    log,
  });
  try {
    await feed.start();
  } catch (error) {
    history.close();
    throw error;
  }
  let recording: RecordingHandle | null = null;
  try {
    if (config.record) recording = await recordFeed(feed.market, { dataDir, underlyings: config.underlyings, log });
  } catch (error) {
    await feed.stop();
    history.close();
    throw error;
  }
  return {
    feed,
    async stop() {
      await recording?.stop();
      await feed.stop();
      history.close();
    },
  };
}

/** The `feed_status` log line: state, lag, last message, counters; never the key. */
function feedStatusLine(st: FeedStatus): Record<string, unknown> {
  return {
    ts: new Date(st.atMs).toISOString(),
    level: st.state === "live" ? "info" : st.state === "down" ? "error" : "warn",
    msg: "feed_status",
    feed: st.feed,
    state: st.state,
    lagS: st.lagS,
    lastMessage: st.lastMessageMs === null ? null : new Date(st.lastMessageMs).toISOString(),
    parts: st.parts.map((p) => `${p.name}:${p.state}`).join(","),
    prints: st.counters.prints,
    malformed: st.counters.malformed,
    rest429: st.counters.rest429,
    gaps: st.gaps.length,
  };
}

/** A running server and how to stop it. */
export interface RunningServer {
  app: OptionscopeApp;
  listening: Listening;
  /** The accounts store (SQLite, or PostgreSQL with `--store`): `await` its methods. */
  accounts: AccountStore;
  /** The demo key, only on the start that created it. */
  demoKey: string | null;
  /** The demo account's id (`console link --account`, `key create --account` need it). */
  demoAccountId: string;
  /** Resolves when the market data is loaded (at once for the simulator); rejects when the files are invalid. */
  ready: Promise<void>;
  /** The live feed with `--feed` (its status is also at `GET /v1/status/feed`). */
  feed: MarketFeed | null;
  /** Stop accepting, drain in-flight requests (up to `graceMs`), close the store. */
  shutdown(graceMs?: number): Promise<void>;
}

/** The market clock from `OPTIONSCOPE_NOW` / `OPTIONSCOPE_CLOCK_SPEED` (DESIGN section 7). */
export function clockFor(config: Pick<ServeConfig, "nowMs" | "clockSpeed">): Clock {
  if (config.nowMs !== undefined) {
    return config.clockSpeed === undefined || config.clockSpeed === 0 ? fixedClock(config.nowMs) : scaledClock({ startMs: config.nowMs, speed: config.clockSpeed });
  }
  if (config.clockSpeed !== undefined && config.clockSpeed !== 1) return scaledClock({ startMs: Date.now(), speed: config.clockSpeed });
  return systemClock;
}

/**
 * The app's log sink: everything, or with `--no-access-log` everything but the per-request lines
 * (errors, refunds and stream notices still reach the log).
 */
export function appLogger(accessLog: boolean, log: (line: Record<string, unknown>) => void): (line: Record<string, unknown>) => void {
  return accessLog ? log : (line) => (line.msg === "request" ? undefined : log(line));
}

/**
 * Start `optionscope serve`: market (simulated or files), accounts store, limiters, the app,
 * the socket; creates the demo account on first start.
 */
export async function startServer(
  config: ServeConfig,
  io: { log: (line: Record<string, unknown>) => void; stderr: (text: string) => void; mcp?: FetchLike },
): Promise<RunningServer> {
  const clock = clockFor(config);
  // A live feed starts before the server listens: a refused key or an unknown underlying stops the start.
  const running = config.feed ? await startFeed(config.feed, config.dataDir, clock, config.staleAfterMs, io.log) : null;
  const feed = running?.feed ?? null;
  // Files load while the server already listens (503 warming_up until then); the simulator is at once.
  const warming = config.marketDataDir
    ? warmingMarket(clock, (onProgress) => {
        const bar = progressBar(process.stderr);
        const both = (p: Parameters<typeof bar>[0]) => {
          onProgress(p);
          bar(p);
        };
        return loadFileMarket(config.marketDataDir!, { clock, onProgress: both });
      })
    : null;
  const market: MarketData = feed?.market ?? warming?.market ?? createSimulatedMarket({ seed: config.seed, clock });
  const known = new Set<string>();
  const learnSymbols = async (m: MarketData) => {
    for (const info of await m.universe()) {
      known.add(info.ticker);
      for (const root of info.optionRoots) known.add(root);
    }
  };
  const ready = warming ? warming.ready.then(learnSymbols) : learnSymbols(market);
  if (!warming) await ready;
  // PostgreSQL: connects and migrates here, so an unreachable store stops the start.
  const accounts = await openAccountStore({
    storeUrl: config.storeUrl,
    dataDir: config.dataDir,
    durability: config.durability,
    groupCommitWindowMs: config.groupCommitMs,
    storeTimeoutMs: config.storeTimeoutMs,
    isKnownSymbol: (s) => known.has(s),
  });
  let demo: Awaited<ReturnType<typeof ensureDemoAccount>>;
  let limits: Awaited<ReturnType<typeof sharedLimits>>;
  try {
    demo = await ensureDemoAccount(accounts);
    limits = await sharedLimits(config.redisUrl);
  } catch (error) {
    await accounts.close();
    await running?.stop();
    throw error;
  }
  // Finished sessions' derived data persisted in the data directory (server/daily-store).
  const source: MarketSource = config.marketDataDir ? { kind: "files", dir: config.marketDataDir } : { kind: "simulated", seed: config.seed };
  // A corrupt file is moved aside and rebuilt, at open and at run time (docs/operations.md#corrupt-daily-store).
  // A live feed has no source a worker can rebuild: no daily store, fill or compute workers (docs/data.md#massive-live-feed).
  const dailyStore = feed ? null : openDailyStore(dailyDbPath(config.dataDir), marketIdentity(source), { log: io.log, lockedWrites: "defer" });
  // Cold rows the request path needs are built in worker threads (docs/operations.md#compute-workers).
  const computeWorkers = feed ? 0 : (config.computeWorkers ?? DEFAULT_COMPUTE_WORKERS);
  const computePool = computeWorkers > 0 ? createComputePool({ source }, computeWorkers) : undefined;
  // Boards get a worker of their own: a live heatmap must not queue behind a year of history.
  // At the threads' nice 5, not 10: a board is what users wait on first (docs/operations.md#compute-workers).
  const boardPool = computeWorkers > 0 ? createComputePool({ source }, 1, "boards", COMPUTE_NICE) : undefined;
  boardPool?.prestart();
  // Their modules load while the server starts, not during the first cold request.
  computePool?.prestart();
  // The console, its key-use tracking and OAuth grants live in the accounts store (either kind);
  // on PostgreSQL the pause flag is read from there too.
  const sqlite = isSqliteStore(accounts) ? accounts : null;
  const consoleService = createConsoleService({
    accounts,
    signInLimiter: limits.signInLimiter,
    // A revoked key whose OAuth grants could not be revoked yet: the operator sees each retry fail.
    onGrantRevocationFailure: (e) =>
      io.log({
        ts: new Date().toISOString(),
        level: "error",
        msg: e.gaveUp ? "grant_revocation_gave_up" : "grant_revocation_failed",
        keyId: e.keyId,
        attempt: e.attempt,
        error: String((e.error as Error)?.message ?? e.error).slice(0, 300),
      }),
  });
  const consoleApp = createConsoleApp({ service: consoleService, trustedProxies: config.ipCeiling?.trustedProxies });
  // The console's key list shows "last used": accepted keys are noted and written in batches.
  const keyUses = createKeyUseTracker(consoleService.store.recordKeyUses);
  const pgPauses = sqlite ? null : cachedPauses(openPgPauseStore((accounts as PostgresAccountService).sql));
  // Event-loop health, in-flight requests and worker pools: the log line always, GET /metrics with
  // --metrics (docs/operations.md#metrics).
  const metrics = createMetricsRegistry();
  const loopLogMs = config.loopLogIntervalMs ?? LOOP_LOG_INTERVAL_MS;
  const loop = monitorEventLoop({ registry: metrics, log: loopLogMs > 0 ? io.log : undefined, logIntervalMs: loopLogMs });
  metrics.register(workerPoolCollector(() => [computePool?.stats() ?? null, boardPool?.stats() ?? null]));
  if (dailyStore) metrics.register(dailyFillCollector(() => dailyStore.fill.snapshot()));
  // The caches' byte budget: the flag, else a default that fits the V8 heap (docs/operations.md#cache-budget).
  const heapLimitMb = Math.round(getHeapStatistics().heap_size_limit / 2 ** 20);
  const cacheMb = config.cacheMb ?? defaultCacheMb(getHeapStatistics().heap_size_limit);
  const cacheTooLarge = cacheMb > heapLimitMb * CACHE_HEAP_WARN_FRACTION;
  io.log({
    ts: new Date().toISOString(),
    level: cacheTooLarge ? "warn" : "info",
    msg: "cache_budget",
    cacheMb,
    heapLimitMb,
    ...(cacheTooLarge ? { hint: "raise the heap (NODE_OPTIONS=--max-old-space-size=N) or lower --cache-mb" } : {}),
  });
  const app = createApp({
    // Simulated boards are built in the compute workers too (docs/architecture.md#worker-pools).
    market: boardPool ? withPooledChains(market, boardPool) : market,
    accounts: keyUses.wrap(accounts),
    console: consoleApp,
    rateLimiter: limits.rateLimiter,
    concurrency: limits.concurrency,
    clock,
    hosts: config.hosts,
    logger: appLogger(config.accessLog, io.log),
    requestTimeoutMs: config.requestTimeoutMs,
    streams: config.streams,
    ipCeiling: config.ipCeiling ? limits.ipCeiling(config.ipCeiling) : false,
    resumeStore: limits.resumeStore,
    control: createServiceControl({ pauses: sqlite ? openPauseStore(sqlite.db) : pgPauses, warmup: warming?.warmup }),
    mcp: io.mcp,
    dailyStore: dailyStore ?? undefined,
    computePool,
    cacheMb,
    metrics,
    serveMetrics: config.metrics === true,
    feedStatus: feed ? () => feed.status() : undefined,
    staleAfterMs: config.staleAfterMs,
  });
  // The feed's state, lag and last message in the log once a minute (docs/data.md#feed-status).
  const feedLog = feed ? setInterval(() => io.log(feedStatusLine(feed.status())), 60_000) : null;
  feedLog?.unref?.();
  const listening = await listen(app, {
    port: config.port,
    hostname: config.hostname,
    headersTimeoutMs: config.headersTimeoutMs,
    maxHeaderSize: config.maxHeaderSize,
  });
  let closed = false;
  // The background fill starts once the market is ready (files loaded); it never blocks serving.
  let filler: DailyFiller | null = null;
  if (config.dailyFill !== false && dailyStore) {
    ready.then(
      () => {
        if (closed) return;
        filler = startRebuildingFill({
          store: dailyStore,
          source,
          clock,
          volSessions: DEFAULT_HISTORY_SESSIONS,
          flowFrom: FLOW_FIRST_DATE,
          flowSessions: config.dailyFillSessions,
          threads: config.fillThreads ?? DEFAULT_FILL_THREADS,
          log: io.log,
        });
      },
      () => {},
    );
  }
  if (warming) {
    io.log({ ts: new Date().toISOString(), level: "info", msg: "warming_up", dir: config.marketDataDir });
    ready.then(
      () => io.log({ ts: new Date().toISOString(), level: "info", msg: "data_ready", dir: config.marketDataDir }),
      () => {},
    );
  }
  return {
    app,
    listening,
    accounts,
    demoKey: demo.key,
    demoAccountId: demo.accountId,
    ready,
    feed,
    async shutdown(graceMs = 10_000) {
      if (closed) return;
      closed = true;
      const force = setTimeout(() => void listening.close(true), graceMs);
      try {
        await listening.close(false);
      } finally {
        clearTimeout(force);
        loop.stop();
        if (feedLog) clearInterval(feedLog);
        await running?.stop();
        await filler?.close();
        await computePool?.close();
        await boardPool?.close();
        dailyStore?.close();
        // The last last-used times, waiting at most 2 s (an unreachable store must not hold the exit).
        await Promise.race([keyUses.stop(), new Promise((r) => setTimeout(r, 2000).unref())]);
        consoleService.close();
        pgPauses?.stop();
        limits.close();
        await accounts.close();
      }
    },
  };
}
