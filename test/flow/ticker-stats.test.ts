// tickerStats and expirationTotals on hand-built prints scored by the library's reference path.
import { describe, expect, it } from "vitest";
import { scoreFlow } from "../../lib/flow";
import { expirationTotals, tickerStats } from "../../lib/flow/ticker-stats";
import { print } from "./_prints";

const trades = scoreFlow(
  [
    print({ right: "C", strike: 510, price: 2, size: 10 }),
    print({ right: "C", strike: 515, price: 1, size: 5, expiry: "2024-04-19" }),
    print({ right: "P", strike: 490, price: 0.5, size: 40 }),
    print({ right: "C", strike: 510, price: 2.1, size: 1 }),
  ],
  { normPremiumUsd: 1000, openInterest: new Map() },
);

describe("tickerStats", () => {
  it("sums premium (price x size x 100) and volume by right", () => {
    expect(tickerStats(trades)).toEqual({
      totalPremium: 2000 + 500 + 2000 + 210,
      totalVolume: 56,
      callPremium: 2710,
      putPremium: 2000,
      callVolume: 16,
      putVolume: 40,
      netPremium: 710,
      callPutRatio: 2710 / 2000,
      tradeCount: 4,
      uniqueStrikes: 3,
      uniqueExpirations: 2,
    });
  });
  it("has a zero ratio without put premium", () => {
    expect(tickerStats(trades.filter((t) => t.right === "C")).callPutRatio).toBe(0);
    expect(tickerStats([]).totalVolume).toBe(0);
  });
});

describe("expirationTotals", () => {
  it("one row per expiration, nearest first, contracts counted once", () => {
    const rows = expirationTotals(trades);
    expect(rows.map((r) => r.expiration)).toEqual(["2024-03-22", "2024-04-19"]);
    expect(rows[0]).toMatchObject({ dte: 7, callVolume: 11, putVolume: 40, callPremium: 2210, putPremium: 2000, contractCount: 2 });
    expect(rows[1]).toMatchObject({ dte: 35, callVolume: 5, putVolume: 0, contractCount: 1 });
  });
});
