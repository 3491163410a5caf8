// Issue 37: the flow feed's context fields (docs/methodology.md#flow-feed-context-fields) on
// hand-built trades: delta against a central finite difference of the Black-Scholes price, the
// delta notional, size against OI, IV change and the DTE parts by hand, and the clusters of a
// sweep and of a multi-leg package.
import { describe, expect, it } from "vitest";
import { scoreFlow } from "../../lib/flow/flow-score";
import { feedTradeExtras, FeedTradeExtrasSchema, packageCluster, sweepCluster, tradeRvol } from "../../lib/flow/feed-extras";
import { detectMultiLeg } from "../../lib/flow/multi-leg";
import { FLOW_SCORE_WEIGHTS } from "../../lib/flow/params";
import { groupSweeps } from "../../lib/flow/sweeps";
import { bsmPrice } from "../../lib/math";
import { OPEN_MS, print } from "./_prints";

const RATES = { rate: 0.053, dividendYield: 0.013 };
/** SPY's 2024-03-22 expiration settles at 16:00 ET (20:00Z, EDT). */
const SETTLE_MS = Date.UTC(2024, 2, 22, 20, 0);

describe("feed context fields", () => {
  const prints = [
    print({ tsMs: OPEN_MS + 5_000, size: 40, iv: 0.2 }),
    print({ tsMs: OPEN_MS + 65_000, size: 10, iv: 0.22 }),
    print({ tsMs: OPEN_MS + 70_000, right: "P", strike: 490, price: 2.0, nbboBid: 1.9, nbboAsk: 2.0, size: 5, iv: null }),
  ];
  const scored = scoreFlow(prints, { normPremiumUsd: 1_000, openInterest: new Map([[prints[0].symbol, 200]]) });

  it("delta equals the finite difference of the price; notional, size/OI, IV change, DTE parts by hand", () => {
    const t = scored[1];
    const x = feedTradeExtras(t, { rates: RATES, weights: FLOW_SCORE_WEIGHTS, prevIv: 0.2 });
    const tYears = (SETTLE_MS - t.tsMs) / (365 * 86_400_000);
    const price = (spot: number) => bsmPrice({ spot, strike: 510, tYears, vol: 0.22, ...RATES, right: "C" });
    const h = 1e-3;
    expect(x.delta).toBeCloseTo((price(500 + h) - price(500 - h)) / (2 * h), 7);
    expect(x.notionalDeltaExposure).toBeCloseTo(x.delta! * 10 * 100 * 500, 6);
    // 10 contracts against OI 200: 5%.
    expect(x.sizeOiScore).toBe(5);
    // 0.22 after 0.20: +10%.
    expect(x.ivChangePct).toBeCloseTo(10, 10);
    // WEEKLY (7 DTE): factor 0.85; it adds 0.75 x 0.10 x 0.85 to the conviction multiplier.
    expect(x.dteFactor).toBe(0.85);
    expect(x.dteMultiplier).toBeCloseTo(0.75 * 0.1 * 0.85, 12);
    expect(FeedTradeExtrasSchema.parse(x)).toEqual(x);
  });

  it("no IV: no delta, no IV change; unknown OI scores 0, OI known to be 0 scores 100; no board: no delta", () => {
    const put = feedTradeExtras(scored[2], { rates: RATES, weights: FLOW_SCORE_WEIGHTS, prevIv: 0.3 });
    expect([put.delta, put.notionalDeltaExposure, put.ivChangePct, put.sizeOiScore]).toEqual([null, null, null, 0]);
    const zeroOi = feedTradeExtras({ ...scored[0], openInterest: 0 }, { rates: null, weights: FLOW_SCORE_WEIGHTS, prevIv: null });
    expect([zeroOi.delta, zeroOi.sizeOiScore, zeroOi.ivChangePct]).toEqual([null, 100, null]);
    // A put's delta is negative, and so is its notional.
    const putWithIv = feedTradeExtras({ ...scored[2], iv: 0.25 }, { rates: RATES, weights: FLOW_SCORE_WEIGHTS, prevIv: null });
    expect(putWithIv.delta).toBeLessThan(0);
    expect(putWithIv.notionalDeltaExposure).toBeLessThan(0);
  });

  it("clusters: a sweep's fills and a package's legs, with their premium and time span", () => {
    const sweep = [
      print({ tsMs: OPEN_MS + 1_000, exchange: "CBOE", price: 1.05, size: 10 }),
      print({ tsMs: OPEN_MS + 1_002, exchange: "PHLX", price: 1.06, nbboAsk: 1.06, size: 30 }),
    ];
    const [g] = groupSweeps(sweep).groups;
    expect(sweepCluster("2024-03-15", "SPY", g)).toEqual({
      clusterId: "sw_2024-03-15_SPY_0",
      clusterTradeCount: 2,
      clusterTotalPremium: 1050 + 3180,
      clusterTimeSpanSeconds: 0,
    });
    const legs = [
      print({ tsMs: OPEN_MS + 2_000, conditions: ["MLET"], strike: 500, size: 5, price: 2 }),
      print({ tsMs: OPEN_MS + 2_000, conditions: ["MLET"], strike: 520, size: 5, price: 1 }),
    ];
    const { packages } = detectMultiLeg(legs);
    expect(packages).toHaveLength(1);
    expect(packageCluster("2024-03-15", "SPY", packages[0], OPEN_MS + 3_500)).toEqual({
      clusterId: "ml_2024-03-15_SPY_0",
      clusterTradeCount: 2,
      clusterTotalPremium: 1000 + 500,
      clusterTimeSpanSeconds: 1,
    });
    const withCluster = feedTradeExtras(scored[0], { rates: RATES, weights: FLOW_SCORE_WEIGHTS, prevIv: null, cluster: sweepCluster("2024-03-15", "SPY", g) });
    expect(withCluster.cluster?.clusterTradeCount).toBe(2);
  });

  it("RVOL (docs/methodology.md#flow-feed-rvol): volume so far over the baseline mean, its score and category floors by hand", () => {
    expect(tradeRvol(600, 200)).toEqual({ rvol: 3, rvolScore: 60, rvolCategory: "HIGH" });
    // Each category from its floor: 0.5 NORMAL, 2 HIGH, 5 EXTREME (score saturates at 5).
    expect(tradeRvol(49, 100)).toEqual({ rvol: 0.49, rvolScore: 10, rvolCategory: "LOW" });
    expect(tradeRvol(50, 100)).toEqual({ rvol: 0.5, rvolScore: 10, rvolCategory: "NORMAL" });
    expect(tradeRvol(199, 100).rvolCategory).toBe("NORMAL");
    expect(tradeRvol(200, 100)).toEqual({ rvol: 2, rvolScore: 40, rvolCategory: "HIGH" });
    expect(tradeRvol(500, 100)).toEqual({ rvol: 5, rvolScore: 100, rvolCategory: "EXTREME" });
    expect(tradeRvol(5000, 100)).toEqual({ rvol: 50, rvolScore: 100, rvolCategory: "EXTREME" });
    // No baseline (not stored, or the contract did not trade in it): no RVOL, never a stand-in.
    for (const avg of [null, undefined, 0]) expect(tradeRvol(10, avg)).toEqual({ rvol: null, rvolScore: 0, rvolCategory: null });
    // In the extras: from the trade's dailyVolume (10 + 40 after its contract's earlier print).
    const x = feedTradeExtras(scored[1], { rates: RATES, weights: FLOW_SCORE_WEIGHTS, prevIv: null, avgVolume: 25 });
    expect([x.rvol, x.rvolScore, x.rvolCategory]).toEqual([scored[1].dailyVolume / 25, Math.round((100 * scored[1].dailyVolume) / 25 / 5), "HIGH"]);
    expect(FeedTradeExtrasSchema.parse(x)).toEqual(x);
  });
});
