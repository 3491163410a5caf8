import { describe, expect, it } from "vitest";
import { scoreFlow } from "../../lib/flow/flow-score";
import { groupSweeps } from "../../lib/flow/sweeps";
import { FlowTradeItemSchema, SweepItemSchema, flowTradeItem, sweepItem, sweepSummary } from "../../lib/flow/feed-items";
import { OPEN_MS, print } from "./_prints";

describe("feed items", () => {
  const t0 = OPEN_MS + 5_000;
  const prints = [
    print({ tsMs: t0, subMsNs: 1_250, exchange: "CBOE", price: 1.05, size: 10 }), // sweep fill, 1050 USD
    print({ tsMs: t0 + 2, exchange: "PHLX", price: 1.06, nbboAsk: 1.06, size: 30 }), // sweep fill, 3180 USD
    print({ tsMs: t0 + 10_000, right: "P", strike: 490, price: 2.0, nbboBid: 1.5, nbboAsk: 2.0, size: 5 }),
  ];
  const scored = scoreFlow(prints, { normPremiumUsd: 1_000, openInterest: new Map([[prints[0].symbol, 200]]) });
  const { groups } = groupSweeps(prints);

  it("a trade: nanosecond timestamp, spread, liquidity grade, OI fields, scores", () => {
    const item = flowTradeItem(scored[0], groups[0]);
    expect(item.timestamp).toBe("2024-03-15T13:30:05.000001250Z");
    expect(item.mid).toBeCloseTo(1.025, 12);
    expect(item.spreadWidthPct).toBeCloseTo((100 * 0.05) / 1.025, 12); // 4.88% -> MEDIUM
    expect(item.liquidityGrade).toBe("MEDIUM");
    expect([item.exchangeCount, item.openInterest, item.oiIsZero, item.sizeOiRatio]).toEqual([2, 200, false, 10 / 200]);
    expect(item.scores.flowScore).toBe(scored[0].flowScore);
    expect(FlowTradeItemSchema.parse(item)).toEqual(item);
    const put = flowTradeItem(scored[2]);
    // spread 0.50 on a mid of 1.75: 28.6% -> LOW; unknown OI -> 0, not zero-OI
    expect([put.liquidityGrade, put.exchangeCount, put.openInterest, put.oiIsZero, put.sizeOiRatio, put.optionType]).toEqual(["LOW", 1, 0, false, null, "PUT"]);
  });

  it("a sweep: totals, venues, premium-weighted scores; the summary's SDF", () => {
    expect(groups).toHaveLength(1);
    const s = sweepItem(groups[0], scored);
    const w = (1050 * scored[0].flowScore + 3180 * scored[1].flowScore) / 4230;
    expect(s).toMatchObject({
      optionType: "CALL",
      strike: 510,
      totalContracts: 40,
      exchangeCount: 2,
      exchanges: ["CBOE", "PHLX"],
      executionTimeMs: 2,
      spreadPosition: "AT_ASK",
      moneyness: "ATM",
      dte: 7,
    });
    expect(s.totalPremium).toBeCloseTo(4230, 9);
    expect(s.scores.flowScore).toBe(Math.round(w));
    expect(SweepItemSchema.parse(s)).toEqual(s);
    const putSweep = { ...groups[0], right: "P" as const, totalPremiumUsd: 1000 };
    // bullish: the call sweep (4230); bearish: a bought put sweep (1000): sdf = 100 * 3230 / 5230
    const sum = sweepSummary([groups[0], putSweep], 2);
    expect([sum.totalSweeps, sum.bullishSweeps, sum.bearishSweeps, sum.returnedCount]).toEqual([2, 1, 1, 2]);
    expect(sum.sdf).toBeCloseTo((100 * (groups[0].totalPremiumUsd - 1000)) / (groups[0].totalPremiumUsd + 1000), 12);
  });
});
