import { describe, expect, it } from "vitest";
import { strikeBreakdown, StrikeBreakdownSchema } from "../../lib/flow/strikes";

const t = (strike: number, right: "C" | "P", expiry: string, side: "A" | "B" | "M", premiumUsd: number, size = 1) => ({
  symbol: `X${strike}${right}${expiry}`,
  strike,
  right,
  expiry,
  size,
  premiumUsd,
  side,
  aggression: side === "A" ? 1 : side === "B" ? -1 : 0,
});

describe("strike breakdown", () => {
  it("by hand: net premium order, shares, dominant expiration, OI, top-3 concentration", () => {
    const trades = [
      t(500, "C", "2024-03-22", "A", 3000, 10), // bullish
      t(500, "C", "2024-03-28", "B", 1000, 5), // bearish (call sold)
      t(490, "P", "2024-03-22", "A", 5000, 20), // bearish
      t(510, "C", "2024-03-22", "M", 500, 2), // neutral
      t(480, "P", "2024-03-22", "B", 100, 1), // bullish (put sold)
    ];
    const oi = new Map([
      ["X500C2024-03-22", 100],
      ["X500C2024-03-28", 50],
    ]);
    const r = strikeBreakdown(trades, { openInterest: oi });
    // |net|: 490P 5000, 500C 2000, 480P 100, 510C 0
    expect(r.byStrike.map((x) => [x.strike, x.right, x.netPremium])).toEqual([
      [490, "P", -5000],
      [500, "C", 2000],
      [480, "P", 100],
      [510, "C", 0],
    ]);
    const c500 = r.byStrike[1];
    expect(c500).toEqual({
      strike: 500,
      right: "C",
      dominantExpiration: "2024-03-22",
      tradeCount: 2,
      volume: 15,
      totalPremium: 4000,
      bullishPremium: 3000,
      bearishPremium: 1000,
      netPremium: 2000,
      askPct: 0.75,
      bidPct: 0.25,
      openInterest: 150,
      volOiRatio: 0.1,
    });
    expect(StrikeBreakdownSchema.parse(c500)).toEqual(c500);
    // top 3 premium 5000 + 4000 + 100 of 9600
    expect(r.concentration.top3StrikesShare).toBeCloseTo(9100 / 9600, 12);
    expect(r.concentration.top3StrikesNetPremium).toBe(-5000 + 2000 + 100);
    expect(strikeBreakdown(trades, { orderBy: "volume", topN: 1, right: "C" }).byStrike.map((x) => x.strike)).toEqual([500]);
    expect(strikeBreakdown(trades, { minPremiumUsd: 1000 }).byStrike).toHaveLength(2);
  });
});
