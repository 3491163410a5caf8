// Vol/OI analysis and the moneyness breakdown against hand-computed cases.
import { describe, expect, it } from "vitest";
import { moneynessBreakdown, MoneynessBreakdownSchema, type MoneynessTrade } from "../../lib/flow/moneyness-breakdown";
import { volOiAnalysis, volOiBand, volOiSignal, VolOiResultSchema } from "../../lib/flow/vol-oi";

describe("vol/OI", () => {
  it("bands and signal thresholds", () => {
    expect([12, 10, 7, 5, 4, 3, 2.9, -20].map(volOiBand)).toEqual(["otm10plus", "otm10plus", "otm510", "otm510", "otm35", "otm35", "atmItm", "atmItm"]);
    expect(volOiSignal(1, 10)).toBe("strong_accumulation");
    expect(volOiSignal(0.5, 10)).toBe("accumulation");
    expect(volOiSignal(0.2, 10)).toBe("mixed");
    expect(volOiSignal(0.05, 10)).toBe("distribution");
    expect(volOiSignal(0.049, 10)).toBe("low_activity");
    expect(volOiSignal(5, 0)).toBe("low_activity");
  });

  it("by hand: sums per type and band, overall ratio, score and opening share", () => {
    const r = volOiAnalysis(
      [
        { right: "C", strike: 115, volume: 300, oi: 100 }, // 15% OTM
        { right: "C", strike: 100, volume: 100, oi: 400 }, // ATM
        { right: "P", strike: 96, volume: 100, oi: 500 }, // 4% OTM
        { right: "P", strike: 90, volume: 0, oi: 0 }, // 10% OTM, nothing
      ],
      100,
      {},
    );
    expect(r.volOiAnalysis.calls).toEqual({
      totalVolume: 400,
      totalOi: 500,
      volOiRatio: 0.8,
      signal: "accumulation",
      byMoneyness: {
        otm10plus: { volume: 300, oi: 100, ratio: 3 },
        otm510: { volume: 0, oi: 0, ratio: 0 },
        otm35: { volume: 0, oi: 0, ratio: 0 },
        atmItm: { volume: 100, oi: 400, ratio: 0.25 },
      },
    });
    expect(r.volOiAnalysis.puts.totalVolume).toBe(100);
    expect(r.volOiAnalysis.puts.byMoneyness.otm35).toEqual({ volume: 100, oi: 500, ratio: 0.2 });
    expect(r.volOiAnalysis.puts.signal).toBe("mixed");
    // R = 500 / 1000 = 0.5; OTM share (300 + 100) / 500 = 0.8 -> 70 * 0.5 + 30 * 0.8 = 59
    expect(r.accumulationScore).toBe(59);
    // excess: 200 of 500 volume -> 40%
    expect(r.newPositionEstimatePct).toBe(40);
    expect(r.signal).toBe("accumulation");
    expect(VolOiResultSchema.parse(r)).toEqual(r);
  });

  it("filters drop contracts everywhere; no volume scores 0", () => {
    const cs = [
      { right: "C" as const, strike: 115, volume: 300, oi: 100 },
      { right: "P" as const, strike: 96, volume: 100, oi: 500 },
    ];
    const calls = volOiAnalysis(cs, 100, { optionType: "call" });
    expect(calls.volOiAnalysis.puts.totalOi).toBe(0);
    expect(calls.newPositionEstimatePct).toBe(67);
    expect(volOiAnalysis(cs, 100, { minOi: 200 }).volOiAnalysis.calls.totalVolume).toBe(0);
    expect(volOiAnalysis(cs, 100, { band: "otm35" }).volOiAnalysis.calls.totalVolume).toBe(0);
    const none = volOiAnalysis([], 100, {});
    expect(none).toMatchObject({ accumulationScore: 0, newPositionEstimatePct: 0, signal: "low_activity" });
  });
});

const t = (right: "C" | "P", aggression: number, premiumUsd: number, moneyness: MoneynessTrade["moneyness"]): MoneynessTrade => ({
  right,
  aggression,
  premiumUsd,
  moneyness,
});

describe("moneyness breakdown", () => {
  it("by hand: cells, shares, weights, patterns, focus, strategy and signal", () => {
    const r = moneynessBreakdown([
      t("C", 1, 5000, "OTM"), // bullish
      t("C", 1, 1000, "DEEP_OTM"), // bullish
      t("C", -1, 1000, "OTM"), // bearish (call sold)
      t("P", 1, 2000, "ATM"), // bearish
      t("P", 0, 1000, "ITM"), // neutral
    ]);
    const c = r.moneynessBreakdown.calls;
    expect(c.otm).toEqual({ premium: 6000, sentiment: 67, pctOfTotal: 60, tradeCount: 2, weightedPremium: 7500 });
    expect(c.deepOtm).toEqual({ premium: 1000, sentiment: 100, pctOfTotal: 10, tradeCount: 1, weightedPremium: 1500 });
    expect(c.totalPremium).toBe(7000);
    expect(c.totalTrades).toBe(3);
    expect(r.moneynessBreakdown.puts.atm).toEqual({ premium: 2000, sentiment: -100, pctOfTotal: 20, tradeCount: 1, weightedPremium: 2000 });
    // OTM calls 70% net +5000/7000 -> 71; deep OTM calls 10% at +100; calls 7000 >= 2 x 3000.
    expect(r.notablePatterns.map((p) => p.pattern)).toEqual(["otm_call_accumulation", "lottery_ticket_calls", "heavy_call_skew"]);
    expect(r.notablePatterns[0]).toMatchObject({ significance: "high", metrics: { premium: 7000, pctOfTotal: 70, sentiment: 71 } });
    expect(r.notablePatterns[1].significance).toBe("low");
    // net = 6000 - 1000 - 2000 = 3000 of 10000 -> 30: moderately bullish; CB 6000 of 9000 directional, all OTM.
    expect(r.interpretation).toEqual({ convictionFocus: "otm_calls", dominantStrategy: "speculative_bullish", signal: "moderately_bullish" });
    expect(MoneynessBreakdownSchema.parse(r)).toEqual(r);
  });

  it("puts bought in the money: directional bearish; sold puts: put selling; nothing: no activity", () => {
    const bear = moneynessBreakdown([t("P", 1, 4000, "ITM"), t("C", 1, 1000, "ATM")]);
    expect(bear.interpretation).toEqual({ convictionFocus: "distributed", dominantStrategy: "directional_bearish", signal: "bearish" }); // net -3000 of 5000 = -60
    expect(bear.notablePatterns.map((p) => p.pattern)).toEqual(["heavy_put_skew"]);
    expect(moneynessBreakdown([t("P", -1, 100, "OTM")]).interpretation).toEqual({ convictionFocus: "otm_puts", dominantStrategy: "put_selling", signal: "bullish" });
    expect(moneynessBreakdown([]).interpretation).toEqual({ convictionFocus: "none", dominantStrategy: "no_activity", signal: "neutral" });
    expect(moneynessBreakdown([t("C", 1, 100, "ATM"), t("C", -1, 100, "ATM"), t("P", 1, 100, "ATM")]).interpretation.dominantStrategy).toBe("mixed");
  });
});
