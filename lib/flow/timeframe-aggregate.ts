/**
 * Multi-timeframe sentiment (the reference's `/v1/aggregate/{ticker}`): additive flow sums per
 * session, merged over trailing timeframes, turned into VWF, SDF, FIR and the composite, plus the
 * short-vs-long trend and a moneyness split.
 * @see docs/methodology.md#flow-timeframe-aggregate
 */
import * as z from "zod";
import { compositeBias, COMPOSITE_WEIGHTS, directionSign, signalStrength } from "./direction";
import { roundHalfAway, type ScoredTrade } from "./flow-score";
import { MONEYNESS_CATEGORIES, type Moneyness } from "./trade-facts";

/** Timeframe atoms and their length: intraday ones in minutes, the others in sessions. */
export const AGGREGATE_TIMEFRAMES = {
  "1h": { minutes: 60, sessions: 1 },
  "4h": { minutes: 240, sessions: 1 },
  "1d": { minutes: null, sessions: 1 },
  "7d": { minutes: null, sessions: 7 },
  "30d": { minutes: null, sessions: 30 },
  "90d": { minutes: null, sessions: 90 },
} as const;
/** One timeframe atom. */
export type AggregateTimeframe = keyof typeof AGGREGATE_TIMEFRAMES;

/** Thresholds of the trend block and of `confidence`. @see docs/methodology.md#flow-timeframe-aggregate */
export const AGGREGATE_PARAMS = {
  /** Composite points between the shortest and longest timeframe below which the trend is `stable`. */
  trendPoints: 20,
  /** Trades at which `confidence` stops growing with the count. */
  confidenceTrades: 100,
} as const;

/** Additive sums of a set of trades; a timeframe's scores come from merged sums. */
export interface FlowSums {
  tradeCount: number;
  sweepCount: number;
  totalPremium: number;
  flowScoreSum: number;
  /** Decay-weighted sums (equal to the plain ones without decay). */
  weightedPremium: number;
  scoreWeighted: number;
  bullishPremium: number;
  bearishPremium: number;
  sweepPremium: number;
  sweepNet: number;
}

/** Trades the sums read. */
export type SumTrade = Pick<ScoredTrade, "aggression" | "right" | "premiumUsd" | "isSweep" | "flowScore" | "tsMs">;

/** Empty sums. */
export function emptySums(): FlowSums {
  return {
    tradeCount: 0,
    sweepCount: 0,
    totalPremium: 0,
    flowScoreSum: 0,
    weightedPremium: 0,
    scoreWeighted: 0,
    bullishPremium: 0,
    bearishPremium: 0,
    sweepPremium: 0,
    sweepNet: 0,
  };
}

/**
 * Sums of `trades`. With `decay`, each trade's premium in the VWF, SDF and FIR sums is weighted
 * `0.5 ^ ((refMs - tsMs) / halfLifeMs)`; counts and `totalPremium` stay plain.
 * @example flowSums(trades).bullishPremium
 * @see docs/methodology.md#flow-timeframe-aggregate
 */
export function flowSums(trades: Iterable<SumTrade>, decay?: { refMs: number; halfLifeMs: number }): FlowSums {
  const s = emptySums();
  for (const t of trades) {
    const w = decay ? Math.pow(0.5, (decay.refMs - t.tsMs) / decay.halfLifeMs) : 1;
    const p = t.premiumUsd * w;
    const d = directionSign(t);
    s.tradeCount++;
    s.totalPremium += t.premiumUsd;
    s.flowScoreSum += t.flowScore;
    s.weightedPremium += p;
    s.scoreWeighted += p * t.flowScore;
    if (d > 0) s.bullishPremium += p;
    else if (d < 0) s.bearishPremium += p;
    if (t.isSweep) {
      s.sweepCount++;
      s.sweepPremium += p;
      s.sweepNet += d * p;
    }
  }
  return s;
}

/**
 * Sums of several sets, the decay-weighted parts of each scaled by `scale[i]` (default 1): a
 * session's decayed sums taken at its close become the window's by `0.5 ^ (gap / halfLife)`.
 */
export function mergeSums(parts: readonly FlowSums[], scale?: readonly number[]): FlowSums {
  const s = emptySums();
  parts.forEach((p, i) => {
    const k = scale ? scale[i] : 1;
    s.tradeCount += p.tradeCount;
    s.sweepCount += p.sweepCount;
    s.totalPremium += p.totalPremium;
    s.flowScoreSum += p.flowScoreSum;
    s.weightedPremium += k * p.weightedPremium;
    s.scoreWeighted += k * p.scoreWeighted;
    s.bullishPremium += k * p.bullishPremium;
    s.bearishPremium += k * p.bearishPremium;
    s.sweepPremium += k * p.sweepPremium;
    s.sweepNet += k * p.sweepNet;
  });
  return s;
}

const num = z.number();
const int = z.number().int();

/** The reference's `ScoreComponents`. */
export const ScoreComponentsSchema = z.object({
  vwf: num,
  sdf: num,
  fir: num,
  bullishPremium: num,
  bearishPremium: num,
  sweepPremium: num,
});

/** The reference's `TimeframeAggregate`. */
export const TimeframeAggregateSchema = z.object({
  composite: int.min(-100).max(100),
  direction: z.enum(["strong_bullish", "bullish", "neutral", "bearish", "strong_bearish"]),
  signalStrength: z.enum(["strong", "moderate", "weak", "neutral"]),
  confidence: num.min(0).max(1),
  sweepAlignment: z.boolean(),
  components: ScoreComponentsSchema.optional(),
  tradeCount: int,
  totalPremium: num,
  sweepCount: int,
  avgFlowScore: num,
  timeDecayApplied: z.boolean().optional(),
});
/** One timeframe's scores. */
export type TimeframeAggregate = z.output<typeof TimeframeAggregateSchema>;

/** VWF, SDF, FIR and the unrounded composite of some sums (each 0 when its denominator is 0). */
export function sumScores(s: FlowSums): { vwf: number; sdf: number; fir: number; composite: number } {
  const vwf = s.weightedPremium > 0 ? s.scoreWeighted / s.weightedPremium : 0;
  const sdf = s.sweepPremium > 0 ? (100 * s.sweepNet) / s.sweepPremium : 0;
  const directional = s.bullishPremium + s.bearishPremium;
  const fir = directional > 0 ? (100 * (s.bullishPremium - s.bearishPremium)) / directional : 0;
  const c = COMPOSITE_WEIGHTS.vwf * vwf + COMPOSITE_WEIGHTS.sdf * sdf + COMPOSITE_WEIGHTS.fir * fir;
  return { vwf, sdf, fir, composite: Math.max(-100, Math.min(100, c)) };
}

/**
 * A timeframe's record from its sums: integer composite, direction and signal strength labels,
 * `confidence = min(1, n / 100) * max(bull, bear) / (bull + bear)`, `sweepAlignment` (VWF and SDF
 * non-zero with the same sign), counts and the mean Flow Score.
 * @example timeframeAggregate(flowSums(trades), { breakdown: true }).composite
 * @see docs/methodology.md#flow-timeframe-aggregate
 */
export function timeframeAggregate(s: FlowSums, o: { breakdown: boolean; decayed?: boolean }): TimeframeAggregate {
  const { vwf, sdf, fir, composite } = sumScores(s);
  const directional = s.bullishPremium + s.bearishPremium;
  const agreement = directional > 0 ? Math.max(s.bullishPremium, s.bearishPremium) / directional : 0;
  const out: TimeframeAggregate = {
    composite: roundHalfAway(composite),
    direction: compositeBias(composite).toLowerCase() as TimeframeAggregate["direction"],
    signalStrength: signalStrength(composite, s.tradeCount),
    confidence: Math.min(1, s.tradeCount / AGGREGATE_PARAMS.confidenceTrades) * agreement,
    sweepAlignment: vwf !== 0 && sdf !== 0 && Math.sign(vwf) === Math.sign(sdf),
    tradeCount: s.tradeCount,
    totalPremium: s.totalPremium,
    sweepCount: s.sweepCount,
    avgFlowScore: s.tradeCount > 0 ? s.flowScoreSum / s.tradeCount : 0,
  };
  if (o.breakdown) {
    out.components = { vwf, sdf, fir, bullishPremium: s.bullishPremium, bearishPremium: s.bearishPremium, sweepPremium: s.sweepPremium };
  }
  if (o.decayed) out.timeDecayApplied = true;
  return out;
}

/** The reference's `TrendAnalysis`. */
export const TrendAnalysisSchema = z.object({
  shortVsLong: z.enum(["stable", "bullish_divergence", "bearish_divergence", "improving", "deteriorating"]),
  momentum: z.enum(["stable", "accelerating_bullish", "accelerating_bearish", "mixed"]),
  description: z.string(),
});
/** The trend block. */
export type TrendAnalysis = z.output<typeof TrendAnalysisSchema>;

/**
 * The trend from composites ordered shortest timeframe first. `shortVsLong` compares the shortest
 * with the longest: `stable` within 20 points, a divergence when their signs differ (named by the
 * short one's sign), else `improving`/`deteriorating`. `momentum`: `stable` within 20 points,
 * `accelerating_bullish` when each shorter composite is above the next longer one and the shortest
 * is positive (mirrored for bearish), else `mixed`.
 * @example trendAnalysis([40, 5]).shortVsLong // "improving"
 * @see docs/methodology.md#flow-timeframe-aggregate
 */
export function trendAnalysis(composites: readonly number[]): TrendAnalysis {
  const T = AGGREGATE_PARAMS.trendPoints;
  const short = composites[0] ?? 0;
  const long = composites.at(-1) ?? 0;
  const d = short - long;
  if (composites.length < 2 || Math.abs(d) < T) {
    return { shortVsLong: "stable", momentum: "stable", description: `Short- and long-horizon composites are within ${T} points (${short} vs ${long}).` };
  }
  const shortVsLong = short > 0 && long < 0 ? "bullish_divergence" : short < 0 && long > 0 ? "bearish_divergence" : d > 0 ? "improving" : "deteriorating";
  let rising = true;
  let falling = true;
  for (let i = 0; i + 1 < composites.length; i++) {
    if (!(composites[i] > composites[i + 1])) rising = false;
    if (!(composites[i] < composites[i + 1])) falling = false;
  }
  const momentum = rising && short > 0 ? "accelerating_bullish" : falling && short < 0 ? "accelerating_bearish" : "mixed";
  const description = `The shortest timeframe's composite is ${short} against ${long} for the longest (${d > 0 ? "+" : ""}${d} points): ${shortVsLong.replace("_", " ")}, momentum ${momentum.replace("_", " ")}.`;
  return { shortVsLong, momentum, description };
}

/** The reference's `MoneynessAggregate`. */
export const MoneynessAggregateSchema = z.object({
  category: z.enum(MONEYNESS_CATEGORIES),
  composite: int,
  tradeCount: int,
  premium: num,
  pctOfTotal: num,
});
/** One moneyness category's scores. */
export type MoneynessAggregate = z.output<typeof MoneynessAggregateSchema>;

/** Sums of each moneyness category (deep ITM first), no decay: additive across sessions like `flowSums`. */
export function moneynessSums(trades: Iterable<SumTrade & { moneyness: Moneyness }>): FlowSums[] {
  const groups = MONEYNESS_CATEGORIES.map(() => [] as SumTrade[]);
  for (const t of trades) groups[MONEYNESS_CATEGORIES.indexOf(t.moneyness)].push(t);
  return groups.map((g) => flowSums(g));
}

/**
 * The five moneyness categories (deep ITM first) from their sums, each with its composite, trade
 * count, premium and percent of the set's premium.
 * @see docs/methodology.md#flow-timeframe-aggregate
 */
export function moneynessAggregatesFromSums(sums: readonly FlowSums[]): MoneynessAggregate[] {
  const total = sums.reduce((a, s) => a + s.totalPremium, 0);
  return MONEYNESS_CATEGORIES.map((category, i) => ({
    category,
    composite: roundHalfAway(sumScores(sums[i]).composite),
    tradeCount: sums[i].tradeCount,
    premium: sums[i].totalPremium,
    pctOfTotal: total > 0 ? (100 * sums[i].totalPremium) / total : 0,
  }));
}

/** {@link moneynessAggregatesFromSums} of a set of trades. */
export function moneynessAggregates(trades: readonly (SumTrade & { moneyness: Moneyness })[]): MoneynessAggregate[] {
  return moneynessAggregatesFromSums(moneynessSums(trades));
}
