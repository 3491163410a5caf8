// A real listening server (port 0) over the real accounts store (SQLite by default, or the
// PostgreSQL database at `storeUrl`) and the fake market, every clock pinned; plus an MCP SDK
// client factory. Shared by the tool-server and OAuth tests.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { openAccountService, openPostgresAccountService, type AccountStore, type SqliteAccountService } from "../../../server/accounts";
import { createApp, type OptionscopeApp } from "../../../server/app";
import { listen, type Listening } from "../../../server/http/listen";
import { createConcurrencyLimiter, createRateLimiter, type RateLimiter } from "../../../server/limits";
import type { ToolServerOptions } from "../../../server/mcp";
import { builtinModules, defineModule, type AnyRoute } from "../../../server/modules";
import { fakeMarket } from "../_fake-market";
import { NOW_MS } from "../_harness";

/** `accounts` is the SQLite service unless the harness was started on PostgreSQL (`storeUrl`). */
export interface McpHarness<A extends AccountStore = SqliteAccountService> {
  app: OptionscopeApp;
  accounts: A;
  accountId: string;
  key: string;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** `http://127.0.0.1:PORT/mcp` */
  mcpUrl: string;
  /** The wall clock every expiry and rate window reads; move `ms` to expire tokens. */
  wall: { ms: number };
  listening: Listening;
  connect(headers?: Record<string, string>, url?: string): Promise<Client>;
  close(): Promise<void>;
}

export interface McpHarnessOptions {
  credits?: number;
  plan?: "top" | "api" | "index-etf" | "flow" | "invite";
  /** SQLite file (default in memory); ignored with `storeUrl`. */
  dbPath?: string;
  extraRoutes?: AnyRoute[];
  toolServer?: ToolServerOptions;
  wallMs?: number;
  /** Default: the in-memory one (a Redis one for the limits-outage tests). */
  rateLimiter?: RateLimiter;
}

export function startMcpHarness(opts?: McpHarnessOptions & { storeUrl?: undefined }): Promise<McpHarness>;
/** On PostgreSQL when `storeUrl` is set; undefined keeps SQLite (so one test body runs on either). */
export function startMcpHarness(opts: McpHarnessOptions & { storeUrl: string | undefined }): Promise<McpHarness<AccountStore>>;
export async function startMcpHarness(opts: McpHarnessOptions & { storeUrl?: string } = {}): Promise<McpHarness<AccountStore>> {
  const wall = { ms: opts.wallMs ?? Date.parse("2024-03-06T15:00:10Z") };
  // No auth cache on PostgreSQL: a revocation made by a CLI on its own connection is seen on the
  // next request, as SQLite sees it, instead of within the cache's 1 s.
  const accounts: AccountStore = opts.storeUrl
    ? await openPostgresAccountService({ url: opts.storeUrl, clock: () => wall.ms, authCacheTtlMs: 0 })
    : openAccountService({ dbPath: opts.dbPath ?? ":memory:", clock: () => wall.ms });
  const { accountId, key } = await accounts.createAccount({ plan: opts.plan ?? "top", credits: opts.credits ?? 1000 });
  const app = createApp({
    market: fakeMarket(NOW_MS),
    accounts,
    rateLimiter: opts.rateLimiter ?? createRateLimiter(),
    concurrency: createConcurrencyLimiter(),
    wallNowMs: () => wall.ms,
    modules: opts.extraRoutes ? [...builtinModules, defineModule({ name: "test", routes: opts.extraRoutes })] : builtinModules,
    toolServer: opts.toolServer,
  });
  // Keep-alive longer than any pause between a client's requests here: with Node's 5 s, a client
  // that spent seconds of a loaded machine compiling its tools' validators reused a socket the
  // server was closing at that moment (ECONNRESET on a POST, which no client retries).
  const listening = await listen(app, { port: 0, hostname: "127.0.0.1", keepAliveTimeoutMs: 60_000 });
  const origin = `http://127.0.0.1:${listening.port}`;
  const clients: Client[] = [];
  return {
    app,
    accounts,
    accountId,
    key,
    origin,
    mcpUrl: `${origin}/mcp`,
    wall,
    listening,
    async connect(headers = { Authorization: `Bearer ${key}` }, url = `${origin}/mcp`) {
      const client = new Client({ name: "optionscope-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
      clients.push(client);
      return client;
    },
    async close() {
      for (const c of clients) await c.close().catch(() => {});
      await listening.close(true);
      await accounts.close();
    },
  };
}

/** POST one raw JSON-RPC body to the tool endpoint. */
export async function rawRpc(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; json: any; headers: Headers }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body,
  });
  const text = await res.text();
  // Either a JSON body or an SSE stream whose `data:` line holds the message.
  const dataLine = text.split("\n").find((l) => l.startsWith("data: "));
  const json = text.trim().startsWith("{") ? JSON.parse(text) : dataLine ? JSON.parse(dataLine.slice(6)) : null;
  return { status: res.status, json, headers: res.headers };
}
