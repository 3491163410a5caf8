// The same stream over WebSocket (crossws through h3 and srvx): auth by header or by the bearer
// subprotocol, refused opens as HTTP errors on the handshake, JSON messages {id, event, data},
// billing, resume with lastEventId, slots freed on close, and the refund of a charged upgrade
// whose handshake never completes (a short upgradeGraceMs).
import WebSocket from "crossws/websocket";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seqOf, sleep } from "./_sse";
import { rawUpgrade, startStreamServer, type StreamServer } from "./_server";

let s: StreamServer;
beforeAll(async () => {
  s = await startStreamServer({ speed: 600 });
});
afterAll(() => s.close());

interface Msg {
  id?: string;
  event: string;
  data?: any;
}

function connect(query: string, opts: { headers?: Record<string, string>; protocols?: string[] } = {}) {
  const url = `${s.url.replace("http", "ws")}/v1/stream/ws?${query}`;
  const ws = new (WebSocket as any)(url, opts.protocols ?? [], { headers: opts.headers ?? {} });
  const messages: Msg[] = [];
  const closed = new Promise<{ code: number }>((resolve) => ws.addEventListener("close", (e: any) => resolve({ code: e.code })));
  const failed = new Promise<string>((resolve) => ws.addEventListener("error", (e: any) => resolve(String(e?.message ?? e?.error?.message ?? "error"))));
  ws.addEventListener("message", (e: any) => messages.push(JSON.parse(String(e.data))));
  const waitFor = async (pred: (m: Msg) => boolean, timeoutMs = 8000) => {
    const t0 = Date.now();
    for (;;) {
      const hit = messages.find(pred);
      if (hit) return hit;
      if (Date.now() - t0 > timeoutMs) throw new Error(`timeout; got ${messages.map((m) => m.event).join(",")}`);
      await sleep(10);
    }
  };
  return { ws, messages, waitFor, closed, failed };
}

describe("WebSocket stream", () => {
  it("authenticates with the Authorization header and sends {id, event, data} messages; charges the open", async () => {
    const before = s.accounts.getAccount(s.accountId).creditsBalance;
    const c = connect("symbols=SPY,AAPL", { headers: { Authorization: `Bearer ${s.key}` } });
    const connected = await c.waitFor((m) => m.event === "connected");
    expect(connected.data).toMatchObject({ transport: "ws", symbols: ["SPY", "AAPL"], creditsPerMinute: 2 });
    const snap = await c.waitFor((m) => m.event === "snapshot");
    expect(snap.data.symbol).toMatch(/SPY|AAPL/);
    expect(seqOf(snap.id!)).toBe(1);
    await c.waitFor((m) => m.event === "credits");
    await c.waitFor((m) => m.event === "ping");
    expect(s.accounts.getAccount(s.accountId).creditsBalance).toBeLessThanOrEqual(before - 4);
    c.ws.close();
    await c.closed;
    await sleep(50);
    expect(s.app.services.concurrency.inUse(s.accountId, "stream-symbols")).toBe(0);
  });

  it("accepts the browser form: subprotocols [optionscope.stream.v1, bearer.<key>]", async () => {
    const c = connect("symbols=SPY", { protocols: ["optionscope.stream.v1", `bearer.${s.key}`] });
    await c.waitFor((m) => m.event === "connected");
    expect(c.ws.protocol).toBe("optionscope.stream.v1");
    c.ws.close();
    await c.closed;
  });

  it("refuses a bad key with the HTTP error on the handshake, nothing charged", async () => {
    const before = s.accounts.getAccount(s.accountId).creditsBalance;
    const c = connect("symbols=SPY", { headers: { Authorization: "Bearer osk_live_nope" } });
    expect(await c.failed).toMatch(/403/);
    const d = connect("symbols=SPY");
    expect(await d.failed).toMatch(/401/);
    expect(s.accounts.getAccount(s.accountId).creditsBalance).toBe(before);
  });

  it("a plain GET gets 426 upgrade_required, refunded", async () => {
    const res = await fetch(`${s.url}/v1/stream/ws?symbols=SPY`, { headers: { Authorization: `Bearer ${s.key}` } });
    expect(res.status).toBe(426);
    expect((await res.json()).error.code).toBe("upgrade_required");
  });

  it("resumes with lastEventId without gaps; reconnect max_duration closes with 1000", async () => {
    const short = await startStreamServer({ speed: 600, streams: { maxDurationS: 180 } });
    try {
      const url = (q: string) => `${short.url.replace("http", "ws")}/v1/stream/ws?${q}`;
      const open = (q: string) => {
        const ws = new (WebSocket as any)(url(q), [], { headers: { Authorization: `Bearer ${short.key}` } });
        const msgs: Msg[] = [];
        ws.addEventListener("message", (e: any) => msgs.push(JSON.parse(String(e.data))));
        const closed = new Promise<number>((r) => ws.addEventListener("close", (e: any) => r(e.code)));
        return { ws, msgs, closed };
      };
      const a = open("symbols=SPY");
      expect(await a.closed).toBe(1000);
      const reconnect = a.msgs.at(-1)!;
      expect(reconnect).toMatchObject({ event: "reconnect", data: { reason: "max_duration" } });
      const b = open(`symbols=SPY&lastEventId=${encodeURIComponent(reconnect.id!)}`);
      const t0 = Date.now();
      while (!b.msgs.some((m) => m.event === "resumed") && Date.now() - t0 < 5000) await sleep(10);
      const resumed = b.msgs.find((m) => m.event === "resumed")!;
      expect(resumed.data).toMatchObject({ gap: false, lastEventId: reconnect.id });
      const all = [...a.msgs, ...b.msgs].filter((m) => m.id && !["connected", "reconnect", "closed"].includes(m.event));
      expect(all.map((m) => seqOf(m.id!))).toEqual(all.map((_, i) => i + 1));
      b.ws.close();
      await b.closed;
    } finally {
      await short.close();
    }
  });
});

describe("a charged upgrade that never completes", () => {
  it("is refunded after upgradeGraceMs, and its slots and connection are freed", async () => {
    const g = await startStreamServer({ speed: 60, tuning: { upgradeGraceMs: 150 } });
    try {
      const before = g.accounts.getAccount(g.accountId).creditsBalance;
      // Authorised and charged by the pipeline, then refused by the WebSocket handshake itself
      // (an invalid Sec-WebSocket-Key), so the `open` hook never runs.
      const status = await rawUpgrade(`${g.url}/v1/stream/ws?symbols=SPY,AAPL`, {
        Authorization: `Bearer ${g.key}`,
        "Sec-WebSocket-Key": "not-a-valid-key",
      });
      expect(status).toMatch(/^HTTP\/1\.1 400/);
      expect(g.accounts.getAccount(g.accountId).creditsBalance).toBe(before - 2);
      expect(g.hub().stats().connections).toBe(1);
      expect(g.app.services.concurrency.inUse(g.accountId, "stream-symbols")).toBe(2);
      const t0 = Date.now();
      while (g.accounts.getAccount(g.accountId).creditsBalance !== before && Date.now() - t0 < 3000) await sleep(10);
      expect(g.accounts.getAccount(g.accountId).creditsBalance).toBe(before);
      const rows = g.accounts.ledger(g.accountId, { limit: 20 }).filter((e) => e.route === "/v1/stream/ws");
      const debit = rows.find((e) => e.kind === "debit")!;
      expect(debit.delta).toBe(-2);
      expect(rows.filter((e) => e.kind === "refund").map((e) => [e.requestId, e.delta])).toEqual([[debit.requestId, 2]]);
      expect(g.hub().stats().connections).toBe(0);
      expect(g.app.services.concurrency.inUse(g.accountId, "stream-symbols")).toBe(0);
    } finally {
      await g.close();
    }
  });

  it("a handshake that completes is not refunded, even after the grace period", async () => {
    const g = await startStreamServer({ speed: 60, tuning: { upgradeGraceMs: 100 } });
    try {
      const ws = new (WebSocket as any)(`${g.url.replace("http", "ws")}/v1/stream/ws?symbols=SPY`, [], {
        headers: { Authorization: `Bearer ${g.key}` },
      });
      const msgs: Msg[] = [];
      ws.addEventListener("message", (e: any) => msgs.push(JSON.parse(String(e.data))));
      const t0 = Date.now();
      while (!msgs.some((m) => m.event === "connected") && Date.now() - t0 < 5000) await sleep(10);
      await sleep(300);
      const rows = g.accounts.ledger(g.accountId, { limit: 50 }).filter((e) => e.route === "/v1/stream/ws");
      expect(rows.filter((e) => e.kind === "refund")).toEqual([]);
      expect(rows.filter((e) => e.kind === "debit").map((e) => e.delta)).toEqual([-1]);
      expect(g.hub().stats().connections).toBe(1);
      const closed = new Promise((r) => ws.addEventListener("close", r));
      ws.close();
      await closed;
    } finally {
      await g.close();
    }
  });
});
