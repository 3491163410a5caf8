// A real listening server for stream tests: the real accounts store (in memory, real wall clock),
// the fake market of the server tests, a scaled market clock, and fast hub tuning.
import { openAccountService, type SqliteAccountService } from "../../../server/accounts";
import type { AccountService } from "../../../server/accounts/types";
import { createApp, type OptionscopeApp } from "../../../server/app";
import { listen, type Listening } from "../../../server/http/listen";
import { createConcurrencyLimiter, createRateLimiter } from "../../../server/limits";
import type { StreamTimings } from "../../../server/services";
import type { ServiceControl } from "../../../server/control/service-state";
import { configureStreams, type StreamTuning } from "../../../server/streams/settings";
import { moduleStateOf, positioningModule, positioningStreamHub } from "../../../server/modules";
import type { Clock, MarketData } from "../../../lib/market/market-data";
import { scaledClock } from "../../../lib/market/clock";
import { connect as connectTcp } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { fakeMarket } from "../_fake-market";

/** Wednesday 2024-03-06 15:00 UTC = 10:00 ET, a regular session minute. */
export const SESSION_MS = Date.parse("2024-03-06T15:00:00Z");

/** The fake market of the server tests, following a moving clock (boards change each minute). */
export function movingMarket(clock: Clock): MarketData {
  const base = fakeMarket(clock.now());
  return {
    ...base,
    clock,
    chain: (symbol: string, atMs: number) => fakeMarket(clock.now()).chain(symbol, atMs),
    spot: (symbol: string, atMs: number) => fakeMarket(clock.now()).spot(symbol, atMs),
  } as MarketData;
}

export interface StreamServer {
  app: OptionscopeApp;
  accounts: SqliteAccountService;
  url: string;
  key: string;
  accountId: string;
  clock: Clock;
  listening: Listening;
  hub: () => ReturnType<typeof positioningStreamHub>;
  close(): Promise<void>;
}

export interface StreamServerOptions {
  /** Simulated seconds per real second (default 60). */
  speed?: number;
  startMs?: number;
  clock?: Clock;
  credits?: number;
  plan?: "top" | "api" | "index-etf" | "flow" | "invite";
  streams?: Partial<StreamTimings>;
  tuning?: Partial<StreamTuning>;
  /** Wrap the accounts service (fault injection). */
  wrapAccounts?: (a: SqliteAccountService) => AccountService;
  /** Maintenance/warm-up control made from the accounts store (pause tests). */
  control?: (a: SqliteAccountService) => ServiceControl;
}

export async function startStreamServer(o: StreamServerOptions = {}): Promise<StreamServer> {
  const clock = o.clock ?? scaledClock({ startMs: o.startMs ?? SESSION_MS, speed: o.speed ?? 60 });
  const accounts = openAccountService({ dbPath: ":memory:" });
  const { accountId, key } = accounts.createAccount({ plan: o.plan ?? "top", credits: o.credits ?? 100_000 });
  const market = movingMarket(clock);
  const app = createApp({
    market,
    accounts: o.wrapAccounts ? o.wrapAccounts(accounts) : accounts,
    rateLimiter: createRateLimiter(),
    concurrency: createConcurrencyLimiter(),
    clock,
    streams: o.streams,
    control: o.control?.(accounts),
  });
  configureStreams(app.services, { tickMs: 5, revalidateMs: 100, ...o.tuning });
  const listening = await listen(app, { port: 0 });
  return {
    app,
    accounts,
    url: listening.url,
    key,
    accountId,
    clock,
    listening,
    hub: () => positioningStreamHub(moduleStateOf(app.services, positioningModule)),
    async close() {
      await app.shutdown(200);
      await listening.close(true);
      accounts.close();
    },
  };
}

/**
 * Listens `app` on a free loopback port for the test file (before all), and shuts it down, closes
 * the listener and calls `close` (after all). Returns the listener's `url`, read once listening.
 */
export function useListening(app: OptionscopeApp, close: () => void = () => {}): { readonly url: string } {
  let listening: Listening;
  beforeAll(async () => {
    listening = await listen(app, { port: 0 });
  });
  afterAll(async () => {
    await app.shutdown(100);
    await listening.close(true);
    close();
  });
  return {
    get url() {
      return listening.url;
    },
  };
}

/** Sends a raw WebSocket upgrade request and resolves with the status line of the server's answer. */
export function rawUpgrade(url: string, headers: Record<string, string>): Promise<string> {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connectTcp(Number(port), hostname, () => {
      const lines = [`GET ${pathname}${search} HTTP/1.1`, `Host: ${hostname}:${port}`, "Connection: Upgrade", "Upgrade: websocket", "Sec-WebSocket-Version: 13"];
      for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
      socket.write(lines.join("\r\n") + "\r\n\r\n");
    });
    let text = "";
    socket.on("data", (d) => {
      text += d.toString("latin1");
      if (text.includes("\r\n")) {
        resolve(text.slice(0, text.indexOf("\r\n")));
        socket.destroy();
      }
    });
    socket.on("error", reject);
  });
}
