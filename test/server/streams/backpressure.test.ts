// A slow reader never grows memory without bound (newest board per symbol wins, marked lagged;
// a reader whose socket stays unwritable past the limit is dropped), and abrupt disconnects free
// every slot, subscription and timer.
import { describe, expect, it } from "vitest";
import { createSseParser, type SseMessage } from "../../../lib/stream-client/sse-parser";
import { openRaw, sleep } from "./_sse";
import { startStreamServer } from "./_server";

describe("slow readers", () => {
  it("queue stays bounded while nothing is read; the first board read is the newest, lagged", async () => {
    const s = await startStreamServer({ speed: 600, tuning: { slowReaderMs: 60_000 } });
    try {
      // In-process request: nobody pulls the body, like a socket that never drains.
      const res = await s.app.request("/v1/stream?symbols=SPY,AAPL", { headers: { Authorization: `Bearer ${s.key}` } });
      expect(res.status).toBe(200);
      const samples: number[] = [];
      for (let i = 0; i < 20; i++) {
        await sleep(50);
        samples.push(s.hub().stats().queuedEvents);
      }
      // ten simulated minutes passed: boards coalesce (2 symbols x snapshot+velocity), only control
      // events (credits, pings) accumulate, at most queueMaxEvents of them
      expect(Math.max(...samples)).toBeLessThan(2 * 2 + 10 * (1 + 4) + 8);
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      const got: SseMessage[] = [];
      const parser = createSseParser({ onEvent: (m) => got.push(m) });
      while (!got.some((m) => m.event === "snapshot")) {
        const { value } = await reader.read();
        parser.feed(decoder.decode(value, { stream: true }));
      }
      const snap = JSON.parse(got.find((m) => m.event === "snapshot")!.data);
      expect(snap.lagged).toBe(true);
      expect(Date.parse(snap.asOf) - Date.parse("2024-03-06T15:00:00Z")).toBeGreaterThanOrEqual(5 * 60_000);
      await reader.cancel();
    } finally {
      await s.close();
    }
  });

  it("drops a reader whose writes stay unaccepted past slowReaderMs and frees its slots", async () => {
    const s = await startStreamServer({ speed: 60, tuning: { slowReaderMs: 300 } });
    try {
      const res = await s.app.request("/v1/stream?symbols=SPY,AAPL", { headers: { Authorization: `Bearer ${s.key}` } });
      expect(res.status).toBe(200);
      expect(s.hub().stats().connections).toBe(1);
      expect(s.app.services.concurrency.inUse(s.accountId, "stream-symbols")).toBe(2);
      await sleep(700);
      expect(s.hub().stats()).toMatchObject({ connections: 0, topics: 0, tickerRunning: false });
      expect(s.app.services.concurrency.inUse(s.accountId, "stream-symbols")).toBe(0);
    } finally {
      await s.close();
    }
  });
});

describe("abrupt disconnects", () => {
  it("free every slot, topic and timer", async () => {
    const s = await startStreamServer({ speed: 60 });
    try {
      const streams = await Promise.all([
        openRaw(s.url, s.key, "symbols=SPY,AAPL"),
        openRaw(s.url, s.key, "symbols=SPXW"),
        openRaw(s.url, s.key, "symbols=SPY,SPX,AAPL"),
      ]);
      await Promise.all(streams.map((r) => r.waitFor((f) => f.event === "snapshot")));
      expect(s.hub().stats()).toMatchObject({ connections: 3, topics: 4, tickerRunning: true });
      expect(s.app.services.concurrency.inUse(s.accountId, "stream-symbols")).toBe(6);
      for (const r of streams) r.abort();
      const t0 = Date.now();
      while (s.hub().stats().connections > 0 && Date.now() - t0 < 2000) await sleep(10);
      expect(s.hub().stats()).toMatchObject({ connections: 0, topics: 0, tickerRunning: false, queuedEvents: 0 });
      expect(s.app.services.concurrency.inUse(s.accountId, "stream-symbols")).toBe(0);
    } finally {
      await s.close();
    }
  });
});
