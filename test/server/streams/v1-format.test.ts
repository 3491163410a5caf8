// The reference's legacy v1 wire format of /v1/stream (`symbol=`, or `format=v1`), read with a
// real SSE client: its event names and payloads (the v2 board with PascalCase keys), no ids, the
// `: keepalive` comment, its parameter rules and its per-account cap; `symbols=` stays v2.
import { EventSource } from "eventsource";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRaw, sleep } from "./_sse";
import { startStreamServer, type StreamServer } from "./_server";

let s: StreamServer;
// 600 simulated seconds per real second: a new board every 0.1 s, a billing minute every 0.1 s,
// a 15 s ping every 25 ms (a keepalive every other one).
beforeAll(async () => {
  s = await startStreamServer({ speed: 600 });
});
afterAll(() => s.close());

interface Received {
  type: string;
  id: string;
  data: any;
}

/** Opens `query` with the `eventsource` package (the key in a custom fetch) and records the named events. */
function listen(query: string, types: readonly string[]): { es: EventSource; seen: Received[]; until: (pred: (r: Received[]) => boolean) => Promise<void> } {
  const es = new EventSource(`${s.url}/v1/stream?${query}`, {
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set("Authorization", `Bearer ${s.key}`);
      return fetch(input, { ...init, headers });
    },
  });
  const seen: Received[] = [];
  for (const t of types) es.addEventListener(t, (e: MessageEvent) => seen.push({ type: t, id: e.lastEventId, data: JSON.parse(e.data) }));
  const until = async (pred: (r: Received[]) => boolean) => {
    for (let waited = 0; !pred(seen); waited += 20) {
      if (waited > 10_000) throw new Error(`timed out; got ${seen.map((r) => r.type).join(",")}`);
      await sleep(20);
    }
  };
  return { es, seen, until };
}

/** Every object key in `v`, at any depth. */
function keysOf(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) for (const x of v) keysOf(x, out);
  else if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      keysOf(x, out);
    }
  }
  return out;
}

const V1_EVENTS = ["connected", "initial_data", "snapshot_update", "velocity_update", "credits", "snapshot", "velocity", "symbol_unavailable", "resumed"];

describe("/v1/stream v1 format", () => {
  it("symbol=SPY: connected {symbol, creditsRemaining}, then initial_data, snapshot_update and velocity_update in PascalCase, no ids", async () => {
    const v1 = listen("symbol=SPY&maxStrikes=30", V1_EVENTS);
    // A v2 stream of the same board options beside it: the same boards, camelCase.
    const v2 = await openRaw(s.url, s.key, "symbols=SPY&maxStrikes=30");
    try {
      await v1.until(
        (r) => r.filter((x) => x.type === "snapshot_update").length >= 2 && r.some((x) => x.type === "velocity_update") && r.some((x) => x.type === "credits"),
      );
      const types = v1.seen.map((r) => r.type);
      expect(types[0]).toBe("connected");
      expect(v1.seen[0].data).toEqual({ symbol: "SPY", creditsRemaining: expect.any(Number), attribution: expect.objectContaining({ text: expect.any(String) }) });
      // Exactly one initial_data, before any update; no v2 event names.
      expect(types.filter((t) => t === "initial_data")).toHaveLength(1);
      expect(types.indexOf("initial_data")).toBeLessThan(types.indexOf("snapshot_update"));
      expect(types.some((t) => ["snapshot", "velocity", "symbol_unavailable", "resumed"].includes(t))).toBe(false);
      // v1 does not resume: no event carries an id.
      expect(v1.seen.every((r) => r.id === "")).toBe(true);
      // The credits event is the v2 one (the symbol's per-minute debit).
      expect(v1.seen.find((r) => r.type === "credits")!.data).toMatchObject({ charged: 1, remaining: expect.any(Number) });

      // Boards: every key PascalCase, and the values those of the v2 snapshot of the same instant.
      const boards = v1.seen.filter((r) => r.type === "initial_data" || r.type === "snapshot_update").map((r) => r.data);
      for (const b of boards) expect(keysOf(b).every((k) => /^[A-Z]/.test(k))).toBe(true);
      const board = boards[boards.length - 1];
      const twin = await v2.waitFor((f) => f.event === "snapshot" && f.data.asOf === board.AsOf);
      expect(board.Symbol).toBe("SPY");
      expect(board.Spot).toBe(twin.data.spot);
      expect(board.Strikes.map((c: any) => [c.Strike, c.Value, c.NodeType])).toEqual(twin.data.strikes.map((c: any) => [c.strike, c.value, c.nodeType]));
      expect(board.Strikes).toHaveLength(twin.data.strikes.length);
      // Velocity: the v2 velocity event's numbers under PascalCase keys.
      const vel = v1.seen.find((r) => r.type === "velocity_update")!.data;
      expect(keysOf(vel).every((k) => /^[A-Z]/.test(k))).toBe(true);
      expect(vel).toMatchObject({ Symbol: "SPY", Metric: "gamma", AsOf: expect.any(String), Strikes: expect.any(Array), TopRisers: expect.any(Array) });
      expect(vel.Strikes[0]).toEqual({ Strike: expect.any(Number), Value: expect.any(Number), VelocityPct: expect.any(Number) });
    } finally {
      v1.es.close();
      v2.abort();
    }
  });

  it("format=v1 with symbols=SPY is v1 too; symbol=SPY&format=v2 and symbols=SPY stay v2", async () => {
    const v1 = await openRaw(s.url, s.key, "symbols=SPY&format=v1");
    const v2a = await openRaw(s.url, s.key, "symbol=SPY&format=v2");
    const v2b = await openRaw(s.url, s.key, "symbols=SPY");
    try {
      expect((await v1.waitFor((f) => f.event === "connected")).data).toEqual({ symbol: "SPY", creditsRemaining: expect.any(Number), attribution: expect.any(Object) });
      await v1.waitFor((f) => f.event === "initial_data");
      for (const v2 of [v2a, v2b]) {
        const connected = await v2.waitFor((f) => f.event === "connected");
        expect(connected.data).toMatchObject({ format: "v2", symbols: ["SPY"] });
        const snap = await v2.waitFor((f) => f.event === "snapshot");
        expect(snap.id).not.toBeNull();
        expect(snap.data.symbol).toBe("SPY");
      }
    } finally {
      for (const r of [v1, v2a, v2b]) r.abort();
    }
  });

  it("sends `: keepalive` comments, never `: ping`", async () => {
    const res = await fetch(`${s.url}/v1/stream?symbol=SPY`, { headers: { Authorization: `Bearer ${s.key}` } });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes(": keepalive\n\n")) text += decoder.decode((await reader.read()).value, { stream: true });
    await reader.cancel();
    expect(text).not.toContain(": ping");
    expect(text).not.toMatch(/^id:/m);
  });

  it("refuses what v1 does not take, naming the parameter", async () => {
    const refused = async (query: string) => {
      const r = await openRaw(s.url, s.key, query);
      r.abort();
      return { status: r.status, code: r.body?.error?.code, message: String(r.body?.error?.message ?? "") };
    };
    expect(await refused("symbol=SPY&symbols=SPY")).toMatchObject({ status: 400, code: "invalid_parameter", message: expect.stringContaining("`symbol`") });
    expect(await refused("metric=gamma")).toMatchObject({ status: 400, code: "missing_parameter", message: expect.stringContaining("`symbols`") });
    expect(await refused("symbols=SPY,AAPL&format=v1")).toMatchObject({ status: 400, message: expect.stringContaining("`format`") });
    expect(await refused("symbol=SPY&format=v3")).toMatchObject({ status: 400, message: expect.stringContaining("v1, v2") });
    expect(await refused("symbol=SPY&expirations=2024-03-08")).toMatchObject({ status: 400, message: expect.stringContaining("`expirations`") });
    expect(await refused("symbol=SPY&maxStrikes=401")).toMatchObject({ status: 400, message: expect.stringContaining("`maxStrikes`") });
    expect(await refused("symbol=SPY&maxStrikes=all")).toMatchObject({ status: 400, message: expect.stringContaining("`maxStrikes`") });
    expect(await refused("symbol=SPY&includeEmpty=true")).toMatchObject({ status: 400, message: expect.stringContaining("`includeEmpty`") });
    expect(await refused("symbol=SPY&layout=matrix")).toMatchObject({ status: 400, message: expect.stringContaining("`layout`") });
    // The same options are fine on v2.
    const v2 = await openRaw(s.url, s.key, "symbols=SPY&maxStrikes=all&includeEmpty=true&layout=matrix");
    expect(v2.status).toBe(200);
    v2.abort();
  });

  it("keeps at most 5 v1 streams per account open (429 stream_limit_reached with Retry-After)", async () => {
    const open = [];
    for (let i = 0; i < 5; i++) {
      const r = await openRaw(s.url, s.key, "symbol=SPY");
      expect(r.status).toBe(200);
      open.push(r);
    }
    const sixth = await openRaw(s.url, s.key, "symbol=SPY");
    expect(sixth.status).toBe(429);
    expect(sixth.body.error.code).toBe("stream_limit_reached");
    expect(sixth.headers.get("Retry-After")).toBe("2");
    // A v2 stream is not counted against the v1 cap.
    const v2 = await openRaw(s.url, s.key, "symbols=SPY");
    expect(v2.status).toBe(200);
    // A closed v1 stream frees its place.
    open[0].abort();
    let again = await openRaw(s.url, s.key, "symbol=SPY");
    for (let i = 0; again.status === 429 && i < 50; i++) {
      await sleep(50);
      again = await openRaw(s.url, s.key, "symbol=SPY");
    }
    expect(again.status).toBe(200);
    for (const r of [...open, v2, again]) r.abort();
  });
});
