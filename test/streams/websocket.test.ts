// The same stream over WebSocket (crossws through h3 and srvx): auth by header or by the bearer
// subprotocol, refused opens as HTTP errors on the handshake, JSON messages {id, event, data},
// billing, resume with lastEventId, and slots freed on close.
import WebSocket from "crossws/websocket";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seqOf, sleep } from "./_sse";
import { startStreamServer, type StreamServer } from "./_server";

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
