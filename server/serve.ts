import { fixedClock, scaledClock, systemClock, type Clock, type MarketData } from "../lib/market";
import { createSimulatedMarket } from "../lib/market";
import { ensureDemoAccount, openAccountService, accountsDbPath, type SqliteAccountService } from "./accounts";
import { createApp, type OptionscopeApp } from "./app";
import { createServiceControl, openPauseStore } from "./control/service-state";
import type { ServeConfig } from "./config";
import { loadFileMarket, progressBar } from "./data";
import { listen, type Listening } from "./http/listen";
import { createConcurrencyLimiter, createRateLimiter } from "./limits";
import type { FetchLike } from "./services";

/** A running server and how to stop it. */
export interface RunningServer {
  app: OptionscopeApp;
  listening: Listening;
  accounts: SqliteAccountService;
  /** The demo key, only on the start that created it. */
  demoKey: string | null;
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
  const market: MarketData = config.marketDataDir
    ? await loadFileMarket(config.marketDataDir, { clock, onProgress: progressBar(process.stderr) })
    : createSimulatedMarket({ seed: config.seed, clock });
  const universe = await market.universe();
  const known = new Set<string>();
  for (const info of universe) {
    known.add(info.ticker);
    for (const root of info.optionRoots) known.add(root);
  }
  const accounts = openAccountService({
    dbPath: accountsDbPath(config.dataDir),
    durability: config.durability,
    isKnownSymbol: (s) => known.has(s),
  });
  const demo = ensureDemoAccount(accounts);
  const app = createApp({
    market,
    accounts,
    rateLimiter: createRateLimiter(),
    concurrency: createConcurrencyLimiter(),
    clock,
    hosts: config.hosts,
    logger: config.accessLog ? io.log : () => {},
    requestTimeoutMs: config.requestTimeoutMs,
    streams: config.streams,
    ipCeiling: config.ipCeiling ?? false,
    control: createServiceControl({ pauses: openPauseStore(accounts.db) }),
    mcp: io.mcp,
  });
  const listening = await listen(app, {
    port: config.port,
    hostname: config.hostname,
    headersTimeoutMs: config.headersTimeoutMs,
    maxHeaderSize: config.maxHeaderSize,
  });
  let closed = false;
  return {
    app,
    listening,
    accounts,
    demoKey: demo.key,
    async shutdown(graceMs = 10_000) {
      if (closed) return;
      closed = true;
      const force = setTimeout(() => void listening.close(true), graceMs);
      try {
        await listening.close(false);
      } finally {
        clearTimeout(force);
        accounts.close();
      }
    },
  };
}
