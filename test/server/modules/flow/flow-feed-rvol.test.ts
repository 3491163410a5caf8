// The flow feed's RVOL (`rvol`, `rvolScore`, `rvolCategory`, `min_rvol`) reads a baseline kept in
// the daily store (kind `contract-volume`): null before the store holds it, then each contract's
// mean daily volume over the 10 sessions before, checked against the raw prints of those sessions.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEED_RVOL_PARAMS } from "../../../../lib/flow/feed-extras";
import { sessionBounds } from "../../../../lib/time";
import { dailyDbPath, marketIdentity, openDailyStore, type DailyDataStore } from "../../../../server/daily-store";
import { dailyProducer } from "../../../../server/daily-store/compute";
import { createComputePool } from "../../../../server/daily-store/compute-pool";
import { CONTRACT_VOLUME, FLOW_SUMMARY } from "../../../../server/daily-store/kinds";
import { runFill } from "../../../../server/daily-store/run-fill";
import { sessionsBefore } from "../../../../server/modules/flow/sessions/market-scan";
import { tempDir } from "../../daily-store/_store-fixtures";
import { body, flowHarness, NOW_MS, simMarket, TODAY } from "./_flow-harness";
import { sleep } from "../../streams/_sse";

/** A light ticker: ten of its sessions fill in seconds. */
const TICKER = "LMT";
const t = tempDir();
let store: DailyDataStore;
const FEED = `/v1/flow/${TICKER}?limit=500&timeframe=1d`;
const BASELINE = sessionsBefore(TODAY, FEED_RVOL_PARAMS.baselineSessions);

beforeAll(() => {
  store = openDailyStore(dailyDbPath(t.dir), marketIdentity({ kind: "simulated", seed: 7 }));
});
afterAll(() => {
  store.close();
  t.remove();
});

/** A contract as `expiration|C or P|strike`. */
const contractOf = (expiry: string, right: string, strike: number) => `${expiry}|${right}|${strike}`;

/**
 * The mean daily volume of every contract over the baseline sessions, from the raw prints of each
 * regular session (a session without prints counts 0).
 */
async function rawBaseline(): Promise<Map<string, number>> {
  const sum = new Map<string, number>();
  for (const d of BASELINE) {
    const { openMs, closeMs } = sessionBounds(d);
    for (const p of await simMarket.optionPrints(TICKER, openMs, closeMs)) {
      const k = contractOf(p.expiry, p.right, p.strike);
      sum.set(k, (sum.get(k) ?? 0) + p.size);
    }
  }
  return new Map([...sum].map(([k, v]) => [k, v / BASELINE.length]));
}

describe("flow feed RVOL from the daily store", () => {
  it("before the baseline is stored: rvol null, score 0, no category; min_rvol keeps no trade", async () => {
    const h = flowHarness({ universe: [TICKER], dailyStore: store });
    const feed = await body(await h.get(FEED));
    expect(feed.data.trades.length).toBeGreaterThan(0);
    for (const tr of feed.data.trades) expect([tr.rvol, tr.rvolScore, tr.rvolCategory]).toEqual([null, 0, null]);
    const filtered = await body(await h.get(`${FEED}&min_rvol=0`));
    expect(filtered.data.trades).toEqual([]);
    expect(filtered.data.tradeCount).toBe(0);
    await h.app.shutdown(100);
  });

  it("once the fill stored the ten sessions' volumes: rvol = dailyVolume / mean daily volume of the raw prints", async () => {
    expect(BASELINE).toHaveLength(10);
    // The background fill's pass over the ten sessions: each summary and its contract volumes.
    await runFill({
      store,
      produce: dailyProducer(simMarket, store),
      scope: { flowTickers: [TICKER], volSymbols: [], volSessions: 0, flowFrom: BASELINE[0], flowSessions: 10 },
      nowMs: NOW_MS,
    });
    expect([...store.range(CONTRACT_VOLUME, TICKER, BASELINE[0], BASELINE[9]).keys()].sort()).toEqual(BASELINE);
    expect(store.count(CONTRACT_VOLUME)).toBe(store.count(FLOW_SUMMARY));

    const h = flowHarness({ universe: [TICKER], dailyStore: store });
    const feed = await body(await h.get(FEED));
    const avg = await rawBaseline();
    let withRvol = 0;
    for (const tr of feed.data.trades) {
      const symbol = contractOf(tr.expiration, tr.optionType === "CALL" ? "C" : "P", tr.strike);
      const mean = avg.get(symbol) ?? 0;
      if (mean === 0) {
        // A contract that did not trade in the baseline has no RVOL.
        expect([tr.rvol, tr.rvolScore, tr.rvolCategory], symbol).toEqual([null, 0, null]);
        continue;
      }
      withRvol++;
      expect(tr.rvol, symbol).toBeCloseTo(tr.dailyVolume / mean, 10);
      expect(tr.rvolScore).toBe(Math.round(100 * Math.min(1, tr.rvol / 5)));
      const expected = tr.rvol >= 5 ? "EXTREME" : tr.rvol >= 2 ? "HIGH" : tr.rvol >= 0.5 ? "NORMAL" : "LOW";
      expect(tr.rvolCategory).toBe(expected);
    }
    expect(withRvol).toBeGreaterThan(0);

    // min_rvol keeps exactly the trades at or above it, and the window's counts follow.
    const floor = 1;
    const kept = feed.data.trades.filter((tr: any) => tr.rvol !== null && tr.rvol >= floor);
    // The floor splits this page: some trades kept, some left out.
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(feed.data.trades.length);
    const filtered = await body(await h.get(`${FEED}&min_rvol=${floor}`));
    expect(filtered.data.trades.map((tr: any) => tr.tradeId)).toEqual(kept.map((tr: any) => tr.tradeId));
    expect(filtered.data.tradeCount).toBe(kept.length);
    // Refused bounds name the parameter, uncharged.
    const bad = await h.get(`${FEED}&min_rvol=-1`);
    expect(bad.status).toBe(400);
    expect((await body(bad)).error.message).toContain("min_rvol");
    await h.app.shutdown(100);
  }, 120_000);

  it("with a compute pool, a missing baseline is computed in a worker and stored: a later call serves it", async () => {
    const t2 = tempDir();
    const store2 = openDailyStore(dailyDbPath(t2.dir), marketIdentity({ kind: "simulated", seed: 7 }));
    const pool = createComputePool({ source: { kind: "simulated", seed: 7 } }, 1);
    try {
      const h = flowHarness({ universe: [TICKER], dailyStore: store2, computePool: pool });
      const first = await body(await h.get(FEED));
      expect(first.data.trades.every((tr: any) => tr.rvol === null)).toBe(true);
      // The request did not wait for them: the worker stores the ten sessions' rows meanwhile.
      const stored = () => store2.range(CONTRACT_VOLUME, TICKER, BASELINE[0], BASELINE[9]);
      for (let waited = 0; stored().size < BASELINE.length; waited += 100) {
        if (waited > 100_000) throw new Error(`${stored().size} of ${BASELINE.length} sessions stored`);
        await sleep(100);
      }
      expect(pool.stats().completed).toBeGreaterThanOrEqual(BASELINE.length);
      // The worker's rows equal the fill's (the previous test filled `store`).
      expect(stored()).toEqual(store.range(CONTRACT_VOLUME, TICKER, BASELINE[0], BASELINE[9]));
      await h.app.shutdown(100);
      // A later call (a new app on the same store) serves RVOL from them.
      const later = flowHarness({ universe: [TICKER], dailyStore: store2 });
      const feed = await body(await later.get(FEED));
      expect(feed.data.trades.some((tr: any) => tr.rvol !== null)).toBe(true);
      await later.app.shutdown(100);
    } finally {
      await pool.close();
      store2.close();
      t2.remove();
    }
  }, 150_000);
});
