// An app with the developer console mounted over an accounts store (in-memory SQLite, or the
// PostgreSQL database at `storeUrl`), a pinned wall clock and a cheap scrypt cost, plus a
// browser-like client that keeps the session cookie and sends the CSRF token the way the console
// page does. Harnesses are closed by `closeConsoleHarnesses()` (call it in afterEach).
import { openAccountService, openAccountStore, type AccountStore } from "../../../server/accounts";
import { hashPassword, type ScryptCost } from "../../../server/accounts/password-hash";
import { createApp, type OptionscopeApp } from "../../../server/app";
import { createConsoleApp, createConsoleService, type ConsoleService } from "../../../server/console";
import type { SignInLimits } from "../../../server/console/sign-in-limiter";
import { createConcurrencyLimiter, createRateLimiter } from "../../../server/limits";
import type { OAuthStore } from "../../../server/oauth/oauth-store";
import { fakeMarket } from "../_fake-market";
import { NOW_MS } from "../_harness";

/** 2^10 instead of 2^15: the same code path at a cost the shared test machine can afford. */
const TEST_COST: ScryptCost = { N: 1024, r: 8, p: 1 };
export const PASSWORD = "correct horse battery staple";
export const ORIGIN = "http://console.test";

export interface ConsoleHarness {
  app: OptionscopeApp;
  accounts: AccountStore;
  service: ConsoleService;
  wall: { ms: number };
  /** A signed-up account with a console password (`PASSWORD`) and its first key. */
  newAccount(plan?: "top" | "invite", credits?: number): Promise<{ accountId: string; key: string; keyId: string }>;
  /** A client with its own cookie jar. */
  client(options?: { ip?: string; origin?: string | null }): ConsoleClient;
  /** `GET path` on the API with an API key. */
  api(path: string, key: string): Promise<Response>;
}

export interface ConsoleClient {
  cookie: string | null;
  csrf: string;
  setCookies: string[];
  signIn(accountId: string, password?: string): Promise<Response>;
  get(path: string): Promise<Response>;
  /** POST JSON with the CSRF token (unless `csrf` is given, even as ""). */
  post(path: string, body?: unknown, extra?: { csrf?: string; headers?: Record<string, string> }): Promise<Response>;
}

export interface ConsoleHarnessOptions {
  signInLimits?: SignInLimits;
  secureCookies?: boolean | "auto";
  trustedProxies?: string[];
  /** PostgreSQL URL; undefined: an in-memory SQLite store. */
  storeUrl?: string;
  /** The connected apps' store; default: the accounts store's own. */
  oauth?: OAuthStore | null;
  /** Waits between retries of a revoked key's OAuth grant revocation (default the service's). */
  grantRevocationRetryMs?: readonly number[];
}

const open: AccountStore[] = [];
const services: ConsoleService[] = [];

/** Close every harness's store and stop its services' background retries (afterEach). */
export async function closeConsoleHarnesses(): Promise<void> {
  for (const service of services.splice(0)) service.close();
  for (const accounts of open.splice(0)) await accounts.close();
}

export async function makeConsoleHarness(options: ConsoleHarnessOptions = {}): Promise<ConsoleHarness> {
  const wall = { ms: Date.parse("2024-03-06T15:00:10Z") };
  const accounts: AccountStore = options.storeUrl
    ? await openAccountStore({ storeUrl: options.storeUrl, dataDir: "/nonexistent", clock: () => wall.ms })
    : openAccountService({ dbPath: ":memory:", clock: () => wall.ms });
  open.push(accounts);
  const service = createConsoleService({
    accounts,
    oauth: options.oauth,
    passwordCost: TEST_COST,
    signInLimits: options.signInLimits,
    now: () => wall.ms,
    grantRevocationRetryMs: options.grantRevocationRetryMs,
  });
  services.push(service);
  const consoleFetch = createConsoleApp({ service, secureCookies: options.secureCookies, trustedProxies: options.trustedProxies, now: () => wall.ms });
  const app = createApp({
    market: fakeMarket(NOW_MS),
    accounts,
    rateLimiter: createRateLimiter(),
    concurrency: createConcurrencyLimiter(),
    wallNowMs: () => wall.ms,
    toolServer: false,
    console: consoleFetch,
  });

  const client = (opts: { ip?: string; origin?: string | null } = {}): ConsoleClient => {
    const c: ConsoleClient = {
      cookie: null,
      csrf: "",
      setCookies: [],
      async signIn(accountId, password = PASSWORD) {
        const res = await c.post("/console/api/sign-in", { accountId, password }, { csrf: "" });
        if (res.ok) c.csrf = ((await res.clone().json()) as { csrfToken: string }).csrfToken;
        return res;
      },
      get: (path) => send(path, { method: "GET" }),
      post(path, body = {}, extra = {}) {
        const headers: Record<string, string> = { "Content-Type": "application/json", ...extra.headers };
        const token = extra.csrf ?? c.csrf;
        if (token !== "") headers["X-CSRF-Token"] = token;
        return send(path, { method: "POST", headers, body: JSON.stringify(body) });
      },
    };
    const send = async (path: string, init: RequestInit) => {
      const request = new Request(ORIGIN + path, init);
      const origin = opts.origin === undefined ? ORIGIN : opts.origin;
      if (origin !== null && init.method === "POST" && !request.headers.has("origin")) request.headers.set("Origin", origin);
      if (c.cookie) request.headers.set("Cookie", c.cookie);
      // The socket address, as `listen` would set it.
      Object.defineProperty(request, "ip", { value: opts.ip ?? "198.51.100.7" });
      const res = await app.fetch(request);
      const set = res.headers.get("set-cookie");
      if (set) {
        c.setCookies.push(set);
        const pair = set.split(";")[0]!;
        c.cookie = pair.endsWith("=") ? null : pair;
      }
      return res;
    };
    return c;
  };

  return {
    app,
    accounts,
    service,
    wall,
    async newAccount(plan = "top", credits = 1000) {
      const created = await accounts.createAccount({ plan, credits });
      await service.store.setPasswordHash(created.accountId, await hashPassword(PASSWORD, TEST_COST));
      return created;
    },
    client,
    api: (path, key) => app.request(path, { headers: { Authorization: `Bearer ${key}` } }),
  };
}
