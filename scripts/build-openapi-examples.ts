// Writes server/openapi/examples.generated.json: one real response per operation of the three
// OpenAPI documents, answered by the app over the simulated market (seed 7, every clock at
// Wednesday 2024-03-06 10:00 ET, the universe narrowed to SPY and AAPL so market-wide screens stay
// quick), lists cut to their first 3 items. buildOpenApiDocument puts each under its operation's
// 200 response; test/server/openapi/examples.test.ts checks each against the route's schemas.
//   npx tsx scripts/build-openapi-examples.ts            regenerate every example
//   npx tsx scripts/build-openapi-examples.ts --missing  only operations without one (npm run build)
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { fixedClock } from "../lib/market/clock";
import type { MarketData } from "../lib/market/market-data";
import { createSimulatedMarket } from "../lib/market/simulated";
import { openAccountService } from "../server/accounts";
import { createApp } from "../server/app";
import { createConcurrencyLimiter, createRateLimiter } from "../server/limits";
import { allRoutes, builtinModules } from "../server/modules";
import type { AnyRoute } from "../server/modules/define-route";
import { exampleKey, type OperationExample } from "../server/openapi/examples";
import type { FeedStatus } from "../server/feeds/market-feed";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outFile = join(root, "server/openapi/examples.generated.json");
const onlyMissing = process.argv.includes("--missing");

/** Wednesday 2024-03-06 15:00 UTC = 10:00 ET: a regular session minute with half an hour of prints. */
const NOW_MS = Date.parse("2024-03-06T15:00:00Z");
const NOW_S = NOW_MS / 1000;
const UNIVERSE = ["SPY", "AAPL"];
/** Items kept per list. */
const KEEP = 3;

/** The query (and path) each operation is asked with; `{contract}` and `{tradeId}` are read from the SPY feed first. */
const QUERIES: Record<string, string> = {
  "base /v1/heatmap": "/v1/heatmap?symbols=SPY&maxStrikes=5",
  "base /v1/historical": "/v1/historical?symbols=SPY&at=2024-03-06T14:45:00Z&maxStrikes=5",
  "base /v1/historical/range": "/v1/historical/range?symbols=SPY&from=2024-03-06T14:50:00Z&to=2024-03-06T14:55:00Z&maxStrikes=5",
  "base /v1/gex/levels": "/v1/gex/levels?symbols=SPY",
  "base /v1/stats/daily": "/v1/stats/daily?symbols=SPY&from=2024-03-05",
  "base /v1/stream": "/v1/stream?symbols=SPY",
  "base /v1/stream/ws": "/v1/stream?symbols=SPY",
  "base /v1/board": "/v1/board?symbol=SPY",
  "base /v1/vol/stream": "/v1/vol/stream?symbols=SPY",
  "base /v1/vol/stream/ws": "/v1/vol/stream?symbols=SPY",
  "base /v1/vol/history": "/v1/vol/history?symbols=SPY&from=2024-03-01&to=2024-03-05",
  "flow /v1/flow/stream": "/v1/flow/stream?tickers=SPY",
  "flow /v1/flow/stream/ws": "/v1/flow/stream?tickers=SPY",
  "flow /v1/flow/:ticker": "/v1/flow/SPY?limit=3",
  "flow /v1/contract/:symbol/rvol": "/v1/contract/{contract}/rvol",
  "flow /v1/contract-ratio/:symbol": "/v1/contract-ratio/{contract}",
  "flow /v1/underlying/search": "/v1/underlying/search?q=SP",
  "flow /v1/underlying/:ticker/chain": "/v1/underlying/SPY/chain?expiration=2024-03-08",
  "flow /v1/underlying/:ticker/history": "/v1/underlying/SPY/history?start_date=2024-03-01&end_date=2024-03-05",
  "flow /v1/flow/:ticker/tide": "/v1/flow/SPY/tide?start_time=2024-03-06T14:30:00Z&end_time=2024-03-06T15:00:00Z",
  "flow /v1/contract-bull-bear/:symbol": "/v1/contract-bull-bear/{contract}",
  "flow /v1/underlying/bulk/stats": "/v1/underlying/bulk/stats?tickers=SPY,AAPL",
  "flow /v1/underlying/:ticker/by-strike/:strike/expirations": "/v1/underlying/SPY/by-strike/505/expirations",
  "flow /v1/contract/bulk/stats": "/v1/contract/bulk/stats?symbols={contract}",
  "flow /v1/contract/:symbol/stats": "/v1/contract/{contract}/stats",
  "flow /v1/flow/:ticker/aggregate": "/v1/flow/SPY/aggregate?start_time=2024-03-06T14:30:00Z&end_time=2024-03-06T15:00:00Z",
  "flow /v1/flow/:ticker/strikes": "/v1/flow/SPY/strikes?start_time=2024-03-06T14:30:00Z&end_time=2024-03-06T15:00:00Z",
  "flow /v1/contract/:symbol/history": "/v1/contract/{contract}/history?start_date=2024-03-01&end_date=2024-03-05",
  "flow /v1/flow/sector/:sector": "/v1/flow/sector/Technology",
  "flow /v1/contract/:symbol/trades": "/v1/contract/{contract}/trades?limit=3",
  "flow /v1/underlying/:ticker/trades": "/v1/underlying/SPY/trades?limit=3",
  "flow /v1/score/:trade_id": "/v1/score/{tradeId}",
  "flow /v1/underlying/:ticker/chart": "/v1/underlying/SPY/chart?interval=1d&bucket=5min",
  "flow /v1/contract/:symbol/chart": "/v1/contract/{contract}/chart?interval=1d&bucket=5min",
  "atlas /v1/history": `/atlas/v1/history?symbol=SPY&resolution=60&from=${NOW_S - 3 * 86400}&to=${NOW_S}`,
  "atlas /v1/symbols": "/atlas/v1/symbols?symbol=SPY",
  "atlas /v1/search": "/atlas/v1/search?query=SP&limit=3",
  "atlas /v1/stream/bars": "/atlas/v1/stream/bars?symbols=SPY",
  "atlas /v1/marks": `/atlas/v1/marks?symbol=SPY&from=${NOW_S - 86400}&to=${NOW_S}&resolution=60`,
  "atlas /v1/timescale_marks": `/atlas/v1/timescale_marks?symbol=SPY&from=${NOW_S - 86400}&to=${NOW_S}&resolution=60`,
};

/**
 * The feed status `/v1/status/feed` shows in its example: the simulated market has no feed, so the
 * app is given the status a Massive feed following SPY reports a minute after its start
 * (server/feeds/massive/massive-feed.ts; the fields are those of lib/api/feed-status.ts).
 */
const EXAMPLE_FEED_STATUS: FeedStatus = {
  feed: "massive",
  state: "live",
  atMs: NOW_MS + 10_000,
  boards: { SPY: NOW_MS },
  lagS: 0,
  lastMessageMs: NOW_MS + 9_200,
  parts: [
    { name: "snapshots", state: "live", lastMessageMs: NOW_MS + 2_100, lastError: null, reconnects: 0 },
    { name: "options", state: "live", lastMessageMs: NOW_MS + 9_200, lastError: null, reconnects: 0 },
    { name: "stocks", state: "live", lastMessageMs: NOW_MS + 1_000, lastError: null, reconnects: 0 },
  ],
  counters: { polls: 2, pages: 14, rest429: 0, pollFailures: 0, messages: 1843, malformed: 0, prints: 1210, printsWithoutNbbo: 37, quotes: 611, bars: 2 },
  gaps: [],
};

/** The request of a route with no entry above: its path with SPY for `:ticker`, nothing else. */
function defaultRequest(route: AnyRoute): string {
  const prefix = route.host === "atlas" ? "/atlas" : "";
  const path = route.path.replace(":ticker", "SPY");
  const symbolsQuery = "symbols" in route.query.shape && !route.path.startsWith("/v1/vol/screener") ? "?symbols=SPY" : "";
  return `${prefix}${path}${symbolsQuery}`;
}

/** A copy with every list cut to its first KEEP items and the OpenAPI documents to their first path. */
function trimmed(value: unknown, keep: number): unknown {
  if (Array.isArray(value)) return value.slice(0, keep).map((v) => trimmed(v, keep));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = trimmed(v, keep);
  return out;
}

/** The first events of an event stream (read until `count` events or `waitMs`), as the text a client receives. */
async function firstEvents(res: Response, count: number, waitMs: number): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline && text.split("\n\n").filter((b) => b.includes("data:")).length < count) {
    const next = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), Math.max(1, deadline - Date.now())))]);
    if (!next || next.done) break;
    text += decoder.decode(next.value, { stream: true });
  }
  await reader.cancel().catch(() => {});
  const events = text.split("\n\n").filter((b) => b.includes("data:"));
  return events
    .slice(0, count)
    .map((b) => b.replace(/^data: (.*)$/gm, (line, json: string) => (json.startsWith("{") ? `data: ${JSON.stringify(trimmed(JSON.parse(json), KEEP))}` : line)))
    .join("\n\n")
    .concat("\n\n");
}

/** The first SSE event as the WebSocket twin sends it: one JSON message `{id, event, data}`. */
function asWebSocketMessage(sse: string): string {
  const block = sse.split("\n\n")[0];
  const field = (name: string) => block.match(new RegExp(`^${name}: (.*)$`, "m"))?.[1];
  const data = field("data");
  return JSON.stringify({ id: field("id") ?? null, event: field("event") ?? "message", data: data ? JSON.parse(data) : null });
}

async function main(): Promise<void> {
  const existing: Record<string, OperationExample> = existsSync(outFile) ? JSON.parse(readFileSync(outFile, "utf8")) : {};
  const sim = createSimulatedMarket({ seed: 7, clock: fixedClock(NOW_MS) });
  const market = new Proxy(sim, {
    get(target, key) {
      if (key === "universe") return async () => (await target.universe()).filter((s) => UNIVERSE.includes(s.ticker));
      const v = Reflect.get(target, key);
      return typeof v === "function" ? v.bind(target) : v;
    },
  }) as MarketData;
  const accounts = openAccountService({ dbPath: ":memory:", clock: () => NOW_MS + 10_000 });
  const { key } = accounts.createAccount({ plan: "top", credits: 1_000_000 });
  const appOptions: Parameters<typeof createApp>[0] = {
    market,
    accounts,
    rateLimiter: createRateLimiter(),
    concurrency: createConcurrencyLimiter(),
    wallNowMs: () => NOW_MS + 10_000,
    logger: () => {},
    toolServer: false,
    // A cold simulated session (a ticker's prior tape, a year of volatility history) takes longer than a request may,
    // the flow routes' own 25 s limit included.
    requestTimeoutMs: 600_000,
    modules: builtinModules.map((m) => ({ ...m, routes: m.routes.map((r) => ({ ...r, timeoutMs: 600_000 })) })),
  };
  const app = createApp(appOptions);
  // The feed status alone is asked of an app that has a feed: given to the main app, the feed's
  // freshness would reach the flow answers' meta, which the simulated market's never carry.
  const feedApp = createApp({ ...appOptions, feedStatus: () => EXAMPLE_FEED_STATUS });
  const get = (path: string) =>
    (path === "/v1/status/feed" ? feedApp : app).request(path, { headers: { Authorization: `Bearer ${key}`, "Accept-Encoding": "identity" } });

  const feed = (await (await get("/v1/flow/SPY?limit=1")).json()) as {
    data: { trades: { tradeId: string; optionSymbol?: string; strike: number; expiration: string; optionType: string }[] };
  };
  const trade = feed.data.trades[0];
  const contract = `SPY${trade.expiration.slice(2).replaceAll("-", "")}${trade.optionType[0]}${String(Math.round(trade.strike * 1000)).padStart(8, "0")}`;

  const out: Record<string, OperationExample> = onlyMissing ? { ...existing } : {};
  const failures: string[] = [];
  for (const route of allRoutes) {
    const k = exampleKey(route);
    if (onlyMissing && existing[k]) continue;
    const request = (QUERIES[`${route.host} ${route.path}`] ?? defaultRequest(route))
      .replace("{contract}", contract)
      .replace("{tradeId}", encodeURIComponent(trade.tradeId));
    let res = await get(request);
    // Volatility history loads in the background: wait as Retry-After says.
    // A flow route's own time limit (25 s) can end a cold answer on a busy machine; its work is kept, so ask again.
    for (let tries = 0; (res.status === 503 || res.status === 504) && tries < 20; tries++) {
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get("Retry-After") ?? 1)));
      res = await get(request);
    }
    if (res.status !== 200) {
      failures.push(`${k}: ${res.status} ${(await res.text()).slice(0, 200)}`);
      continue;
    }
    const shownPath = request.replace(/^\/atlas/, "");
    if (route.kind === "stream") {
      const sse = await firstEvents(res, 2, 8000);
      out[k] = { request: shownPath, body: route.path.endsWith("/ws") ? asWebSocketMessage(sse) : sse };
      continue;
    }
    const body = await res.json();
    const isDocument = route.path.endsWith("openapi.json");
    const doc = body as { paths?: Record<string, unknown> };
    const shown = isDocument ? { ...doc, paths: Object.fromEntries(Object.entries(doc.paths ?? {}).slice(0, 1)), tags: undefined } : trimmed(body, KEEP);
    out[k] = { request: shownPath, body: shown };
  }
  const sorted = Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(outFile, `${JSON.stringify(sorted, null, 1)}\n`);
  console.log(`wrote ${outFile}: ${Object.keys(sorted).length} examples${failures.length ? `; failed: ${failures.length}` : ""}`);
  for (const f of failures) console.log(`  ${f}`);
  await accounts.close();
  process.exit(failures.length > 0 ? 1 : 0);
}

await main();
