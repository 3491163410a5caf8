// Multi-timeframe aggregate: sums, decay, merging, the timeframe record, trend and moneyness split
// against hand-computed cases.
import { describe, expect, it } from "vitest";
import { flowSums, mergeSums, moneynessAggregates, timeframeAggregate, TimeframeAggregateSchema, trendAnalysis, type SumTrade } from "../../lib/flow/timeframe-aggregate";
import { aggregateCost } from "../../lib/api/flow-feed";

const t = (right: "C" | "P", aggression: number, premiumUsd: number, flowScore: number, isSweep = false, tsMs = 0): SumTrade => ({
  right,
  aggression,
  premiumUsd,
  flowScore,
  isSweep,
  tsMs,
});

describe("timeframe aggregate", () => {
  it("by hand: VWF, SDF, FIR, integer composite, labels, confidence and alignment", () => {
    const trades = [
      t("C", 1, 6000, 80, true), // bullish sweep
      t("P", 1, 2000, -50, true), // bearish sweep (put bought)
      t("C", 0, 2000, 0), // neutral
    ];
    const s = flowSums(trades);
    // VWF = (6000*80 - 2000*50) / 10000 = 38; SDF = 100 * (6000 - 2000) / 8000 = 50; FIR = 50.
    const a = timeframeAggregate(s, { breakdown: true });
    expect(a.components).toEqual({ vwf: 38, sdf: 50, fir: 50, bullishPremium: 6000, bearishPremium: 2000, sweepPremium: 8000 });
    // composite 0.4*38 + 0.35*50 + 0.25*50 = 45.2 -> 45
    expect(a.composite).toBe(45);
    expect(a.direction).toBe("bullish");
    expect(a.signalStrength).toBe("weak"); // 3 trades < 100
    expect(a.confidence).toBeCloseTo((3 / 100) * (6000 / 8000), 12);
    expect(a.sweepAlignment).toBe(true);
    expect(a.avgFlowScore).toBeCloseTo(10, 12);
    expect(a.tradeCount).toBe(3);
    expect(a.sweepCount).toBe(2);
    expect(a.totalPremium).toBe(10000);
    expect(a.timeDecayApplied).toBeUndefined();
    expect(TimeframeAggregateSchema.parse(a)).toEqual(a);
    expect(timeframeAggregate(s, { breakdown: false }).components).toBeUndefined();
  });

  it("empty sums score 0 and are neutral; a lone sweep without VWF is not aligned", () => {
    const a = timeframeAggregate(flowSums([]), { breakdown: true });
    expect(a).toMatchObject({ composite: 0, direction: "neutral", signalStrength: "neutral", confidence: 0, sweepAlignment: false, avgFlowScore: 0 });
    expect(timeframeAggregate(flowSums([t("C", 1, 100, 0, true)]), { breakdown: false }).sweepAlignment).toBe(false);
  });

  it("decay halves a trade's weight per half-life; merging scales decayed parts only", () => {
    const hl = 30 * 60_000;
    const trades = [t("C", 1, 1000, 100, false, 0), t("P", 1, 1000, -100, false, hl)];
    const s = flowSums(trades, { refMs: hl, halfLifeMs: hl });
    // weights 0.5 (older) and 1: VWF = (500*100 - 1000*100) / 1500 = -33.33..
    expect(s.bullishPremium).toBeCloseTo(500, 9);
    expect(s.bearishPremium).toBeCloseTo(1000, 9);
    expect(s.totalPremium).toBe(2000);
    expect(timeframeAggregate(s, { breakdown: true, decayed: true }).components!.vwf).toBeCloseTo(-100 / 3, 9);
    const m = mergeSums([s, flowSums([t("C", -1, 400, 0)])], [0.25, 1]);
    expect(m.tradeCount).toBe(3);
    expect(m.totalPremium).toBe(2400);
    expect(m.bullishPremium).toBeCloseTo(125, 9);
    expect(m.bearishPremium).toBeCloseTo(250 + 400, 9);
    expect(mergeSums([flowSums(trades)], undefined)).toEqual(flowSums(trades));
  });

  it("trend: stable within 20 points, divergences by sign, improving/deteriorating, momentum", () => {
    expect(trendAnalysis([10])).toMatchObject({ shortVsLong: "stable", momentum: "stable" });
    expect(trendAnalysis([25, 10])).toMatchObject({ shortVsLong: "stable", momentum: "stable" });
    expect(trendAnalysis([30, -5])).toMatchObject({ shortVsLong: "bullish_divergence", momentum: "accelerating_bullish" });
    expect(trendAnalysis([-30, 5])).toMatchObject({ shortVsLong: "bearish_divergence", momentum: "accelerating_bearish" });
    expect(trendAnalysis([60, 10, 30])).toMatchObject({ shortVsLong: "improving", momentum: "mixed" });
    expect(trendAnalysis([-10, 20, 40])).toMatchObject({ shortVsLong: "bearish_divergence", momentum: "accelerating_bearish" });
    expect(trendAnalysis([5, 40])).toMatchObject({ shortVsLong: "deteriorating", momentum: "mixed" });
    expect(trendAnalysis([5, 40]).description).toContain("-35");
  });

  it("moneyness split: every category, own composite, shares of the total", () => {
    const rows = moneynessAggregates([
      { ...t("C", 1, 3000, 50), moneyness: "OTM" },
      { ...t("C", -1, 1000, -20), moneyness: "ATM" },
    ]);
    expect(rows.map((r) => r.category)).toEqual(["DEEP_ITM", "ITM", "ATM", "OTM", "DEEP_OTM"]);
    // OTM: VWF 50, SDF 0, FIR 100 -> 20 + 25 = 45; ATM: VWF -20, FIR -100 -> -8 - 25 = -33
    expect(rows[3]).toEqual({ category: "OTM", composite: 45, tradeCount: 1, premium: 3000, pctOfTotal: 75 });
    expect(rows[2]).toEqual({ category: "ATM", composite: -33, tradeCount: 1, premium: 1000, pctOfTotal: 25 });
    expect(rows[0]).toEqual({ category: "DEEP_ITM", composite: 0, tradeCount: 0, premium: 0, pctOfTotal: 0 });
  });

  it("cost: 3 per started 30 days of summed length (1h, 4h, 1d one day each; all = 130 days = 15)", () => {
    expect(aggregateCost(["1d"])).toBe(3);
    expect(aggregateCost(["1d", "7d"])).toBe(3);
    expect(aggregateCost(["30d"])).toBe(3);
    expect(aggregateCost(["30d", "1h"])).toBe(6);
    expect(aggregateCost(["1h", "4h", "1d", "7d", "30d", "90d"])).toBe(15);
  });
});
