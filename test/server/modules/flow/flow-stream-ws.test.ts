// /v1/flow/stream/ws: the flow stream over a real WebSocket client (crossws through h3 and srvx)
// against a listening server over the simulated market (seed 7, three tickers) and a market clock
// the tests move. The same trades as the raw tape (recomputed here), as JSON messages
// {id, event, data}; billed 1 to open and 1 per market minute; auth by header or bearer
// subprotocol; resume with lastEventId without gap or repeat; refusals on the handshake (401, 403,
// 400, 429 for a sixth flow stream, the SSE and WebSocket flavours sharing the cap) uncharged; a
// plain GET is 426, refunded.
import WebSocket from "crossws/websocket";
import { describe, expect, it } from "vitest";
import { createSimulatedMarket } from "../../../../lib/market";
import type { MarketData } from "../../../../lib/market/market-data";
import { openAccountService } from "../../../../server/accounts";
import { createApp } from "../../../../server/app";
import { createConcurrencyLimiter, createRateLimiter } from "../../../../server/limits";
import { flowModule } from "../../../../server/modules/flow";
import { metaModule } from "../../../../server/modules/meta";
import { configureStreams } from "../../../../server/streams/settings";
import { openRaw, seqOf, sleep } from "../../streams/_sse";
import { useListening } from "../../streams/_server";
import { watchedMarket } from "../../_watched-market";

const UNIVERSE = ["SPY", "AAPL", "QQQ"];
// Wednesday 2024-03-06 10:05:30 ET.
const START_MS = Date.parse("2024-03-06T15:05:30Z");
const MINUTE = 60_000;
const clock = {
  ms: START_MS,
  now() {
    return this.ms;
  },
};

function restrictedMarket(): MarketData {
  return watchedMarket(createSimulatedMarket({ seed: 7, clock }), { universe: UNIVERSE });
}

interface Msg {
  id?: string;
  event: string;
  data?: any;
}

async function waitUntil(pred: () => boolean, what: () => string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out: ${what()}`);
    await sleep(20);
  }
}

describe("/v1/flow/stream/ws", () => {
  const market = restrictedMarket();
  const accounts = openAccountService({ dbPath: ":memory:" });
  const { accountId, key } = accounts.createAccount({ plan: "top", credits: 100_000 });
  const indexEtf = accounts.createAccount({ plan: "index-etf", credits: 10_000 });
  const app = createApp({ market, accounts, rateLimiter: createRateLimiter(), concurrency: createConcurrencyLimiter(), clock, modules: [metaModule, flowModule] });
  configureStreams(app.services, { tickMs: 5, revalidateMs: 100 });
  const listening = useListening(app, () => accounts.close());

  function connect(query: string, opts: { key?: string | null; protocols?: string[] } = {}) {
    const url = `${listening.url.replace("http", "ws")}/v1/flow/stream/ws?${query}`;
    const k = opts.key === undefined ? key : opts.key;
    const ws = new (WebSocket as any)(url, opts.protocols ?? [], { headers: k === null ? {} : { Authorization: `Bearer ${k}` } });
    const messages: Msg[] = [];
    const closed = new Promise<number>((resolve) => ws.addEventListener("close", (e: any) => resolve(e.code)));
    const failed = new Promise<string>((resolve) => ws.addEventListener("error", (e: any) => resolve(String(e?.message ?? e?.error?.message ?? "error"))));
    ws.addEventListener("message", (e: any) => messages.push(JSON.parse(String(e.data))));
    const waitFor = async (pred: (m: Msg) => boolean, timeoutMs = 20_000) => {
      await waitUntil(
        () => messages.some(pred),
        () => `got ${messages.map((m) => m.event).join(",")}`,
        timeoutMs,
      );
      return messages.find(pred)!;
    };
    const close = async () => {
      ws.close();
      await closed;
    };
    return { ws, messages, waitFor, closed, failed, close };
  }

  const tradeIds = (msgs: Msg[]) => msgs.filter((m) => m.event === "trade").map((m) => m.data.tradeId as string);
  const sequencedIds = (msgs: Msg[]) => msgs.filter((m) => m.id && !["connected", "reconnect", "closed"].includes(m.event)).map((m) => seqOf(m.id!));

  /** Trade ids of the tickers' prints in `[fromMs, toMs)` passing `keep`, from the raw tape. */
  async function expectedIds(tickers: string[], fromMs: number, toMs: number, keep: (p: any) => boolean): Promise<string[]> {
    const out: string[] = [];
    for (const t of tickers) for (const p of await market.optionPrints(t, fromMs, toMs)) if (keep(p)) out.push(p.id);
    return out.sort();
  }

  it("streams the filtered trades as {id, event, data} messages; billed 1 to open, then 1 per minute", async () => {
    const before = accounts.balance(accountId);
    const connectMs = clock.ms;
    const c = connect("ticker=SPY,AAPL&show_puts=false");
    try {
      const connected = await c.waitFor((m) => m.event === "connected");
      expect(connected.data).toMatchObject({ transport: "ws", symbols: ["flow"], tickers: ["AAPL", "SPY"], creditsPerMinute: 1 });
      expect(before - accounts.balance(accountId)).toBe(1);
      for (let k = 1; k <= 2; k++) {
        clock.ms = Math.floor(connectMs / MINUTE) * MINUTE + k * MINUTE;
        const expected = await expectedIds(["SPY", "AAPL"], connectMs, clock.ms, (p) => p.right === "C");
        await waitUntil(
          () => tradeIds(c.messages).length >= expected.length,
          () => `minute ${k}: ${tradeIds(c.messages).length} of ${expected.length}`,
        );
        expect([...tradeIds(c.messages)].sort()).toEqual(expected);
      }
      expect(tradeIds(c.messages).length).toBeGreaterThan(0);
      for (const m of c.messages.filter((x) => x.event === "trade")) {
        expect(m.data.optionType).toBe("CALL");
        expect(m.id).toMatch(/\S/);
      }
      // One debit per whole market minute since the open (1.5 minutes here), each announced.
      const billed = Math.floor((clock.ms - connectMs) / MINUTE);
      await waitUntil(
        () => c.messages.filter((m) => m.event === "credits").length >= billed,
        () => "credits",
      );
      expect(before - accounts.balance(accountId)).toBe(1 + billed);
      const seqs = sequencedIds(c.messages);
      expect(seqs).toEqual(seqs.map((_, i) => seqs[0] + i));
    } finally {
      await c.close();
    }
    await sleep(50);
    expect(app.services.concurrency.inUse(accountId, "flow-streams")).toBe(0);
  }, 60_000);

  it("accepts the browser form: subprotocols [optionscope.stream.v1, bearer.<key>]", async () => {
    const c = connect("ticker=QQQ&min_premium=1000000", { key: null, protocols: ["optionscope.stream.v1", `bearer.${key}`] });
    await c.waitFor((m) => m.event === "connected");
    expect(c.ws.protocol).toBe("optionscope.stream.v1");
    await c.close();
  });

  it("resumes with lastEventId: no trade missed and none repeated across the disconnection", async () => {
    const q = "ticker=SPY,QQQ&min_size=2";
    const keep = (p: any) => p.size >= 2;
    const connectMs = clock.ms;
    const a = connect(q);
    await a.waitFor((m) => m.event === "connected");
    clock.ms = Math.floor(connectMs / MINUTE) * MINUTE + MINUTE;
    const first = await expectedIds(["SPY", "QQQ"], connectMs, clock.ms, keep);
    await waitUntil(
      () => tradeIds(a.messages).length >= first.length,
      () => `${tradeIds(a.messages).length} of ${first.length}`,
    );
    const lastId = a.messages.filter((m) => m.id && m.event !== "connected").at(-1)!.id!;
    await a.close();
    clock.ms += 2 * MINUTE;
    const b = connect(`${q}&lastEventId=${encodeURIComponent(lastId)}`);
    try {
      const resumed = await b.waitFor((m) => m.event === "resumed");
      expect(resumed.data).toMatchObject({ gap: false, lastEventId: lastId });
      const expected = await expectedIds(["SPY", "QQQ"], connectMs, clock.ms, keep);
      await waitUntil(
        () => tradeIds(a.messages).length + tradeIds(b.messages).length >= expected.length,
        () => "resumed trades",
      );
      const all = [...tradeIds(a.messages), ...tradeIds(b.messages)];
      expect(new Set(all).size).toBe(all.length);
      expect(all.sort()).toEqual(expected);
      const seqs = sequencedIds(b.messages).filter((n) => n > seqOf(lastId));
      expect(seqs).toEqual(seqs.map((_, i) => seqOf(lastId) + 1 + i));
    } finally {
      await b.close();
    }
  }, 60_000);

  it("refuses on the handshake, uncharged: no key 401, bad key 403, a ticker outside the plan 403, `limit` 400", async () => {
    const before = accounts.balance(accountId);
    expect(await connect("ticker=SPY", { key: null }).failed).toMatch(/401/);
    expect(await connect("ticker=SPY", { key: "osk_live_nope" }).failed).toMatch(/403/);
    expect(await connect("limit=10").failed).toMatch(/400/);
    expect(await connect("ticker=AAPL", { key: indexEtf.key }).failed).toMatch(/403/);
    expect(accounts.balance(accountId)).toBe(before);
    expect(accounts.balance(indexEtf.accountId)).toBe(10_000);
  });

  it("a plain GET is 426 upgrade_required, refunded", async () => {
    const before = accounts.balance(accountId);
    const res = await fetch(`${listening.url}/v1/flow/stream/ws?ticker=SPY`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(426);
    expect(res.headers.get("upgrade")).toBe("websocket");
    expect((await res.json()).error.code.toLowerCase()).toBe("upgrade_required");
    expect(accounts.balance(accountId)).toBe(before);
    expect(app.services.concurrency.inUse(accountId, "flow-streams")).toBe(0);
  });

  it("shares the 5 flow streams per account with the SSE flavour: the sixth is 429 on the handshake, uncharged", async () => {
    const q = "ticker=AAPL&min_premium=1000000";
    const sse = [];
    const sockets = [];
    try {
      for (let i = 0; i < 3; i++) {
        const s = await openRaw(listening.url, key, q, { path: "/v1/flow/stream" });
        expect(s.status).toBe(200);
        sse.push(s);
      }
      for (let i = 0; i < 2; i++) {
        const c = connect(q);
        await c.waitFor((m) => m.event === "connected");
        sockets.push(c);
      }
      const before = accounts.balance(accountId);
      expect(await connect(q).failed).toMatch(/429/);
      expect(accounts.balance(accountId)).toBe(before);
    } finally {
      for (const s of sse) s.abort();
      for (const c of sockets) await c.close();
    }
    await sleep(100);
    const again = connect(q);
    await again.waitFor((m) => m.event === "connected");
    await again.close();
  }, 30_000);
});
