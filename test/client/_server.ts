// A real listening server for the client tests: the real accounts store (in memory), the real
// limiters (or a wrapped one, to force a 429), the fake market of the server tests pinned at a
// session minute, and an optional service control (to force a 503).
import { openAccountService, type SqliteAccountService } from "../../server/accounts";
import type { RateLimiter } from "../../server/accounts/types";
import { createApp, type OptionscopeApp } from "../../server/app";
import type { ServiceControl } from "../../server/control/service-state";
import { listen } from "../../server/http/listen";
import type { MarketData } from "../../lib/market/market-data";
import { createConcurrencyLimiter, createRateLimiter } from "../../server/limits";
import { fakeMarket } from "../server/_fake-market";
import { NOW_MS } from "../server/_harness";

export interface ClientServer {
  app: OptionscopeApp;
  accounts: SqliteAccountService;
  url: string;
  key: string;
  accountId: string;
  close(): Promise<void>;
}

export async function startClientServer(
  o: { rateLimiter?: (real: RateLimiter) => RateLimiter; control?: ServiceControl; credits?: number; market?: MarketData } = {},
): Promise<ClientServer> {
  const accounts = openAccountService({ dbPath: ":memory:" });
  const { accountId, key } = accounts.createAccount({ plan: "top", credits: o.credits ?? 10_000 });
  const real = createRateLimiter();
  const app = createApp({
    market: o.market ?? fakeMarket(NOW_MS),
    accounts,
    rateLimiter: o.rateLimiter ? o.rateLimiter(real) : real,
    concurrency: createConcurrencyLimiter(),
    control: o.control,
    logger: () => {},
  });
  const listening = await listen(app, { port: 0 });
  return {
    app,
    accounts,
    url: listening.url,
    key,
    accountId,
    async close() {
      await app.shutdown(200);
      await listening.close(true);
      accounts.close();
    },
  };
}

/** A fetch that records each response's status (and can act on it) before handing it back. */
export function recordingFetch(onResponse: (status: number) => void = () => {}) {
  const statuses: number[] = [];
  const doFetch = async (input: string, init: RequestInit) => {
    const res = await fetch(input, init);
    statuses.push(res.status);
    onResponse(res.status);
    return res;
  };
  return { fetch: doFetch, statuses };
}
