// The Massive live feed through a loopback fake of the vendor (REST snapshot with paging and 429s,
// WebSocket trades, quotes and minute aggregates in the documented format), served by the app:
// the live heatmap equals the exposure computed from the fixture by an independent formula, and a
// malformed message, a 429, a slow feed, an outage and a reconnect each give the documented answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classifySide } from "../../../lib/flow/trade-side";
import { FeedError } from "../../../server/feeds/market-feed";
import { createMassiveFeed, type MassiveFeed } from "../../../server/feeds/massive/massive-feed";
import { makeHarness, type Harness } from "../_harness";
import { startFakeMassive, type FakeMassive } from "./_fake-massive";
import { fixture, independentGex, KEY, SPOT, START_MS, STRIKES } from "./_massive-fixture";

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("Massive live feed through the loopback fake", () => {
  let fake: FakeMassive;
  let feed: MassiveFeed;
  let h: Harness;
  const clock = { ms: START_MS, now: () => clock.ms };
  const logs: Record<string, unknown>[] = [];

  beforeAll(async () => {
    fake = await startFakeMassive(KEY, () => clock.ms * 1e6);
    fake.chains.set("SPY", fixture());
    fake.prices.set("SPY", SPOT);
    feed = createMassiveFeed({
      apiKey: KEY,
      symbols: ["SPY"],
      restBaseUrl: fake.restUrl,
      wsBaseUrl: fake.wsUrl,
      clock,
      pollIntervalMs: 3_600_000, // polls are driven by the test (pollNow)
      rest: { pageLimit: 7, backoffMs: 5, maxAttempts: 3, timeoutMs: 2000 },
      socketBackoffMs: 20,
      log: (l) => logs.push(l),
    });
    await feed.start();
    h = makeHarness({ market: feed.market, clock, feedStatus: () => feed.status(), credits: 1000 });
    h.wall.ms = START_MS;
  });

  afterAll(async () => {
    await feed?.stop();
    await fake?.close();
  });

  it("pages through the snapshot and subscribes trades of every contract, quotes and the underlying's minute aggregates", async () => {
    // 21 contracts at 7 a page: 3 pages.
    expect(fake.requests.filter((p) => p === "/v3/snapshot/options/SPY")).toHaveLength(3);
    expect(feed.status().counters.snapshotNoIv).toBe(1);
    // Taken in the snapshot worker thread, off the event loop the requests share.
    expect(feed.status().counters.snapshotsInWorker).toBe(1);
    await until(() => (fake.subscriptions.get("options")?.size ?? 0) >= 42 && (fake.subscriptions.get("stocks")?.size ?? 0) >= 1, "subscriptions");
    const subs = fake.subscriptions.get("options")!;
    for (const c of fixture()) expect(subs.has(`T.${c.ticker}`)).toBe(true);
    expect(subs.has(`Q.${fixture()[0].ticker}`)).toBe(true);
    expect(fake.subscriptions.get("stocks")!.has("AM.SPY")).toBe(true);
  });

  it("serves the live heatmap equal to the exposure computed from the fixture independently", async () => {
    const res = await h.get("/v1/heatmap?symbols=SPY&metric=gamma");
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      data: { symbols: Array<{ asOf: string; spot: number; strikes: Array<{ strike: number; value: number }> }> };
      meta: Record<string, unknown>;
    };
    const entry = body.data.symbols[0];
    expect(entry.asOf).toBe("2025-12-03T15:00:00Z");
    expect(entry.spot).toBe(SPOT);
    const expected = independentGex(Date.parse("2025-12-03T15:00:00Z"));
    expect(entry.strikes.map((s) => s.strike).sort((a, b) => a - b)).toEqual(STRIKES);
    const off: string[] = [];
    for (const s of entry.strikes) {
      const want = expected.get(s.strike)!;
      if (Math.abs(s.value - want) > 1e-6 * Math.abs(want)) off.push(`${s.strike}: ${s.value} vs ${want}`);
    }
    expect(off).toEqual([]);
    expect(body.meta).toMatchObject({ mode: "live", simulated: false, stale: false, asOf: "2025-12-03T15:00:00Z", ageS: 30 });
    // Every live positioning answer carries the same freshness fields.
    for (const path of ["/v1/gex/levels?symbols=SPY", "/v1/gex/buckets?symbols=SPY", "/v1/gex/profile?symbols=SPY"]) {
      const r = await h.get(path);
      expect(r.status, path).toBe(200);
      expect(((await r.json()) as { meta: Record<string, unknown> }).meta, path).toMatchObject({ mode: "live", stale: false, asOf: "2025-12-03T15:00:00Z", ageS: 30 });
    }
  });

  it("streams trades with the NBBO at the print: the stream's quote, else a recent snapshot quote, else none (side N)", async () => {
    const quoted = fixture()[0].ticker; // quotes subscribed (nearest the money)
    clock.ms = START_MS + 5000;
    const t0 = START_MS + 1000;
    fake.send("options", [
      { ev: "Q", sym: quoted, bx: 302, ax: 302, bp: 3.1, ap: 3.2, bs: 10, as: 12, t: t0, q: 1 },
      { ev: "T", sym: quoted, x: 302, p: 3.2, s: 5, c: [209], t: t0 + 5, q: 2 },
      { ev: "T", sym: fixture()[4].ticker, x: 999, p: 2.5, s: 2, c: [219], t: t0 + 6, q: 3 },
      { ev: "T", sym: "O:SPY251219C00700000", x: 308, p: 0.02, s: 1, c: [209], t: t0 + 7, q: 4 },
    ]);
    await until(() => feed.status().counters.prints >= 3, "three prints");
    const prints = await feed.market.optionPrints("SPY", START_MS, START_MS + 60_000);
    expect(prints).toHaveLength(3);
    const [atAsk, snapQuoted, noQuote] = prints;
    expect(atAsk).toMatchObject({
      symbol: "SPY__251205C00640000",
      price: 3.2,
      size: 5,
      nbboBid: 3.1,
      nbboAsk: 3.2,
      exchange: "CBOE",
      conditions: ["AUTO"],
      underlying: "SPY",
    });
    expect(classifySide(atAsk.price, atAsk.nbboBid, atAsk.nbboAsk)).toBe("A");
    // The snapshot's quote was stamped at poll time, within the 60 s it is trusted for.
    expect(snapQuoted).toMatchObject({ nbboBid: 2.5, nbboAsk: 2.55, conditions: ["ISOI"] });
    expect(classifySide(snapQuoted.price, snapQuoted.nbboBid, snapQuoted.nbboAsk)).toBe("B");
    expect(feed.status().counters.unknownExchange).toBe(1);
    // No quote anywhere: no NBBO (0/0), so the side is N, unclassified, never guessed.
    expect(noQuote).toMatchObject({ nbboBid: 0, nbboAsk: 0, exchange: "ISE" });
    expect(classifySide(noQuote.price, noQuote.nbboBid, noQuote.nbboAsk)).toBe("N");
    expect(feed.status().counters.printsWithoutNbbo).toBe(1);
    // The flow module reads the same prints, and says how old the feed's data is (one rule).
    h.wall.ms = clock.ms;
    const flow = await h.get("/v1/flow/SPY");
    expect(flow.status).toBe(200);
    const fb = (await flow.json()) as { data: { trades: Array<{ price: number }> }; meta: Record<string, unknown> };
    expect(fb.data.trades.map((t) => t.price).sort()).toEqual([0.02, 2.5, 3.2]);
    expect(fb.meta).toMatchObject({ asOf: "2025-12-03T15:00:00Z", stale: false });
  });

  it("builds minute bars from the aggregates", async () => {
    const m = Date.parse("2025-12-03T14:59:00Z");
    fake.send("stocks", [{ ev: "AM", sym: "SPY", v: 1000, av: 5000, op: 648, vw: 649.5, o: 649, c: 650, h: 650.5, l: 648.5, a: 649.5, z: 10, s: m, e: m + 60_000 }]);
    await until(() => feed.status().counters.bars >= 1, "a bar");
    const bars = await feed.market.minuteBars("SPY", m, m + 60_000);
    expect(Array.from(bars.c)).toEqual([650]);
    expect(Array.from(bars.uv)).toEqual([1000]); // no aggressor split from aggregates: unclassified
  });

  it("counts and logs a malformed message, and keeps reading the next ones", async () => {
    const before = feed.status().counters.malformed;
    fake.sendRaw("options", "{not json");
    fake.send("options", [
      { ev: "T", sym: "O:SPY251205C00640000", p: "x" },
      { ev: "Q", sym: fixture()[0].ticker, bp: 3.0, ap: 3.1, t: START_MS + 2000 },
    ]);
    await until(() => feed.status().counters.malformed >= before + 2, "malformed counted");
    await until(() => feed.status().counters.quotes >= 2, "the valid quote after them");
    expect(logs.some((l) => l.msg === "feed_malformed_message")).toBe(true);
  });

  it("waits out a 429 (Retry-After) and still takes the minute's board", async () => {
    clock.ms = START_MS + 60_000;
    fake.rateLimitNext(2, 0);
    const before = feed.status().counters.rest429;
    await feed.pollNow();
    expect(feed.status().counters.rest429 - before).toBe(2);
    expect(feed.market.boardCount("SPY")).toBe(2);
    expect((await feed.market.chain("SPY", clock.ms))?.asOfMs).toBe(Date.parse("2025-12-03T15:01:00Z"));
  });

  it("a slow feed: a late snapshot still lands as its own minute's board; a start whose snapshot times out is refused", async () => {
    fake.delayMs = 300;
    clock.ms = START_MS + 120_000;
    const slow = createMassiveFeed({
      apiKey: KEY,
      symbols: ["SPY"],
      restBaseUrl: fake.restUrl,
      wsBaseUrl: fake.wsUrl,
      clock,
      pollIntervalMs: 3_600_000,
      rest: { pageLimit: 250, backoffMs: 5, maxAttempts: 1, timeoutMs: 100 },
    });
    // A start whose first snapshot times out cannot serve: a clear error, not a half-started feed.
    await expect(slow.start()).rejects.toMatchObject({ code: "unreachable" });
    await feed.pollNow().then(() => undefined);
    fake.delayMs = 0;
    // The shared feed's poll waited (its limit is 2 s): the board arrived late, for its own minute.
    expect((await feed.market.chain("SPY", clock.ms))?.asOfMs).toBe(Date.parse("2025-12-03T15:02:00Z"));
  });

  it("during an outage: degraded, then down after 3 failed polls; live reads past the limit are 503 data_unavailable, refunded", async () => {
    fake.outage = true;
    for (let i = 0; i < 3; i++) {
      clock.ms += 60_000;
      await feed.pollNow();
    }
    const status = feed.status();
    expect(status.state).toBe("down");
    expect(status.gaps.some((g) => g.kind === "boards" && g.source === "SPY")).toBe(true);
    // Within the limit the last board is served, flagged by its age.
    const within = await h.get("/v1/heatmap?symbols=SPY&metric=gamma");
    expect(within.status).toBe(200);
    expect(((await within.json()) as { meta: { stale: boolean; ageS: number } }).meta).toMatchObject({ stale: false });
    clock.ms += 25 * 60_000;
    h.wall.ms = clock.ms;
    const balance = await h.accounts.balance(h.accountId);
    const res = await h.get("/v1/heatmap?symbols=SPY&metric=gamma");
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("data_unavailable");
    expect(res.headers.get("retry-after")).not.toBeNull();
    expect(await h.accounts.balance(h.accountId)).toBe(balance);
    const st = await h.get("/v1/status/feed", { key: null });
    expect(st.status).toBe(200);
    const body = (await st.json()) as { data: { state: string; lagS: number; parts: Array<{ name: string; lastError: string | null }> } };
    expect(body.data.state).toBe("down");
    expect(body.data.lagS).toBeGreaterThan(20 * 60);
    expect(body.data.parts.find((p) => p.name === "snapshots")?.lastError).toMatch(/503/);
    expect(JSON.stringify(body)).not.toContain(KEY);
    fake.outage = false;
    await feed.pollNow();
    expect(feed.status().state).not.toBe("down");
    expect((await h.get("/v1/heatmap?symbols=SPY&metric=gamma")).status).toBe(200);
  });

  it("reconnects after the sockets drop, resubscribes, backfills the bars it missed and records the trades gap", async () => {
    // The minute before now: the one the dropped stream would have sent.
    const m = Math.floor(clock.ms / 60_000) * 60_000 - 60_000;
    fake.aggs.set("SPY", [{ t: m, o: 650, h: 651, l: 649.5, c: 650.5, v: 800 }]);
    const subsBefore = fake.subscriptions.get("options")!.size;
    fake.subscriptions.get("options")!.clear();
    fake.dropSockets();
    await until(() => fake.peers("options") === 1 && fake.peers("stocks") === 1, "both sockets back");
    await until(() => (fake.subscriptions.get("options")?.size ?? 0) >= subsBefore, "resubscribed");
    await until(() => feed.status().counters.barsBackfilled >= 1, "bars backfilled");
    const bars = await feed.market.minuteBars("SPY", m, m + 60_000);
    expect(Array.from(bars.c)).toEqual([650.5]);
    const trades = feed.status().gaps.filter((g) => g.kind === "trades");
    expect(trades).toHaveLength(1);
    expect(feed.status().parts.find((p) => p.name === "options")?.reconnects).toBeGreaterThanOrEqual(1);
  });

  it("serves SPXW from the I:SPX snapshot (SPX contracts left out) with the index's bars from the indices cluster", async () => {
    const spx = (root: string, cp: "C" | "P", strike: number) => ({
      ticker: `O:${root}251205${cp}${String(strike * 1000).padStart(8, "0")}`,
      type: cp === "C" ? ("call" as const) : ("put" as const),
      expiration: "2025-12-05",
      strike,
      iv: 0.15,
      oi: 500,
      bid: 10,
      ask: 10.5,
    });
    fake.chains.set("I:SPX", [spx("SPXW", "C", 6800), spx("SPXW", "P", 6800), spx("SPX", "C", 6800)]);
    fake.prices.set("I:SPX", 6810);
    const index = createMassiveFeed({
      apiKey: KEY,
      symbols: ["SPXW"],
      restBaseUrl: fake.restUrl,
      wsBaseUrl: fake.wsUrl,
      clock,
      pollIntervalMs: 3_600_000,
      snapshotWorker: false,
    });
    try {
      await index.start();
      expect(fake.requests).toContain("/v3/snapshot/options/I%3ASPX");
      const board = (await index.market.chain("SPXW", clock.ms))!;
      expect(board).toMatchObject({ symbol: "SPXW", underlying: "SPX", spot: 6810, expiryRoot: ["SPXW"] });
      expect(board.right.length).toBe(2);
      await until(() => fake.subscriptions.get("indices")?.has("AM.I:SPX") === true, "the index aggregates");
      const m = Math.floor(clock.ms / 60_000) * 60_000 - 60_000;
      fake.send("indices", [{ ev: "AM", sym: "I:SPX", o: 6805, h: 6812, l: 6801, c: 6811, v: 0, s: m, e: m + 60_000 }]);
      await until(async () => (await index.market.minuteBars("SPX", m, m + 60_000)).c[0] === 6811, "the SPX bar");
      // The bar that completed at the board's minute is as recent as the board: its close is the last price.
      expect(await index.market.spot("SPXW", clock.ms)).toBe(6811);
    } finally {
      await index.stop();
    }
  });

  it("refuses a bad key, an unknown underlying and one the vendor does not list, each with a clear error", async () => {
    const base = { restBaseUrl: fake.restUrl, wsBaseUrl: fake.wsUrl, clock, pollIntervalMs: 3_600_000, rest: { backoffMs: 5, maxAttempts: 1 } };
    await expect(createMassiveFeed({ ...base, apiKey: "wrong", symbols: ["SPY"] }).start()).rejects.toMatchObject({ code: "bad_key" });
    expect(() => createMassiveFeed({ ...base, apiKey: KEY, symbols: ["NOPE"] })).toThrow(FeedError);
    expect(() => createMassiveFeed({ ...base, apiKey: KEY, symbols: ["NOPE"] })).toThrow(/Unknown underlying NOPE/);
    await expect(createMassiveFeed({ ...base, apiKey: KEY, symbols: ["QQQ"] }).start()).rejects.toMatchObject({ code: "unknown_underlying" });
  });
});
