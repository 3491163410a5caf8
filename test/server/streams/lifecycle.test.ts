// The stream lifecycle of the spec ("States and transitions" 3, "Events"), on a scaled market clock
// so an hour runs in seconds: exact billing per symbol per interval in the ledger, keep-alive
// cadence, max-duration and shutdown reconnects.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRaw, sequenced, seqOf, type Frame } from "./_sse";
import { startStreamServer, type StreamServer } from "./_server";

describe("an hour-long stream (speed 600: one simulated hour in six seconds)", () => {
  let s: StreamServer;
  let frames: Frame[];
  let openRequestId: string;
  beforeAll(async () => {
    s = await startStreamServer({ speed: 600 });
    const raw = await openRaw(s.url, s.key, "symbols=SPY,AAPL");
    expect(raw.status).toBe(200);
    openRequestId = raw.headers.get("x-request-id")!;
    await raw.waitFor((f) => f.event === "reconnect", 20_000);
    await raw.ended;
    frames = raw.frames;
  }, 30_000);
  afterAll(() => s.close());

  it("starts with connected stating creditsPerMinute and maxDurationSeconds", () => {
    const first = frames[0];
    expect(first.event).toBe("connected");
    expect(first.data.creditsPerMinute).toBe(2);
    expect(first.data.maxDurationSeconds).toBe(3600);
    expect(first.data.symbols).toEqual(["SPY", "AAPL"]);
    expect(first.data.metric).toBe("gamma");
  });

  it("charges 1 credit per symbol to open and 1 per symbol per minute: 60 debits of 2 in the hour", () => {
    const mine = s.accounts.ledger(s.accountId, { limit: 1000 }).filter((e) => e.requestId?.startsWith(openRequestId));
    expect(mine.every((e) => e.kind === "debit" && e.delta === -2 && e.route === "/v1/stream")).toBe(true);
    // the open plus minutes 1..59; at minute 60 the stream ends with reconnect instead
    expect(mine.length).toBe(60);
    const credits = frames.filter((f) => f.event === "credits");
    expect(credits.length).toBe(59);
    expect(credits.map((f) => f.data.interval)).toEqual(Array.from({ length: 59 }, (_, i) => i + 1));
    expect(credits.every((f) => f.data.charged === 2)).toBe(true);
    // `remaining` is the ledger's balance after each debit
    const byRequest = new Map(mine.map((e) => [e.requestId, e.balanceAfter]));
    for (const c of credits) expect(c.data.remaining).toBe(byRequest.get(`${openRequestId}.m${c.data.interval}`));
  });

  it("pings every 15 s of stream time: 239 pings before the reconnect at 3600 s", () => {
    expect(frames.filter((f) => f.ping).length).toBe(3600 / 15 - 1);
  });

  it("ends with reconnect max_duration carrying the last sequenced id", () => {
    const last = frames.filter((f) => !f.ping).at(-1)!;
    expect(last.event).toBe("reconnect");
    expect(last.data).toEqual({ reason: "max_duration" });
    const seq = sequenced(frames);
    expect(last.id).toBe(seq.at(-1)!.id);
  });

  it("sends a board per symbol each new minute, asOf strictly increasing, ids contiguous", () => {
    for (const sym of ["SPY", "AAPL"]) {
      const snaps = frames.filter((f) => f.event === "snapshot" && f.data.symbol === sym).map((f) => Date.parse(f.data.asOf));
      expect(snaps.length).toBeGreaterThanOrEqual(55);
      for (let i = 1; i < snaps.length; i++) expect(snaps[i]).toBeGreaterThan(snaps[i - 1]);
      const vel = frames.filter((f) => f.event === "velocity" && f.data.symbol === sym);
      expect(vel.length).toBeGreaterThanOrEqual(55);
    }
    const seqs = sequenced(frames).map((f) => seqOf(f.id));
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
  });

  it("frees the account's stream slots and stops the ticker after the stream ends", async () => {
    await new Promise((r) => setTimeout(r, 50));
    expect(s.hub().stats()).toMatchObject({ connections: 0, topics: 0, tickerRunning: false });
    expect(s.app.services.concurrency.inUse(s.accountId, "stream-symbols")).toBe(0);
  });
});

describe("timings from options (STREAM_* env / createApp streams)", () => {
  it("uses billing interval, keep-alive and max duration as configured", async () => {
    const s = await startStreamServer({ speed: 60, streams: { maxDurationS: 120, billingIntervalS: 30, keepaliveS: 10 } });
    try {
      const raw = await openRaw(s.url, s.key, "symbols=SPY");
      const connected = await raw.waitFor((f) => f.event === "connected");
      expect(connected.data).toMatchObject({ creditsPerMinute: 2, billingIntervalSeconds: 30, maxDurationSeconds: 120, keepaliveSeconds: 10 });
      await raw.waitFor((f) => f.event === "reconnect", 10_000);
      expect(raw.frames.filter((f) => f.event === "credits").length).toBe(120 / 30 - 1);
      expect(raw.frames.filter((f) => f.ping).length).toBe(120 / 10 - 1);
    } finally {
      await s.close();
    }
  });
});

describe("shutdown", () => {
  it("sends reconnect server_shutdown to every stream and refuses new opens with 503 stream_unavailable", async () => {
    const s = await startStreamServer({ speed: 60 });
    try {
      const a = await openRaw(s.url, s.key, "symbols=SPY");
      const b = await openRaw(s.url, s.key, "symbols=AAPL,SPXW");
      await a.waitFor((f) => f.event === "snapshot");
      await b.waitFor((f) => f.event === "snapshot");
      const down = s.hub().shutdown(1000);
      const ra = await a.waitFor((f) => f.event === "reconnect");
      const rb = await b.waitFor((f) => f.event === "reconnect");
      expect(ra.data).toEqual({ reason: "server_shutdown" });
      expect(rb.data).toEqual({ reason: "server_shutdown" });
      await down;
      await Promise.all([a.ended, b.ended]);
      const refused = await openRaw(s.url, s.key, "symbols=SPY");
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe("stream_unavailable");
      expect(refused.headers.get("retry-after")).toBe("5");
    } finally {
      await s.close();
    }
  });
});
