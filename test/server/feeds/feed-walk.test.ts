// Issue 33's "done when", in process: the app over the Massive feed (through the loopback fake of
// the vendor) answers every positioning, flow, price and volatility route of the route table with
// each route's documented example parameters (server/openapi/examples.generated.json, moved to the
// fixture's day, symbol and contracts): 200 from the feed's data, or the documented 404 of what
// this feed cannot give (docs/data.md#what-a-feed-does-not-give). It records the feed; a feed
// restarted over the recorded store (as `serve --feed` starts) replays /v1/historical of a recorded
// minute identically. The positioning and volatility streams say when the feed's board has gone
// stale (same rule and fields as the JSON answers). One app per phase.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The feed, the recorder and the replay as a host imports them (optionscope/server).
import {
  allRoutes,
  createMassiveFeed,
  openRecordedMarket,
  recordFeed,
  type AnyRoute,
  type MassiveFeed,
  type RecordedMarket,
  type RecordingHandle,
} from "../../../server/index";
import { exampleOf } from "../../../server/openapi/examples";
import { makeHarness, type Harness } from "../_harness";
import { startFakeMassive, type FakeMassive } from "./_fake-massive";
import { fixture, KEY, SPOT } from "./_massive-fixture";

const MIN = 60_000;
/** The walk's session: the feed starts at 09:40 ET and is followed to 10:05 (the examples' instants, 09:30-10:00 ET, fall in it). */
const M0 = Date.parse("2025-12-03T14:40:00Z");
const MINUTES = 25;
const NOW_MS = M0 + MINUTES * MIN;
/** The examples' "now" (scripts/build-openapi-examples.ts, 10:00 ET): UDF instants are moved to the walk's. */
const EXAMPLE_NOW_MS = Date.parse("2024-03-06T15:00:00Z");
const SHIFT_S = Math.round((NOW_MS - EXAMPLE_NOW_MS) / 1000);
const CONTRACT = "SPY251205C00650000";
const WALKED_MODULES = new Set(["positioning", "flow", "price", "volatility"]);
/**
 * What this feed cannot give, with the reason docs/data.md#what-a-feed-does-not-give lists: the S&P
 * complex (`/v1/vol/market`) is read from SPXW's board, and the walk follows SPY only.
 */
const NOT_FROM_THIS_FEED: Record<string, { status: number; code: string }> = {
  "/v1/vol/market": { status: 404, code: "no_data" },
};
/** The recorded minute replayed after the restart. */
const REPLAYED = "/v1/historical?symbols=SPY&at=2025-12-03T14:45:00Z&maxStrikes=5";

/** A route's documented example request, moved to the fixture's session, symbol and contracts. */
function walkRequest(route: AnyRoute, tradeId: string): string {
  const example = exampleOf(route);
  if (!example) throw new Error(`${route.path} has no documented example`);
  const prefix = route.host === "atlas" ? "/atlas" : "";
  return (
    prefix +
    example.request
      .replaceAll("2024-03-06", "2025-12-03")
      .replaceAll("2024-03-05", "2025-12-02")
      .replaceAll("2024-03-01", "2025-11-26")
      .replaceAll("2024-03-08", "2025-12-05")
      .replace(/SPY\d{6}[CP]\d{8}/g, CONTRACT)
      .replace("/by-strike/505/", "/by-strike/650/")
      .replace(",AAPL", "")
      .replace(/\/v1\/score\/[^?]+/, `/v1/score/${encodeURIComponent(tradeId)}`)
      // UDF instants are Unix seconds.
      .replace(/(from|to)=(\d{10})/g, (_, k: string, s: string) => `${k}=${Number(s) + SHIFT_S}`)
  );
}

describe("serving every route from the Massive feed, recording it, replaying it after a restart", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "optionscope-walk-"));
  const clock = { ms: M0 + 30_000, now: () => clock.ms };
  let fake: FakeMassive;
  let feed: MassiveFeed;
  let history: RecordedMarket;
  let recording: RecordingHandle;
  let h: Harness;

  beforeAll(async () => {
    fake = await startFakeMassive(KEY, () => clock.ms * 1e6);
    fake.chains.set("SPY", fixture());
    fake.prices.set("SPY", SPOT);
    history = openRecordedMarket(dataDir, { clock });
    feed = createMassiveFeed({
      apiKey: KEY,
      symbols: ["SPY"],
      restBaseUrl: fake.restUrl,
      wsBaseUrl: fake.wsUrl,
      clock,
      history,
      pollIntervalMs: 3_600_000, // polls are driven by the test (pollNow)
      rest: { backoffMs: 5, maxAttempts: 2 },
      snapshotWorker: false,
    });
    await feed.start();
    recording = await recordFeed(feed.market, { dataDir, underlyings: ["SPY"], log: () => {} });
    h = makeHarness({ market: feed.market, clock, feedStatus: () => feed.status(), credits: 1_000_000 });
    // The session to NOW_MS: each minute a quote and two prints in it, the bar of the minute before, then its board.
    for (let m = 1; m <= MINUTES; m++) {
      const start = M0 + (m - 1) * MIN;
      fake.send("options", [
        { ev: "Q", sym: `O:${CONTRACT}`, bp: 3.1, ap: 3.2, bs: 10, as: 12, t: start + 500 },
        { ev: "T", sym: `O:${CONTRACT}`, x: 302, p: 3.2, s: 5 + m, c: [209], t: start + 600, q: 2 * m },
        { ev: "T", sym: `O:${CONTRACT.replace("C", "P")}`, x: 302, p: 2.1, s: 3, c: [209], t: start + 700, q: 2 * m + 1 },
      ]);
      if (m > 1) fake.send("stocks", [{ ev: "AM", sym: "SPY", v: 1000 * m, o: SPOT, c: SPOT + m / 10, h: SPOT + 1, l: SPOT - 1, s: start - MIN, e: start }]);
      await until(() => feed.status().counters.prints >= 2 * m, "the minute's prints");
      clock.ms = start + MIN + 1000;
      await feed.pollNow();
    }
    await until(() => feed.status().counters.bars >= MINUTES - 1, "the bars");
    // The recorder runs RECORD_LAG_MS behind the feed: every minute to 10:03:30 ET is written.
    clock.ms = NOW_MS + 1000;
    await recording.catchUp();
    h.wall.ms = clock.ms;
  });

  afterAll(async () => {
    await recording?.stop();
    await feed?.stop();
    history?.close();
    await fake?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  let replayedLive: unknown;

  it("answers every positioning, flow, price and volatility route of the route table from the feed", async () => {
    // The feed's own trade id, as /v1/flow/{ticker} lists it, is what /v1/score takes.
    const flow = (await (await h.get("/v1/flow/SPY?limit=1")).json()) as { data: { trades: { tradeId: string }[] } };
    const tradeId = flow.data.trades[0].tradeId;
    const walked = allRoutes.filter((r) => WALKED_MODULES.has(r.module) && !r.path.endsWith("/ws"));
    expect(walked.length).toBeGreaterThan(70);
    const wrong: string[] = [];
    for (const route of walked) {
      const request = walkRequest(route, tradeId);
      let res = await h.get(request);
      // The volatility history loads in the background after the first read (503 warming_up with
      // Retry-After): asked again as a client would, sooner than Retry-After says.
      for (let tries = 0; res.status === 503 && tries < 60; tries++) {
        await new Promise((r) => setTimeout(r, 250));
        res = await h.get(request);
      }
      const expected = NOT_FROM_THIS_FEED[route.path];
      if (route.kind === "stream") {
        // A stream's first event is `connected`: the stream opened over the feed (its boards are checked below).
        const first = await readUntil(res, (text) => text.includes("event: connected"), 5_000);
        if (res.status !== 200 || !first.includes("event: connected")) wrong.push(`${request}: ${res.status}`);
        continue;
      }
      const body = (await res.json()) as { data?: unknown; meta?: { simulated?: boolean }; error?: { code: string } };
      if (expected) {
        if (res.status !== expected.status || body.error?.code !== expected.code) wrong.push(`${request}: ${res.status} ${JSON.stringify(body).slice(0, 160)}`);
        continue;
      }
      if (res.status !== 200) wrong.push(`${request}: ${res.status} ${JSON.stringify(body).slice(0, 160)}`);
      // Never the simulator's data: the app's market is the feed's.
      if (body.meta?.simulated === true) wrong.push(`${request}: simulated`);
      if (request === REPLAYED) replayedLive = body.data;
    }
    expect(wrong).toEqual([]);
    // The answers are the feed's: the live board is the 10:05 snapshot of the fixture, the tape its prints.
    const heat = (await (await h.get("/v1/heatmap?symbols=SPY")).json()) as { data: { symbols: { asOf: string; spot: number }[] }; meta: Record<string, unknown> };
    expect(heat.data.symbols[0]).toMatchObject({ asOf: "2025-12-03T15:05:00Z", spot: SPOT });
    expect(heat.meta).toMatchObject({ mode: "live", simulated: false, stale: false });
    const trades = (await (await h.get("/v1/flow/SPY?limit=500")).json()) as { data: { trades: unknown[] } };
    expect(trades.data.trades).toHaveLength(2 * MINUTES);
    expect(replayedLive).toBeDefined();
  }, 120_000);

  it("says on the streams when the feed is down past the limit (503 on the JSON routes), then resumes with its next board", async () => {
    const heatStream = await h.get("/v1/stream?symbols=SPY");
    const volStream = await h.get("/v1/vol/stream?symbols=SPY");
    expect(await readUntil(heatStream, (t) => t.includes("event: snapshot"), 10_000, false)).toContain("event: snapshot");
    expect(await readUntil(volStream, (t) => t.includes("event: vol"), 10_000, false)).toContain("event: vol");
    // Three failed snapshots: the feed is down; 21 minutes after its last board (10:05) live reads are refused.
    fake.outage = true;
    for (let i = 1; i <= 3; i++) {
      clock.ms = NOW_MS + i * MIN + 1000;
      await feed.pollNow();
    }
    expect(feed.status().state).toBe("down");
    clock.ms = NOW_MS + 21 * MIN + 1000;
    const json = await h.get("/v1/heatmap?symbols=SPY");
    expect(json.status).toBe(503);
    expect(((await json.json()) as { error: { code: string } }).error.code).toBe("data_unavailable");
    for (const stream of [heatStream, volStream]) {
      const text = await readUntil(stream, (t) => t.includes("event: symbol_unavailable"), 10_000, false);
      const data = JSON.parse(/event: symbol_unavailable\ndata: (.*)/.exec(text)![1]) as Record<string, unknown>;
      expect(data).toMatchObject({ symbol: "SPY", reason: "data_unavailable", asOf: "2025-12-03T15:05:00Z", ageS: 21 * 60 + 1, stale: true });
    }
    // The vendor is back: the next poll's board (10:26) goes out on the streams as usual.
    fake.outage = false;
    await feed.pollNow();
    clock.ms += MIN;
    expect(await readUntil(heatStream, (t) => t.includes("event: snapshot"), 10_000)).toContain('"asOf":"2025-12-03T15:26:00Z"');
    expect(await readUntil(volStream, (t) => t.includes("event: vol"), 10_000)).toContain('"asOf":"2025-12-03T15:26:00Z"');
  }, 60_000);

  it("says on the positioning and volatility streams when the feed's board has gone stale, as the JSON answers do", async () => {
    const heatStream = await h.get("/v1/stream?symbols=SPY");
    const volStream = await h.get("/v1/vol/stream?symbols=SPY");
    expect(await readUntil(heatStream, (t) => t.includes("event: snapshot"), 10_000, false)).toContain("event: snapshot");
    expect(await readUntil(volStream, (t) => t.includes("event: vol"), 10_000, false)).toContain("event: vol");
    // The feed stops (not down: it just sends nothing more); 21 minutes later its newest board (10:26) is past the 20-minute limit.
    await feed.stop();
    clock.ms = Date.parse("2025-12-03T15:47:01Z");
    const json = (await (await h.get("/v1/heatmap?symbols=SPY")).json()) as { meta: Record<string, unknown> };
    expect(json.meta).toMatchObject({ mode: "live", asOf: "2025-12-03T15:26:00Z", stale: true, ageS: 21 * 60 + 1 });
    for (const stream of [heatStream, volStream]) {
      const text = await readUntil(stream, (t) => t.includes("event: symbol_unavailable"), 10_000);
      const data = JSON.parse(/event: symbol_unavailable\ndata: (.*)/.exec(text)![1]) as Record<string, unknown>;
      // The JSON answers' field names and values, from the one rule (lib/market/freshness.ts).
      expect(data).toMatchObject({ symbol: "SPY", reason: "stale", asOf: json.meta.asOf, ageS: json.meta.ageS, stale: true });
    }
  }, 60_000);

  it("after a restart over the recorded store, replays a recorded minute identically", async () => {
    await recording.stop();
    history.close();
    await h.app.shutdown(1_000);
    // A new feed over the same data directory, as `serve --feed massive` starts: its past is the store.
    clock.ms = Date.parse("2025-12-03T16:00:01Z");
    const again = openRecordedMarket(dataDir, { clock });
    const restarted = createMassiveFeed({
      apiKey: KEY,
      symbols: ["SPY"],
      restBaseUrl: fake.restUrl,
      wsBaseUrl: fake.wsUrl,
      clock,
      history: again,
      pollIntervalMs: 3_600_000,
      snapshotWorker: false,
    });
    try {
      await restarted.start();
      const h2 = makeHarness({ market: restarted.market, clock, feedStatus: () => restarted.status(), credits: 1000 });
      h2.wall.ms = clock.ms;
      const res = await h2.get(REPLAYED);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: unknown; meta: Record<string, unknown> };
      expect(JSON.stringify(body.data)).toBe(JSON.stringify(replayedLive));
      expect(body.meta).toMatchObject({ mode: "historical", simulated: false });
      await h2.app.shutdown(1_000);
    } finally {
      await restarted.stop();
      again.close();
    }
  }, 60_000);
});

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Readers kept per response, so a stream can be read again where it was left. */
const readers = new WeakMap<Response, { reader: ReadableStreamDefaultReader<Uint8Array>; text: string }>();

/** Read an event stream until `done(text)` or `waitMs` pass; the text read since the last call. `close` cancels it after. */
async function readUntil(res: Response, done: (text: string) => boolean, waitMs: number, close = true): Promise<string> {
  let r = readers.get(res);
  if (!r) {
    r = { reader: res.body!.getReader(), text: "" };
    readers.set(res, r);
  }
  const decoder = new TextDecoder();
  const from = r.text.length;
  const deadline = Date.now() + waitMs;
  while (!done(r.text.slice(from)) && Date.now() < deadline) {
    const next = await Promise.race([r.reader.read(), new Promise<null>((ok) => setTimeout(() => ok(null), Math.max(1, deadline - Date.now())))]);
    if (!next || next.done) break;
    r.text += decoder.decode(next.value, { stream: true });
  }
  if (close) await r.reader.cancel().catch(() => {});
  return r.text.slice(from);
}
