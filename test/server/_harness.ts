// Builds an app over the real accounts store (in memory), the real limiters and the fake market,
// with every clock pinned so results are exact.
import { openAccountService, type SqliteAccountService } from "../../server/accounts";
import { createConcurrencyLimiter, createRateLimiter } from "../../server/limits";
import { createApp, type OptionscopeApp } from "../../server/app";
import type { AppOptions } from "../../server/services";
import { fakeMarket } from "./_fake-market";

/** Wednesday 2024-03-06 15:00 UTC = 10:00 ET, a regular session minute. */
export const NOW_MS = Date.parse("2024-03-06T15:00:00Z");

export interface Harness {
  app: OptionscopeApp;
  accounts: SqliteAccountService;
  market: ReturnType<typeof fakeMarket>;
  key: string;
  accountId: string;
  logs: Record<string, unknown>[];
  auth: (key?: string) => { headers: Record<string, string> };
  get: (path: string, init?: RequestInit & { key?: string | null }) => Promise<Response>;
  wall: { ms: number };
}

export function makeHarness(overrides: Partial<AppOptions> & { credits?: number; plan?: "top" | "api" | "index-etf" | "flow" | "invite"; nowMs?: number } = {}): Harness {
  const nowMs = overrides.nowMs ?? NOW_MS;
  const wall = { ms: Date.parse("2024-03-06T15:00:10Z") };
  const accounts = openAccountService({ dbPath: ":memory:", clock: () => wall.ms });
  const { accountId, key } = accounts.createAccount({ plan: overrides.plan ?? "top", credits: overrides.credits ?? 1000 });
  const market = fakeMarket(nowMs);
  const logs: Record<string, unknown>[] = [];
  const app = createApp({
    market,
    accounts,
    rateLimiter: createRateLimiter(),
    concurrency: createConcurrencyLimiter(),
    wallNowMs: () => wall.ms,
    logger: (l) => logs.push(l),
    ...overrides,
  });
  const auth = (k = key) => ({ headers: { Authorization: `Bearer ${k}` } });
  const get = (path: string, init: RequestInit & { key?: string | null } = {}) => {
    const { key: k, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (k !== null && !headers.has("authorization")) headers.set("Authorization", `Bearer ${k ?? key}`);
    return app.request(path, { ...rest, headers });
  };
  return { app, accounts, market, key, accountId, logs, auth, get, wall };
}
