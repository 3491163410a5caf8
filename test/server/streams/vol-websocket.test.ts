// /v1/vol/stream/ws: the volatility stream over a real WebSocket client (crossws through h3 and
// srvx), through the shared upgrade piece (server/streams/ws-upgrade.ts): `vol` events as JSON
// messages {id, event, data}; 1 credit per symbol to open and per symbol per minute; auth by header
// or bearer subprotocol; refusals on the handshake uncharged; a plain GET 426, refunded; resume
// with lastEventId after `reconnect` without gap; a charged upgrade whose handshake never
// completes refunded after upgradeGraceMs (1 per symbol).
import WebSocket from "crossws/websocket";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSimulatedMarket, scaledClock } from "../../../lib/market";
import { openAccountService } from "../../../server/accounts";
import { createApp } from "../../../server/app";
import { listen, type Listening } from "../../../server/http/listen";
import { createConcurrencyLimiter, createRateLimiter } from "../../../server/limits";
import { metaModule } from "../../../server/modules/meta";
import { createVolModule } from "../../../server/modules/vol";
import type { StreamTimings } from "../../../server/services";
import { configureStreams, type StreamTuning } from "../../../server/streams/settings";
import { seqOf, sleep } from "./_sse";
import { rawUpgrade } from "./_server";

interface Msg {
  id?: string;
  event: string;
  data?: any;
}

/** A listening app with the volatility module (3 symbols), 60 simulated seconds per real second. */
async function volServer(o: { streams?: Partial<StreamTimings>; tuning?: Partial<StreamTuning> } = {}) {
  const clock = scaledClock({ startMs: Date.parse("2024-03-06T15:02:00Z"), speed: 60 });
  const accounts = openAccountService({ dbPath: ":memory:" });
  const main = accounts.createAccount({ plan: "top", credits: 10_000 });
  const noVol = accounts.createAccount({ plan: "index-etf", credits: 10_000 });
  const vol = createVolModule({ historySessions: 3, symbols: ["SPXW", "SPY", "QQQ"] });
  const app = createApp({
    market: createSimulatedMarket({ seed: 5, clock }),
    accounts,
    rateLimiter: createRateLimiter(),
    concurrency: createConcurrencyLimiter(),
    clock,
    modules: [metaModule, vol],
    streams: o.streams,
  });
  configureStreams(app.services, { tickMs: 10, revalidateMs: 100, ...o.tuning });
  const listening: Listening = await listen(app, { port: 0 });
  const open = (query: string, opts: { key?: string | null; protocols?: string[] } = {}) => {
    const k = opts.key === undefined ? main.key : opts.key;
    const ws = new (WebSocket as any)(`${listening.url.replace("http", "ws")}/v1/vol/stream/ws?${query}`, opts.protocols ?? [], {
      headers: k === null ? {} : { Authorization: `Bearer ${k}` },
    });
    const msgs: Msg[] = [];
    ws.addEventListener("message", (e: any) => msgs.push(JSON.parse(String(e.data))));
    const closed = new Promise<number>((r) => ws.addEventListener("close", (e: any) => r(e.code)));
    const failed = new Promise<string>((r) => ws.addEventListener("error", (e: any) => r(String(e?.message ?? e?.error?.message ?? "error"))));
    const waitFor = async (pred: (m: Msg) => boolean, timeoutMs = 30_000) => {
      const t0 = Date.now();
      while (!msgs.some(pred)) {
        if (Date.now() - t0 > timeoutMs) throw new Error(`timeout; got ${msgs.map((m) => m.event).join(",")}`);
        await sleep(10);
      }
      return msgs.find(pred)!;
    };
    return { ws, msgs, closed, failed, waitFor };
  };
  const close = async () => {
    await app.shutdown(100);
    await listening.close(true);
    accounts.close();
  };
  return { app, accounts, main, noVol, listening, open, close };
}

describe("/v1/vol/stream/ws", () => {
  let s: Awaited<ReturnType<typeof volServer>>;
  beforeAll(async () => {
    s = await volServer();
  });
  afterAll(() => s.close());

  it("sends {id, event, data} messages: connected, then vol with the requested modules; 1 per symbol to open, then per symbol per minute", async () => {
    const before = s.accounts.balance(s.main.accountId);
    const c = s.open("symbols=SPY,QQQ&modules=sigma");
    const connected = await c.waitFor((m) => m.event === "connected");
    expect(connected.data).toMatchObject({ transport: "ws", symbols: ["SPY", "QQQ"], modules: ["sigma"], creditsPerMinute: 2 });
    expect(before - s.accounts.balance(s.main.accountId)).toBe(2);
    const ev = await c.waitFor((m) => m.event === "vol" && m.data.symbol === "SPY");
    expect(seqOf(ev.id!)).toBeGreaterThan(0);
    expect(typeof ev.data.sigma.running_sigma).toBe("number");
    const credits = await c.waitFor((m) => m.event === "credits");
    expect(credits.data).toMatchObject({ charged: 2 });
    expect(before - s.accounts.balance(s.main.accountId)).toBeGreaterThanOrEqual(4);
    c.ws.close();
    await c.closed;
  }, 60_000);

  it("accepts the browser form: subprotocols [optionscope.stream.v1, bearer.<key>]", async () => {
    const c = s.open("symbols=SPY", { key: null, protocols: ["optionscope.stream.v1", `bearer.${s.main.key}`] });
    await c.waitFor((m) => m.event === "connected");
    expect(c.ws.protocol).toBe("optionscope.stream.v1");
    c.ws.close();
    await c.closed;
  });

  it("refuses on the handshake, uncharged: no key 401, bad key 403, a plan without volatility 403, an unknown module 400", async () => {
    const before = s.accounts.balance(s.main.accountId);
    expect(await s.open("symbols=SPY", { key: null }).failed).toMatch(/401/);
    expect(await s.open("symbols=SPY", { key: "osk_live_nope" }).failed).toMatch(/403/);
    expect(await s.open("symbols=SPY&modules=iv,bogus").failed).toMatch(/400/);
    expect(await s.open("symbols=SPY", { key: s.noVol.key }).failed).toMatch(/403/);
    expect(s.accounts.balance(s.main.accountId)).toBe(before);
    expect(s.accounts.balance(s.noVol.accountId)).toBe(10_000);
  });

  it("a plain GET is 426 upgrade_required, refunded", async () => {
    const before = s.accounts.balance(s.main.accountId);
    const res = await fetch(`${s.listening.url}/v1/vol/stream/ws?symbols=SPY,QQQ`, { headers: { Authorization: `Bearer ${s.main.key}` } });
    expect(res.status).toBe(426);
    expect((await res.json()).error.code).toBe("upgrade_required");
    expect(s.accounts.balance(s.main.accountId)).toBe(before);
  });
});

describe("/v1/vol/stream/ws resume and refunds", () => {
  it("after `reconnect` (max duration) closes with 1000, lastEventId resumes without gap", async () => {
    const short = await volServer({ streams: { maxDurationS: 180 } });
    try {
      const a = short.open("symbols=SPY&modules=sigma");
      expect(await a.closed).toBe(1000);
      const reconnect = a.msgs.at(-1)!;
      expect(reconnect).toMatchObject({ event: "reconnect", data: { reason: "max_duration" } });
      const b = short.open(`symbols=SPY&modules=sigma&lastEventId=${encodeURIComponent(reconnect.id!)}`);
      const resumed = await b.waitFor((m) => m.event === "resumed");
      expect(resumed.data).toMatchObject({ gap: false, lastEventId: reconnect.id });
      await b.waitFor((m) => m.event === "vol" || m.event === "credits");
      const all = [...a.msgs, ...b.msgs].filter((m) => m.id && !["connected", "reconnect", "closed"].includes(m.event));
      expect(all.map((m) => seqOf(m.id!))).toEqual(all.map((_, i) => i + 1));
      b.ws.close();
      await b.closed;
    } finally {
      await short.close();
    }
  }, 60_000);

  it("a charged upgrade whose handshake never completes is refunded 1 per symbol after upgradeGraceMs", async () => {
    const g = await volServer({ tuning: { upgradeGraceMs: 150 } });
    try {
      const before = g.accounts.balance(g.main.accountId);
      const status = await rawUpgrade(`${g.listening.url}/v1/vol/stream/ws?symbols=SPY,QQQ`, {
        Authorization: `Bearer ${g.main.key}`,
        "Sec-WebSocket-Key": "not-a-valid-key",
      });
      expect(status).toMatch(/^HTTP\/1\.1 400/);
      expect(g.accounts.balance(g.main.accountId)).toBe(before - 2);
      const t0 = Date.now();
      while (g.accounts.balance(g.main.accountId) !== before && Date.now() - t0 < 3000) await sleep(10);
      expect(g.accounts.balance(g.main.accountId)).toBe(before);
      const rows = g.accounts.ledger(g.main.accountId, { limit: 20 }).filter((e) => e.route === "/v1/vol/stream/ws");
      const debit = rows.find((e) => e.kind === "debit")!;
      expect(rows.filter((e) => e.kind === "refund").map((e) => [e.requestId, e.delta])).toEqual([[debit.requestId, 2]]);
    } finally {
      await g.close();
    }
  });
});
