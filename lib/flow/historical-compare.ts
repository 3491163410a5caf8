/**
 * A session's flow against the trailing sessions' (the reference's `historical-compare`):
 * averages, multiples of the average, percentile ranks and the most similar past sessions.
 * @see docs/methodology.md#flow-historical-compare
 */
import * as z from "zod";

/** Lookback and the number of similar days. @see docs/methodology.md#flow-historical-compare */
export const HISTORICAL_COMPARE_PARAMS = { lookbackSessions: 20, similarDays: 5 } as const;

const num = z.number();
const int = z.number().int().nonnegative();

/** The reference's `CurrentMetrics`. */
export const DayMetricsSchema = z.object({
  totalPremium: num,
  totalVolume: int,
  callPremium: num,
  putPremium: num,
  netPremium: num,
  callPutRatio: num,
  callVolume: int,
  putVolume: int,
});
export type DayMetrics = z.output<typeof DayMetricsSchema>;

/** The reference's `HistoricalCompareResponse` without ticker and date. */
export const HistoricalCompareSchema = z.object({
  current: DayMetricsSchema,
  historical: z.object({
    avgPremium: num,
    avgVolume: num,
    avgNetPremium: num,
    avgCallPutRatio: num,
    avgCallPremium: num,
    avgPutPremium: num,
    daysAnalyzed: int,
  }),
  vsAverage: z.object({ premiumVsAvg: num, volumeVsAvg: num, netPremiumVsAvg: num }),
  percentileRankings: z.object({ premiumPercentile: int.max(100), volumePercentile: int.max(100), netPremiumPercentile: int.max(100) }),
  similarDays: z.array(z.object({ date: z.string(), netPremium: num, totalPremium: num, similarityScore: num.min(0).max(1) })),
});
export type HistoricalCompare = z.output<typeof HistoricalCompareSchema>;

/**
 * A session's metrics from its call and put totals: `netPremium = callPremium - putPremium`,
 * `callPutRatio = callVolume / putVolume` (0 without puts).
 */
export function dayMetrics(r: { callPremium: number; putPremium: number; callVolume: number; putVolume: number } | null): DayMetrics {
  const c = r ?? { callPremium: 0, putPremium: 0, callVolume: 0, putVolume: 0 };
  return {
    totalPremium: c.callPremium + c.putPremium,
    totalVolume: c.callVolume + c.putVolume,
    callPremium: c.callPremium,
    putPremium: c.putPremium,
    netPremium: c.callPremium - c.putPremium,
    callPutRatio: c.putVolume > 0 ? c.callVolume / c.putVolume : 0,
    callVolume: c.callVolume,
    putVolume: c.putVolume,
  };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);

/** Percent of `xs` below `x`, ties counted half, rounded (0 for no history). */
export function percentileRank(x: number, xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  let below = 0;
  let equal = 0;
  for (const y of xs) {
    if (y < x) below++;
    else if (y === x) equal++;
  }
  return Math.round((100 * (below + equal / 2)) / xs.length);
}

/**
 * `current` against `history` (one entry per past session, dated): averages; each of premium and
 * volume as a multiple of its average, net premium over the average's magnitude (0 when the
 * average is 0); percentile ranks; and the sessions nearest in (total premium, net premium,
 * call/put ratio), each feature divided by its standard deviation over the history (a feature
 * with none is left out), similarity `1 / (1 + distance)`, best first (ties: latest first).
 * @example historicalCompare(today, past).vsAverage.premiumVsAvg
 * @see docs/methodology.md#flow-historical-compare
 */
export function historicalCompare(current: DayMetrics, history: readonly (DayMetrics & { date: string })[]): HistoricalCompare {
  const col = (k: keyof DayMetrics) => history.map((h) => h[k]);
  const avg = {
    avgPremium: mean(col("totalPremium")),
    avgVolume: mean(col("totalVolume")),
    avgNetPremium: mean(col("netPremium")),
    avgCallPutRatio: mean(col("callPutRatio")),
    avgCallPremium: mean(col("callPremium")),
    avgPutPremium: mean(col("putPremium")),
    daysAnalyzed: history.length,
  };
  const times = (x: number, a: number) => (a !== 0 ? x / Math.abs(a) : 0);
  const features = (["totalPremium", "netPremium", "callPutRatio"] as const)
    .map((k) => {
      const xs = col(k);
      const m = mean(xs);
      const sd = Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
      return { k, sd };
    })
    .filter((f) => f.sd > 0);
  const similarDays = history
    .map((h) => {
      const d = Math.sqrt(features.reduce((s, f) => s + ((h[f.k] - current[f.k]) / f.sd) ** 2, 0));
      return { date: h.date, netPremium: h.netPremium, totalPremium: h.totalPremium, similarityScore: 1 / (1 + d) };
    })
    .sort((a, b) => b.similarityScore - a.similarityScore || (a.date < b.date ? 1 : -1))
    .slice(0, HISTORICAL_COMPARE_PARAMS.similarDays);
  return {
    current,
    historical: avg,
    vsAverage: {
      premiumVsAvg: times(current.totalPremium, avg.avgPremium),
      volumeVsAvg: times(current.totalVolume, avg.avgVolume),
      netPremiumVsAvg: times(current.netPremium, avg.avgNetPremium),
    },
    percentileRankings: {
      premiumPercentile: percentileRank(current.totalPremium, col("totalPremium")),
      volumePercentile: percentileRank(current.totalVolume, col("totalVolume")),
      netPremiumPercentile: percentileRank(current.netPremium, col("netPremium")),
    },
    similarDays,
  };
}
