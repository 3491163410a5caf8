// /v1/flow/stream over a real listening server, the simulated market (seed 7, three tickers) and a
// market clock the tests move: trades appear once their minute has passed, live only, filtered as asked
// (expectations recomputed from the raw prints), resumed with Last-Event-ID with no gap and no
// repeat, billed 1 to open and 1 per minute, capped at 5 flow streams per account; refusals are
// uncharged; the route is not an MCP tool.
import { describe, expect, it } from "vitest";
import { createSimulatedMarket } from "../../../../lib/market";
import type { MarketData } from "../../../../lib/market/market-data";
import { openAccountService } from "../../../../server/accounts";
import { planDefinition } from "../../../../server/accounts/plans";
import { createApp } from "../../../../server/app";
import { listen } from "../../../../server/http/listen";
import { createConcurrencyLimiter, createRateLimiter } from "../../../../server/limits";
import { routeTools } from "../../../../server/mcp";
import { flowModule } from "../../../../server/modules/flow";
import { metaModule } from "../../../../server/modules/meta";
import { configureStreams } from "../../../../server/streams/settings";
import { openRaw, seqOf, sequenced, sleep, type Frame, type RawStream } from "../../streams/_sse";
import { useListening } from "../../streams/_server";
import { watchedMarket } from "../../_watched-market";

const UNIVERSE = ["SPY", "AAPL", "QQQ"];
// Wednesday 2024-03-06 10:05:30 ET.
const START_MS = Date.parse("2024-03-06T15:05:30Z");
const MINUTE = 60_000;

/** The market clock: moved by the tests only. */
const clock = {
  ms: START_MS,
  now() {
    return this.ms;
  },
};

function restrictedMarket(): MarketData {
  return watchedMarket(createSimulatedMarket({ seed: 7, clock }), { universe: UNIVERSE });
}

/** Contract premium in USD as the spec defines it (price per share x size x 100), computed here. */
const premiumOf = (p: { price: number; size: number }) => p.price * p.size * 100;

describe("/v1/flow/stream", () => {
  const market = restrictedMarket();
  const accounts = openAccountService({ dbPath: ":memory:" });
  const { accountId, key } = accounts.createAccount({ plan: "top", credits: 100_000 });
  const indexEtf = accounts.createAccount({ plan: "index-etf", credits: 10_000 });
  const app = createApp({ market, accounts, rateLimiter: createRateLimiter(), concurrency: createConcurrencyLimiter(), clock, modules: [metaModule, flowModule] });
  configureStreams(app.services, { tickMs: 5, revalidateMs: 100 });
  const listening = useListening(app, () => accounts.close());
  const open = (query: string, init: { lastEventId?: string; key?: string } = {}) =>
    openRaw(listening.url, init.key ?? key, query, { path: "/v1/flow/stream", lastEventId: init.lastEventId });
  const get = (query: string, k = key) => fetch(`${listening.url}/v1/flow/stream?${query}`, { headers: { Authorization: `Bearer ${k}` } });

  /** Trade ids of `ticker`'s prints in `[fromMs, toMs)` passing `keep`, from the raw tape. */
  async function expectedIds(tickers: string[], fromMs: number, toMs: number, keep: (p: any) => boolean): Promise<string[]> {
    const out: { id: string; tsNs: string }[] = [];
    for (const t of tickers) for (const p of await market.optionPrints(t, fromMs, toMs)) if (keep(p)) out.push({ id: p.id, tsNs: p.tsNs });
    return out.map((x) => x.id).sort();
  }

  const trades = (s: RawStream): Frame[] => s.frames.filter((f) => f.event === "trade");
  const tradeIds = (s: RawStream): string[] => trades(s).map((f) => f.data.tradeId);

  /** Resolves once `pred` holds (polled), else fails after `timeoutMs` with `what`. */
  async function waitUntil(pred: () => boolean, what: () => string, timeoutMs = 20_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!pred()) {
      if (Date.now() > end) throw new Error(`timed out: ${what()}`);
      await sleep(20);
    }
  }

  it("refuses `limit`, contradictory toggles and inverted bounds with 400 naming the parameter, uncharged", async () => {
    const before = accounts.balance(accountId);
    for (const [q, param] of [
      ["limit=10", "limit"],
      ["show_calls=false&show_puts=false", "show_calls"],
      ["min_premium=500&max_premium=100", "min_premium"],
      ["only_multi_leg=true&exclude_multi_leg=true", "exclude_multi_leg"],
      ["min_percentile=80", "min_percentile"],
      ["min_flow_score=101", "min_flow_score"],
      ["show_puts=maybe", "show_puts"],
    ] as const) {
      const res = await get(q);
      expect(res.status, q).toBe(400);
      const body = await res.json();
      expect(body.error.code).toBe("INVALID_PARAMETER");
      expect(body.error.message, q).toContain(param);
    }
    expect(accounts.balance(accountId)).toBe(before);
  });

  it("an unknown ticker list is 404 SYMBOL_NOT_FOUND, a ticker outside the plan 403 not_entitled; both uncharged", async () => {
    const before = accounts.balance(accountId);
    const res = await get("ticker=ZZZZ");
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("SYMBOL_NOT_FOUND");
    expect(accounts.balance(accountId)).toBe(before);
    const denied = await get("ticker=AAPL", indexEtf.key);
    expect(denied.status).toBe(403);
    expect((await denied.json()).error.code.toLowerCase()).toBe("not_entitled");
    expect(accounts.balance(indexEtf.accountId)).toBe(10_000);
  });

  it("streams the filtered trades printed after the connection, minute by minute in print order; billed 1 then 1 per minute", async () => {
    const before = accounts.balance(accountId);
    const connectMs = clock.ms;
    const s = await open("ticker=SPY,AAPL&show_puts=false&min_premium=2000");
    try {
      expect(s.status).toBe(200);
      const connected = await s.waitFor((f) => f.event === "connected");
      expect(connected.data).toMatchObject({ symbols: ["flow"], tickers: ["AAPL", "SPY"], creditsPerMinute: 1, maxDurationSeconds: 3600 });
      expect(connected.data.filters).toMatchObject({ show_puts: false, min_premium: 2000 });
      expect(before - accounts.balance(accountId)).toBe(1);
      const keep = (p: any) => p.right === "C" && premiumOf(p) >= 2000 - 1e-6;
      // Three market minutes pass, one at a time; after each, exactly the filtered prints since the
      // connection (recomputed from the raw tape, premium = price x size x 100) have been streamed.
      for (let k = 1; k <= 3; k++) {
        clock.ms = Math.floor(connectMs / MINUTE) * MINUTE + k * MINUTE;
        const expected = await expectedIds(["SPY", "AAPL"], connectMs, clock.ms, keep);
        await waitUntil(
          () => trades(s).length >= expected.length,
          () => `minute ${k}: ${trades(s).length} of ${expected.length} trades`,
        );
        expect([...tradeIds(s)].sort()).toEqual(expected);
      }
      // Billing runs on the stream clock: one debit per whole minute since the open (2.5 minutes here).
      const billed = Math.floor((clock.ms - connectMs) / MINUTE);
      await waitUntil(
        () => s.frames.filter((f) => f.event === "credits").length >= billed,
        () => "credits",
      );
      expect(tradeIds(s).length).toBeGreaterThan(0);
      expect(before - accounts.balance(accountId)).toBe(1 + billed);
      for (const c of s.frames.filter((f) => f.event === "credits")) expect(c.data).toMatchObject({ charged: 1 });
      for (const f of trades(s)) {
        expect(f.data.optionType).toBe("CALL");
        expect(f.data.premium).toBeGreaterThanOrEqual(2000);
        expect(["SPY", "AAPL"]).toContain(f.data.ticker);
        expect(Date.parse(f.data.timestamp)).toBeGreaterThanOrEqual(connectMs);
        for (const flag of ["sweep_trade", "multi_leg", "cross_trade"]) expect(typeof f.data[flag]).toBe("boolean");
        expect(Math.abs(f.data.scores.flowScore)).toBeLessThanOrEqual(100);
      }
      // Print order, and ids without holes.
      const times = trades(s).map((f) => Date.parse(f.data.timestamp));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      const seqs = sequenced(s.frames).map((f) => seqOf(f.id));
      expect(seqs).toEqual(seqs.map((_, i) => seqs[0] + i));
    } finally {
      s.abort();
    }
  }, 60_000);

  it("resumes with Last-Event-ID: no trade missed and none repeated across the disconnection", async () => {
    const q = "ticker=SPY,QQQ&min_size=2";
    const keep = (p: any) => p.size >= 2;
    const connectMs = clock.ms;
    const a = await open(q);
    let lastId = "";
    try {
      await a.waitFor((f) => f.event === "connected");
      clock.ms = Math.floor(connectMs / MINUTE) * MINUTE + MINUTE;
      const expected = await expectedIds(["SPY", "QQQ"], connectMs, clock.ms, keep);
      await waitUntil(
        () => trades(a).length >= expected.length,
        () => `${trades(a).length} of ${expected.length}`,
      );
      lastId = sequenced(a.frames).at(-1)!.id!;
    } finally {
      a.abort();
    }
    // Two market minutes pass while disconnected.
    clock.ms += 2 * MINUTE;
    const b = await open(q, { lastEventId: lastId });
    try {
      const resumed = await b.waitFor((f) => f.event === "resumed");
      expect(resumed.data).toMatchObject({ gap: false });
      const expected = await expectedIds(["SPY", "QQQ"], connectMs, clock.ms, keep);
      await waitUntil(
        () => tradeIds(a).length + tradeIds(b).length >= expected.length,
        () => `${tradeIds(a).length}+${tradeIds(b).length} of ${expected.length}`,
      );
      const all = [...tradeIds(a), ...tradeIds(b)];
      expect(new Set(all).size).toBe(all.length);
      expect(all.sort()).toEqual(expected);
      // Ids continue the lineage: the first event after the resume point is the next seq, no holes.
      const seqs = sequenced(b.frames).map((f) => seqOf(f.id));
      expect(seqs).toEqual(seqs.map((_, i) => seqOf(lastId) + 1 + i));
    } finally {
      b.abort();
    }
  }, 60_000);

  it("a reader too far behind gets `lagged` with the count skipped, then the newest trades", async () => {
    const app2 = createApp({ market, accounts, rateLimiter: createRateLimiter(), concurrency: createConcurrencyLimiter(), clock, modules: [metaModule, flowModule] });
    configureStreams(app2.services, { tickMs: 5, revalidateMs: 100, eventsBacklogMax: 3 });
    const l2 = await listen(app2, { port: 0 });
    try {
      const connectMs = clock.ms;
      const s = await openRaw(l2.url, key, "ticker=SPY", { path: "/v1/flow/stream" });
      try {
        await s.waitFor((f) => f.event === "connected");
        clock.ms = Math.floor(connectMs / MINUTE) * MINUTE + MINUTE;
        const expected = await expectedIds(["SPY"], connectMs, clock.ms, () => true);
        expect(expected.length).toBeGreaterThan(3);
        const lagged = await s.waitFor((f) => f.event === "lagged", 20_000);
        await waitUntil(
          () => trades(s).length >= 3,
          () => `${trades(s).length} trades`,
        );
        await sleep(100);
        // The backlog is capped at 3: the oldest are skipped, the newest 3 are written.
        expect(lagged.data.dropped).toBe(expected.length - 3);
        expect(tradeIds(s).sort()).toEqual(
          (await market.optionPrints("SPY", connectMs, clock.ms))
            .slice(-3)
            .map((p) => p.id)
            .sort(),
        );
      } finally {
        s.abort();
      }
    } finally {
      await app2.shutdown(100);
      await l2.close(true);
    }
  }, 30_000);

  it("holds at most 5 flow streams per account: the sixth gets 429 stream_limit_reached with Retry-After, uncharged", async () => {
    const streams: RawStream[] = [];
    try {
      for (let i = 0; i < 5; i++) {
        const s = await open("ticker=AAPL&min_premium=1000000");
        expect(s.status).toBe(200);
        streams.push(s);
      }
      const before = accounts.balance(accountId);
      const res = await get("ticker=AAPL&min_premium=1000000");
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await res.json()).error.code.toLowerCase()).toBe("stream_limit_reached");
      expect(accounts.balance(accountId)).toBe(before);
    } finally {
      for (const s of streams) s.abort();
    }
    await sleep(100);
    const again = await open("ticker=AAPL&min_premium=1000000");
    expect(again.status).toBe(200);
    again.abort();
  }, 30_000);

  it("streams only the plan's symbols without a ticker filter (index/ETF plan)", async () => {
    const s = await open("min_premium=1000000", { key: indexEtf.key });
    try {
      const connected = await s.waitFor((f) => f.event === "connected");
      const allowed = planDefinition("index-etf").symbols!;
      expect(connected.data.tickers.length).toBeGreaterThan(0);
      for (const t of connected.data.tickers) expect(allowed.has(t)).toBe(true);
      expect(connected.data.tickers).not.toContain("AAPL");
    } finally {
      s.abort();
    }
  });

  it("is a stream route, so not an MCP tool", () => {
    const route = flowModule.routes.find((r) => r.path === "/v1/flow/stream")!;
    expect(route.kind).toBe("stream");
    expect(routeTools(flowModule.routes).map((t) => t.name)).not.toContain("stream_flow");
    // The SSE stream and its WebSocket twin are the module's only non-tools.
    const streams = flowModule.routes.filter((r) => r.kind === "stream").map((r) => r.path);
    expect(streams.sort()).toEqual(["/v1/flow/stream", "/v1/flow/stream/ws"]);
    expect(routeTools(flowModule.routes).length).toBe(flowModule.routes.length - 2);
  });
});
