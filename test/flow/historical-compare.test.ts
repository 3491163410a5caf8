// Historical compare against hand-computed cases.
import { describe, expect, it } from "vitest";
import { dayMetrics, historicalCompare, HistoricalCompareSchema, percentileRank } from "../../lib/flow/historical-compare";

const day = (date: string, callPremium: number, putPremium: number, callVolume: number, putVolume: number) => ({
  date,
  ...dayMetrics({ callPremium, putPremium, callVolume, putVolume }),
});

describe("historical compare", () => {
  it("day metrics: net is calls minus puts, ratio is call over put volume (0 without puts)", () => {
    expect(dayMetrics({ callPremium: 300, putPremium: 100, callVolume: 30, putVolume: 10 })).toEqual({
      totalPremium: 400,
      totalVolume: 40,
      callPremium: 300,
      putPremium: 100,
      netPremium: 200,
      callPutRatio: 3,
      callVolume: 30,
      putVolume: 10,
    });
    expect(dayMetrics({ callPremium: 1, putPremium: 0, callVolume: 1, putVolume: 0 }).callPutRatio).toBe(0);
    expect(dayMetrics(null).totalPremium).toBe(0);
  });

  it("percentile ranks count ties half", () => {
    expect(percentileRank(5, [1, 5, 9, 10])).toBe(38); // (1 + 0.5) / 4
    expect(percentileRank(11, [1, 2])).toBe(100);
    expect(percentileRank(0, [])).toBe(0);
  });

  it("by hand: averages, multiples, percentiles and similar days", () => {
    const history = [day("2024-03-01", 100, 100, 10, 10), day("2024-03-04", 300, 100, 30, 10), day("2024-03-05", 200, 200, 20, 20)];
    const today = dayMetrics({ callPremium: 300, putPremium: 100, callVolume: 30, putVolume: 10 });
    const r = historicalCompare(today, history);
    // premiums 200, 400, 400 -> avg 333.33; nets 0, 200, 0 -> 66.67; ratios 1, 3, 1 -> 5/3
    expect(r.historical.avgPremium).toBeCloseTo(1000 / 3, 9);
    expect(r.historical.avgNetPremium).toBeCloseTo(200 / 3, 9);
    expect(r.historical.avgCallPutRatio).toBeCloseTo(5 / 3, 9);
    expect(r.historical.daysAnalyzed).toBe(3);
    expect(r.vsAverage.premiumVsAvg).toBeCloseTo(1.2, 9);
    expect(r.vsAverage.netPremiumVsAvg).toBeCloseTo(3, 9);
    expect(r.percentileRankings).toEqual({ premiumPercentile: 67, volumePercentile: 67, netPremiumPercentile: 83 });
    // 2024-03-04 is identical to today: distance 0.
    expect(r.similarDays[0]).toEqual({ date: "2024-03-04", netPremium: 200, totalPremium: 400, similarityScore: 1 });
    // The other two: sd(premium) = 94.28, sd(net) = 94.28, sd(ratio) = 0.9428; 03-05 differs in net (2.12 sd) and ratio (2.12 sd).
    const sd = Math.sqrt(((200 - 1000 / 3) ** 2 + 2 * (400 - 1000 / 3) ** 2) / 3);
    const d5 = Math.sqrt((200 / sd) ** 2 + (2 / (sd / 100)) ** 2);
    expect(r.similarDays[1].date).toBe("2024-03-05");
    expect(r.similarDays[1].similarityScore).toBeCloseTo(1 / (1 + d5), 9);
    expect(r.similarDays).toHaveLength(3);
    expect(HistoricalCompareSchema.parse(r)).toEqual(r);
    expect(historicalCompare(today, []).vsAverage).toEqual({ premiumVsAvg: 0, volumeVsAvg: 0, netPremiumVsAvg: 0 });
  });
});
