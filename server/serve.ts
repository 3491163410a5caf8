import { fixedClock, scaledClock, systemClock, type Clock, type MarketData } from "../lib/market";
import { createSimulatedMarket } from "../lib/market";
import { ensureDemoAccount, openAccountService, accountsDbPath, type SqliteAccountService } from "./accounts";
import { createApp, type OptionscopeApp } from "./app";
import { createServiceControl, openPauseStore } from "./control/service-state";
import type { ServeConfig } from "./config";
import { loadFileMarket, progressBar } from "./data";
import { warmingMarket } from "./data/warming-market";
import { listen, type Listening } from "./http/listen";
import { createConsoleApp, createConsoleService, createKeyUseTracker } from "./console";
import { sharedLimits } from "./limits/shared-limits";
import type { FetchLike } from "./services";
import { dailyDbPath, marketIdentity, openDailyStore, startDailyFill, type DailyFiller, type MarketSource } from "./daily-store";
import { FLOW_FIRST_DATE } from "./modules/flow/tape";
import { DEFAULT_HISTORY_SESSIONS } from "./modules/vol/daily-store";

/** A running server and how to stop it. */
export interface RunningServer {
  app: OptionscopeApp;
  listening: Listening;
  accounts: SqliteAccountService;
  /** The demo key, only on the start that created it. */
  demoKey: string | null;
  /** Resolves when the market data is loaded (at once for the simulator); rejects when the files are invalid. */
  ready: Promise<void>;
  /** Stop accepting, drain in-flight requests (up to `graceMs`), close the store. */
  shutdown(graceMs?: number): Promise<void>;
}

/** The market clock from `OPTIONSCOPE_NOW` / `OPTIONSCOPE_CLOCK_SPEED` (DESIGN section 7). */
export function clockFor(config: Pick<ServeConfig, "nowMs" | "clockSpeed">): Clock {
  if (config.nowMs !== undefined) {
    return config.clockSpeed === undefined || config.clockSpeed === 0
      ? fixedClock(config.nowMs)
      : scaledClock({ startMs: config.nowMs, speed: config.clockSpeed });
  }
  if (config.clockSpeed !== undefined && config.clockSpeed !== 1) return scaledClock({ startMs: Date.now(), speed: config.clockSpeed });
  return systemClock;
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
  // Files load while the server already listens (503 warming_up until then); the simulator is at once.
  const warming = config.marketDataDir
    ? warmingMarket(clock, (onProgress) => {
        const bar = progressBar(process.stderr);
        return loadFileMarket(config.marketDataDir!, { clock, onProgress: (p) => (onProgress(p), bar(p)) });
      })
    : null;
  const market: MarketData = warming?.market ?? createSimulatedMarket({ seed: config.seed, clock });
  const known = new Set<string>();
  const learnSymbols = async (m: MarketData) => {
    for (const info of await m.universe()) {
      known.add(info.ticker);
      for (const root of info.optionRoots) known.add(root);
    }
  };
  const ready = warming ? warming.ready.then(learnSymbols) : learnSymbols(market);
  if (!warming) await ready;
  const accounts = openAccountService({
    dbPath: accountsDbPath(config.dataDir),
    durability: config.durability,
    isKnownSymbol: (s) => known.has(s),
  });
  const demo = ensureDemoAccount(accounts);
  let limits: Awaited<ReturnType<typeof sharedLimits>>;
  try {
    limits = await sharedLimits(config.redisUrl);
  } catch (error) {
    accounts.close();
    throw error;
  }
  // Finished sessions' derived data persisted in the data directory (server/daily-store).
  const source: MarketSource = config.marketDataDir ? { kind: "files", dir: config.marketDataDir } : { kind: "simulated", seed: config.seed };
  const dailyStore = openDailyStore(dailyDbPath(config.dataDir), marketIdentity(source));
  const consoleService = createConsoleService({ accounts });
  const consoleApp = createConsoleApp({ service: consoleService, trustedProxies: config.ipCeiling?.trustedProxies });
  // The console's key list shows "last used": accepted keys are noted and written in batches.
  const keyUses = createKeyUseTracker(consoleService.store.recordKeyUses);
  const app = createApp({
    market,
    accounts: keyUses.wrap(accounts),
    console: consoleApp,
    rateLimiter: limits.rateLimiter,
    concurrency: limits.concurrency,
    clock,
    hosts: config.hosts,
    logger: config.accessLog ? io.log : () => {},
    requestTimeoutMs: config.requestTimeoutMs,
    streams: config.streams,
    ipCeiling: config.ipCeiling ?? false,
    control: createServiceControl({ pauses: openPauseStore(accounts.db), warmup: warming?.warmup }),
    mcp: io.mcp,
    dailyStore,
  });
  const listening = await listen(app, {
    port: config.port,
    hostname: config.hostname,
    headersTimeoutMs: config.headersTimeoutMs,
    maxHeaderSize: config.maxHeaderSize,
  });
  let closed = false;
  // The background fill starts once the market is ready (files loaded); it never blocks serving.
  let filler: DailyFiller | null = null;
  if (config.dailyFill !== false) {
    ready.then(
      () => {
        if (closed) return;
        filler = startDailyFill({ store: dailyStore, source, clock, volSessions: DEFAULT_HISTORY_SESSIONS, flowFrom: FLOW_FIRST_DATE, log: io.log });
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
    ready,
    async shutdown(graceMs = 10_000) {
      if (closed) return;
      closed = true;
      const force = setTimeout(() => void listening.close(true), graceMs);
      try {
        await listening.close(false);
      } finally {
        clearTimeout(force);
        await filler?.close();
        dailyStore.close();
        keyUses.stop();
        limits.close();
        accounts.close();
      }
    },
  };
}
