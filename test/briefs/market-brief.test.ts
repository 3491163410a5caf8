import { describe, expect, it } from "vitest";
import { marketBrief, MARKET_BRIEF_TOP_TICKERS } from "../../lib/briefs/market-brief";

const lv = (strike: number, value: number, nodeType: string, spot: number) => ({
  strike,
  value,
  nodeType: nodeType as "king",
  distancePct: (100 * (strike - spot)) / spot,
});

const levelsOf = (symbol: string, asOf: string, spot: number) => {
  const levels = [lv(spot + 10, 90e6, "king", spot), lv(spot - 10, -50e6, "barney", spot)];
  return {
    symbol,
    asOf,
    spot,
    kingNode: levels[0],
    levels,
    summary: {
      netExposure: 40e6,
      positiveWall: levels[0],
      negativeWall: levels[1],
      flip: null,
      zeroCrossings: [],
      zeroGamma: { method: "spot_profile" as const, level: null, distancePct: null, crossings: [], rangePct: 10, stepPct: 0.1 },
      lowStrike: spot - 10,
      highStrike: spot + 10,
    },
  };
};

const vol = {
  asOf: "2024-03-06T15:00:00.000Z",
  svx9: 12.5,
  svx30: 14,
  svx3m: 15.5,
  ratio_9d_30d: 12.5 / 14,
  ratio_30d_3m: 14 / 15.5,
  curve: "contango",
  pct_1y: { svx30: 37.4 },
};

const flow = {
  date: "2024-03-06",
  totalPremium: 3.2e9,
  callPremium: 1.8e9,
  putPremium: 1.4e9,
  netPremium: 0.4e9,
  callPutRatio: 1.8 / 1.4,
  premiumRvol: 1.25,
  topTickers: ["SPXW", "SPY", "QQQ", "NVDA", "TSLA", "AAPL", "AMZN"].map((ticker, i) => ({ ticker, totalPremium: 1e8 * (7 - i), netPremium: 1e6 * i })),
};

describe("marketBrief", () => {
  it("restates the complex, the flow and each symbol's levels, with the newest instant as asOf", () => {
    const b = marketBrief(vol, flow, [levelsOf("SPXW", "2024-03-06T15:00:00.000Z", 5100), levelsOf("QQQ", "2024-03-06T15:01:00.000Z", 440)]);
    expect(b.summary).toContain("9-day 12.50, 30-day 14.00, 3-month 15.50");
    expect(b.summary).toContain("9d/30d 0.89, 30d/3m 0.90; curve contango; 30-day at the 37th percentile");
    expect(b.summary).toContain("$3.20B premium, calls $1.80B vs puts $1.40B (call/put 1.29, net $400.0M)");
    expect(b.summary).toContain("1.25x the usual premium by this time; most active SPXW, SPY, QQQ, NVDA, TSLA.");
    expect(b.summary).toContain("SPXW at 5100.00");
    expect(b.summary).toContain("QQQ at 440.00");
    expect(b.data.flow!.mostActive).toHaveLength(MARKET_BRIEF_TOP_TICKERS);
    expect(b.data.vol!.svx30Pct1y).toBe(37.4);
    expect(b.data.levels.map((l) => [l.symbol, l.kingNode!.strike])).toEqual([
      ["SPXW", 5110],
      ["QQQ", 450],
    ]);
    expect(b.asOf).toBe("2024-03-06T15:01:00.000Z");
  });

  it("says which parts are missing instead of inventing them", () => {
    // No premium baseline yet (the overview's premiumRvol is null): said, not a number.
    const early = marketBrief(null, { ...flow, premiumRvol: null }, []);
    expect(early.summary).toContain("no baseline of the usual premium yet; most active SPXW");
    expect(early.data.flow!.premiumRvol).toBeNull();
    const b = marketBrief(null, null, []);
    expect(b.summary).toBe("No S&P volatility reading. No market flow reading.");
    expect(b.data).toEqual({ vol: null, flow: null, levels: [] });
  });
});
