// A new board goes out to every subscriber without stalling the event loop
// (docs/api.md#stream-fan-out): its events are encoded once and every connection writes the same
// bytes after its own id (SSE: a separate head chunk; WebSocket: head + shared tail), the result is
// byte-for-byte the plain encoding, and subscribers are handed the board in batches, one batch per
// event-loop turn.
import { describe, expect, it } from "vitest";
import { openAccountService } from "../../../server/accounts";
import { createApp } from "../../../server/app";
import { createConcurrencyLimiter, createRateLimiter } from "../../../server/limits";
import { boardQueryOf, createPositioningBoardHub, moduleStateOf, positioningModule, streamQuery } from "../../../server/modules";
import type { BoardState } from "../../../server/streams/board-hub";
import { eventData } from "../../../server/streams/replay-store";
import { SharedEvent, sseText, wsText, type OutFrame } from "../../../server/streams/sink";
import { createSseSink } from "../../../server/streams/sse-response";
import { createWsSink } from "../../../server/streams/ws-sink";
import { createSseParser, type SseMessage } from "../../../lib/stream-client/sse-parser";
import { fixedClock } from "../../../lib/market/clock";
import { movingMarket, SESSION_MS } from "./_server";

const decoder = new TextDecoder();

async function readChunks(body: ReadableStream<Uint8Array>, n: number): Promise<Uint8Array[]> {
  const reader = body.getReader();
  const out: Uint8Array[] = [];
  while (out.length < n) {
    const { value, done } = await reader.read();
    if (done) break;
    out.push(value);
  }
  reader.releaseLock();
  return out;
}

describe("shared events on SSE", () => {
  const board = new SharedEvent("snapshot", eventData({ data: '{"symbol":"SPY","strikes":[{"strike":500,"value":-1.5e9}]}', lagged: false }));

  it("every connection writes the same byte array after its own id; the text is the plain encoding", async () => {
    const a = createSseSink(() => {});
    const b = createSseSink(() => {});
    const fa: OutFrame = { id: "aaaaaaaaaaaaaaaa.7", shared: board };
    const fb: OutFrame = { id: "bbbbbbbbbbbbbbbb.2", shared: board };
    void a.sink.write(fa);
    void b.sink.write(fb);
    const [ca, cb] = await Promise.all([readChunks(a.body, 2), readChunks(b.body, 2)]);
    expect(ca[1]).toBe(cb[1]); // one array for both subscribers
    expect(decoder.decode(ca[0])).toBe("id: aaaaaaaaaaaaaaaa.7\n");
    expect(ca.map((c) => decoder.decode(c)).join("")).toBe(sseText({ id: fa.id, event: "snapshot", data: board.data }));
    expect(cb.map((c) => decoder.decode(c)).join("")).toBe(sseText(fb));
    const got: SseMessage[] = [];
    const parser = createSseParser({ onEvent: (m) => got.push(m) });
    parser.feed(ca.map((c) => decoder.decode(c)).join(""));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ id: "aaaaaaaaaaaaaaaa.7", event: "snapshot" });
    expect(JSON.parse(got[0].data)).toEqual({ symbol: "SPY", strikes: [{ strike: 500, value: -1.5e9 }], lagged: false });
  });

  it("a shared event counts as one frame for backpressure (head and body together)", async () => {
    const { sink, body } = createSseSink(() => {});
    const first = sink.write({ id: "aaaaaaaaaaaaaaaa.1", shared: board });
    // nobody reads: the one-frame queue is full after one event, head chunk included
    expect(first).toBeInstanceOf(Promise);
    let accepted = false;
    void (first as Promise<void>).then(() => (accepted = true));
    const chunks = await readChunks(body, 2);
    await Promise.resolve();
    expect(chunks).toHaveLength(2);
    expect(accepted).toBe(true);
  });
});

describe("shared events on WebSocket", () => {
  it("sends head + shared tail as one text message equal to the plain message; other frames as strings", () => {
    const sent: { data: string | Uint8Array; options?: { binary?: boolean } }[] = [];
    const peer = { send: (data: string | Uint8Array, options?: { binary?: boolean }) => void sent.push({ data, options }), close() {} };
    const { sink } = createWsSink(peer, 1 << 20);
    const shared = new SharedEvent("velocity", '{"symbol":"SPY","topRisers":[{"strike":500,"velocityPct":12.5}]}');
    sink.write({ id: "aaaaaaaaaaaaaaaa.3", shared });
    sink.write({ id: "aaaaaaaaaaaaaaaa.4", event: "credits", data: '{"remaining":9}' });
    sink.write({ ping: true });
    expect(sent[0].data).toBeInstanceOf(Uint8Array);
    expect(sent[0].options).toEqual({ binary: false });
    const text = decoder.decode(sent[0].data as Uint8Array);
    expect(text).toBe(wsText({ id: "aaaaaaaaaaaaaaaa.3", event: "velocity", data: shared.data }));
    expect(JSON.parse(text)).toEqual({ id: "aaaaaaaaaaaaaaaa.3", event: "velocity", data: JSON.parse(shared.data) });
    expect(sent[1].data).toBe('{"id":"aaaaaaaaaaaaaaaa.4","event":"credits","data":{"remaining":9}}');
    expect(sent[2].data).toBe('{"event":"ping"}');
    // the shared tail is encoded once
    expect(shared.wsBytes()).toBe(shared.wsBytes());
  });
});

describe("board fan-out", () => {
  function testServices() {
    const clock = fixedClock(SESSION_MS);
    const accounts = openAccountService({ dbPath: ":memory:" });
    const app = createApp({ market: movingMarket(clock), accounts, rateLimiter: createRateLimiter(), concurrency: createConcurrencyLimiter(), clock });
    return { services: app.services, clock, close: () => accounts.close() };
  }

  it("hands a new board to subscribers in batches, yielding to the event loop between batches", async () => {
    const { services, clock, close } = testServices();
    try {
      const hub = createPositioningBoardHub(moduleStateOf(services, positioningModule), { fanoutBatch: 50 });
      const query = boardQueryOf(streamQuery.parse({ symbols: "SPY" }));
      const got: BoardState[] = [];
      let otherWorkRanAfter = -1;
      for (let i = 0; i < 200; i++) {
        hub.subscribe("SPY", query, (_symbol, state) => {
          got.push(state);
          // work queued by the first subscriber runs before the second batch starts
          if (got.length === 1) setImmediate(() => (otherWorkRanAfter = got.length));
        });
      }
      await hub.tick(clock.now());
      expect(got).toHaveLength(200);
      expect(otherWorkRanAfter).toBe(50);
      expect(got[0].kind).toBe("board");
      // one state (one set of encoded events) for every subscriber
      expect(got.every((s) => s === got[0])).toBe(true);
      const b = got[0] as Extract<BoardState, { kind: "board" }>;
      expect(JSON.parse(b.snapshotEvent.data)).toEqual({ ...JSON.parse(b.snapshotJson), lagged: false });
      expect(JSON.parse(b.laggedSnapshotEvent.data)).toEqual({ ...JSON.parse(b.snapshotJson), lagged: true });
      expect(b.velocityEvent!.data).toBe(b.velocityJson);
    } finally {
      close();
    }
  });

  it("boards of several topics changing together share one per-turn budget", async () => {
    const { services, clock, close } = testServices();
    try {
      const hub = createPositioningBoardHub(moduleStateOf(services, positioningModule), { fanoutBatch: 50 });
      let delivered = 0;
      let otherWorkRanAfter = -1;
      for (const symbol of ["SPY", "AAPL", "SPXW"]) {
        const query = boardQueryOf(streamQuery.parse({ symbols: symbol }));
        for (let i = 0; i < 100; i++) {
          hub.subscribe(symbol, query, () => {
            delivered++;
            if (delivered === 1) setImmediate(() => (otherWorkRanAfter = delivered));
          });
        }
      }
      await hub.tick(clock.now());
      expect(delivered).toBe(300);
      expect(otherWorkRanAfter).toBe(50);
    } finally {
      close();
    }
  });

  it("a subscriber that leaves during the fan-out gets nothing more", async () => {
    const { services, clock, close } = testServices();
    try {
      const hub = createPositioningBoardHub(moduleStateOf(services, positioningModule), { fanoutBatch: 10 });
      const query = boardQueryOf(streamQuery.parse({ symbols: "SPY" }));
      const calls = new Array(30).fill(0);
      const offs: (() => void)[] = [];
      for (let i = 0; i < 30; i++) {
        offs.push(
          hub.subscribe("SPY", query, () => {
            calls[i]++;
            // the first subscriber unsubscribes the last ten (they are in a later batch)
            if (i === 0) for (const off of offs.slice(20)) off();
          }),
        );
      }
      await hub.tick(clock.now());
      expect(calls.slice(0, 20).every((c) => c === 1)).toBe(true);
      expect(calls.slice(20).every((c) => c === 0)).toBe(true);
    } finally {
      close();
    }
  });
});
