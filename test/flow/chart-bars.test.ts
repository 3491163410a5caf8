// Chart bar intervals and sums against hand-computed cases.
import { describe, expect, it } from "vitest";
import { barIntervals, contractBars, ContractChartBarSchema, underlyingBars, type ChartTrade } from "../../lib/flow/chart-bars";
import { chartCost } from "../../lib/api/flow-charts";

const M = 60_000;
const s = (date: string, openMs: number, minutes: number, upto = minutes) => ({ date, openMs, closeMs: openMs + minutes * M, uptoMs: openMs + upto * M });

describe("chart bars", () => {
  it("intervals: intraday steps cut at the close and stop at upto; 1d per session; 1w per ISO week", () => {
    const a = s("2024-03-08", 0, 30); // Friday
    const b = s("2024-03-11", 1000 * M, 30, 12); // Monday, 12 minutes so far
    const i = barIntervals([a, b], "10min");
    expect(i.map((x) => [x.startMs / M, x.endMs / M])).toEqual([
      [0, 10],
      [10, 20],
      [20, 30],
      [1000, 1010],
      [1010, 1020],
    ]);
    expect(barIntervals([s("2024-03-08", 0, 25)], "10min").map((x) => x.endMs / M)).toEqual([10, 20, 25]);
    expect(barIntervals([a, b], "1d").map((x) => [x.startMs / M, x.endMs / M])).toEqual([
      [0, 30],
      [1000, 1012],
    ]);
    const c = s("2024-03-12", 2000 * M, 30);
    expect(barIntervals([a, b, c], "1w").map((x) => [x.startMs / M, x.endMs / M, x.sessionStartMs / M])).toEqual([
      [0, 30, 0],
      [1000, 2030, 2000],
    ]);
  });

  const t = (tsMin: number, right: "C" | "P", size: number, price: number, side: ChartTrade["side"], extra: Partial<ChartTrade> = {}): ChartTrade => ({
    tsMs: tsMin * M,
    right,
    size,
    priceUsd: price,
    premiumUsd: price * size * 100,
    side,
    isMultiLeg: false,
    iv: null,
    ...extra,
  });

  it("underlying bars by hand: sums by right, P/C ratio, bid and ask shares, price at the end, zero-filled", () => {
    const bars = underlyingBars([t(1, "C", 10, 1, "A"), t(2, "P", 30, 2, "BB"), t(3, "C", 10, 1, "M")], barIntervals([s("2024-03-08", 0, 10)], "5min"), (e) => e / M);
    expect(bars[0]).toEqual({
      timestamp: "0",
      timestampEnd: "300",
      callVolume: 20,
      putVolume: 30,
      candleVolume: 50,
      callPremium: 2000,
      putPremium: 6000,
      candlePremium: 8000,
      stockPrice: 5,
      pcRatio: 1.5,
      chainBidPct: 60,
      chainAskPct: 20,
    });
    expect(bars[1]).toMatchObject({ candleVolume: 0, pcRatio: 0, chainBidPct: 0, stockPrice: 10 });
  });

  it("contract bars by hand: per-side sums, single-leg volume, session-to-date totals, VWAP, last IV", () => {
    const trades = [t(1, "C", 10, 1, "A", { iv: 0.2 }), t(6, "C", 30, 2, "B", { isMultiLeg: true, iv: 0.25 }), t(7, "C", 10, 1, "AA")];
    const bars = contractBars(trades, barIntervals([s("2024-03-08", 0, 15)], "5min"));
    expect(bars[1]).toMatchObject({
      bidVolume: 30,
      aboveAskVolume: 10,
      askVolume: 0,
      bidPremium: 6000,
      aboveAskPremium: 1000,
      candleVolume: 40,
      candleVolumeNoMl: 10,
      candlePremium: 7000,
      dailyVolume: 50,
      dailyPremium: 8000,
      vwap: 70 / 40,
      iv: 0.25,
    });
    expect(bars[2]).toMatchObject({ candleVolume: 0, dailyVolume: 50, vwap: 0, iv: null, noSideVolume: 0 });
    expect(ContractChartBarSchema.parse(bars[1])).toEqual(bars[1]);
  });

  it("cost: 3 per started 30 trading days", () => {
    expect([1, 30, 31, 60, 365].map(chartCost)).toEqual([3, 3, 6, 6, 39]);
  });
});
