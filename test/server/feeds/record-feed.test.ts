// A live feed recorded into the store of record (server/recording) and, after a restart, its past
// answered from that store: the new feed's market serves the recorded board of a minute it never
// saw, identical to the board the first feed served; a minute whose board never came has none.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainRows } from "../../../lib/market/chain-rows";
import { createMassiveFeed, type MassiveFeed } from "../../../server/feeds/massive/massive-feed";
import { RECORD_LAG_MS, recordFeed } from "../../../server/feeds/record-feed";
import { openRecordedMarket } from "../../../server/recording/recorded-market";
import { startFakeMassive, type FakeMassive } from "./_fake-massive";
import { fixture, KEY, SPOT, START_MS } from "./_massive-fixture";

const M0 = Date.parse("2025-12-03T15:00:00Z");
const MIN = 60_000;

describe("recording a live feed, and its past after a restart", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "optionscope-feed-rec-"));
  const clock = { ms: START_MS, now: () => clock.ms };
  let fake: FakeMassive;
  const feeds: MassiveFeed[] = [];
  const feedAt = async () => {
    const history = openRecordedMarket(dataDir, { clock });
    const feed = createMassiveFeed({
      apiKey: KEY,
      symbols: ["SPY"],
      restBaseUrl: fake.restUrl,
      wsBaseUrl: fake.wsUrl,
      clock,
      history,
      pollIntervalMs: 3_600_000,
      rest: { backoffMs: 5, maxAttempts: 2 },
    });
    feeds.push(feed);
    await feed.start();
    return feed;
  };

  beforeAll(async () => {
    fake = await startFakeMassive(KEY, () => clock.ms * 1e6);
    fake.chains.set("SPY", fixture());
    fake.prices.set("SPY", SPOT);
  });
  afterAll(async () => {
    for (const f of feeds) await f.stop();
    await fake?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("records the feed's boards minute by minute and serves them from the store after a restart", async () => {
    const first = await feedAt(); // board of 15:00
    const recording = await recordFeed(first.market, { dataDir, underlyings: ["SPY"], log: () => {} });
    // 15:01: the snapshot fails (an outage): that minute has no board, recorded as such.
    fake.outage = true;
    clock.ms = M0 + MIN + 1000;
    await first.pollNow();
    fake.outage = false;
    // 15:02 with a changed chain, so the replayed boards are told apart.
    fake.chains.set(
      "SPY",
      fixture().map((c) => ({ ...c, oi: c.oi + 1 })),
    );
    clock.ms = M0 + 2 * MIN + 1000;
    await first.pollNow();
    // The recorder runs RECORD_LAG_MS behind: it has the 15:02 board once the clock passes 15:03:30.
    clock.ms = M0 + 2 * MIN + RECORD_LAG_MS;
    await recording.catchUp();
    expect(recording.lastRecordedMs("SPY")).toBe(M0 + 2 * MIN);
    const served0 = (await first.market.chain("SPY", M0))!;
    const served2 = (await first.market.chain("SPY", M0 + 2 * MIN))!;
    await recording.stop();
    await first.stop();

    // A restart at 15:10: the new feed holds only its own 15:10 board; the past comes from the store.
    clock.ms = M0 + 10 * MIN + 1000;
    const second = await feedAt();
    const replayed0 = await second.market.chain("SPY", M0 + 30_000);
    const replayed1 = await second.market.chain("SPY", M0 + MIN + 30_000);
    const replayed2 = await second.market.chain("SPY", M0 + 2 * MIN + 30_000);
    expect(replayed0?.asOfMs).toBe(M0);
    expect(chainRows(replayed0!)).toEqual(chainRows(served0));
    // 15:01 had no board: the store answers the board before it (15:00), never a filled-in one.
    expect(replayed1?.asOfMs).toBe(M0);
    expect(replayed2?.asOfMs).toBe(M0 + 2 * MIN);
    expect(chainRows(replayed2!)).toEqual(chainRows(served2));
    expect((await second.market.chain("SPY", clock.ms))?.asOfMs).toBe(M0 + 10 * MIN);
  });
});
