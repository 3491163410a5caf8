/**
 * Bull/bear pressure by volume (the reference's chain and contract bull/bear metrics) and the
 * per-time-of-day flow baseline behind momentum.
 * @see docs/methodology.md#flow-bull-bear-and-baseline
 */
import * as z from "zod";
import { sessionBounds } from "../time";
import type { IsoDate } from "../time";
import { directionSign } from "./direction";
import type { ScoredTrade } from "./flow-score";
import { RATIO_PARAMS } from "./params";

const num = z.number();

/** Bull/bear metrics (percent of volume, 0-100). */
export const BullBearMetricsSchema = z.object({
  bullPct: num,
  bearPct: num,
  neutralPct: num,
  /** bull volume / bear volume, 999 when bear volume is 0 (0 when both are). */
  bullBearRatio: num,
  /** Bullish share of call volume, percent. */
  callBullPct: num,
  /** Bullish share of put volume (puts sold), percent. */
  putBullPct: num,
});
/** Bull/bear metrics. */
export type BullBearMetrics = z.output<typeof BullBearMetricsSchema>;

/** The bull/bear interpretation object. */
export const BullBearInterpretationSchema = z.object({
  bias: z.enum(["BULLISH", "BEARISH", "NEUTRAL", "MIXED"]),
  strength: z.enum(["strong", "moderate", "weak"]),
  confidence: z.enum(["HIGH", "MEDIUM", "LOW"]),
  description: z.string(),
});
/** The bull/bear interpretation. */
export type BullBearInterpretation = z.output<typeof BullBearInterpretationSchema>;

/** Thresholds of the bull/bear interpretation. @see docs/methodology.md#flow-bull-bear-and-baseline */
export const BULL_BEAR_PARAMS = { biasPct: 10, mixedDirectionalPct: 50, strongPct: 40, moderatePct: 20 } as const;

/**
 * Bull/bear metrics of trades by volume (bullish: calls bought, puts sold) and their
 * interpretation: `net = bullPct - bearPct`; bias `BULLISH`/`BEARISH` when `|net| >= 10`, else
 * `MIXED` when `bullPct + bearPct >= 50`, else `NEUTRAL`; strength `strong` when `|net| >= 40`,
 * `moderate` when `>= 20`, else `weak`; confidence from the trade count as the ratios'.
 * @example
 * bullBear(scored).metrics.bullPct;
 * @see docs/methodology.md#flow-bull-bear-and-baseline
 */
export function bullBear(trades: ReadonlyArray<Pick<ScoredTrade, "aggression" | "right" | "size">>): {
  metrics: BullBearMetrics;
  interpretation: BullBearInterpretation;
} {
  let bull = 0,
    bear = 0,
    total = 0,
    calls = 0,
    callBull = 0,
    puts = 0,
    putBull = 0;
  for (const t of trades) {
    const d = directionSign(t);
    total += t.size;
    if (d > 0) bull += t.size;
    else if (d < 0) bear += t.size;
    if (t.right === "C") {
      calls += t.size;
      if (d > 0) callBull += t.size;
    } else {
      puts += t.size;
      if (d > 0) putBull += t.size;
    }
  }
  const pct = (x: number, of: number) => (of > 0 ? (100 * x) / of : 0);
  const metrics: BullBearMetrics = {
    bullPct: pct(bull, total),
    bearPct: pct(bear, total),
    neutralPct: pct(total - bull - bear, total),
    bullBearRatio: bear > 0 ? Math.min(RATIO_PARAMS.cap, bull / bear) : bull > 0 ? RATIO_PARAMS.cap : 0,
    callBullPct: pct(callBull, calls),
    putBullPct: pct(putBull, puts),
  };
  const P = BULL_BEAR_PARAMS;
  const net = metrics.bullPct - metrics.bearPct;
  const bias =
    total === 0
      ? "NEUTRAL"
      : net >= P.biasPct
        ? "BULLISH"
        : net <= -P.biasPct
          ? "BEARISH"
          : metrics.bullPct + metrics.bearPct >= P.mixedDirectionalPct
            ? "MIXED"
            : "NEUTRAL";
  const a = Math.abs(net);
  const strength = a >= P.strongPct ? "strong" : a >= P.moderatePct ? "moderate" : "weak";
  const n = trades.length;
  const confidence = n >= RATIO_PARAMS.highConfidenceTrades ? "HIGH" : n >= RATIO_PARAMS.mediumConfidenceTrades ? "MEDIUM" : "LOW";
  const description =
    n === 0 ? "No trades in the window." : `${bias}: ${Math.round(metrics.bullPct)}% of volume bullish, ${Math.round(metrics.bearPct)}% bearish over ${n} trades.`;
  return { metrics, interpretation: { bias, strength, confidence, description } };
}

/** One time-of-day bucket of the flow baseline (the reference's `BaselineBucket`). */
export const BaselineBucketSchema = z.object({
  timeOfDay: z.string(),
  daysCount: z.number().int(),
  avgTradeCount: num,
  stddevTradeCount: num,
  avgPremium: num,
  stddevPremium: num,
  avgFir: num,
  stddevFir: num,
});
/** One baseline bucket. */
export type BaselineBucket = z.output<typeof BaselineBucketSchema>;

const meanSd = (xs: readonly number[]): [number, number] => {
  const n = xs.length;
  if (n === 0) return [0, 0];
  const m = xs.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return [m, 0];
  return [m, Math.sqrt(xs.reduce((a, x) => a + (x - m) * (x - m), 0) / (n - 1))];
};

/**
 * Per-time-of-day baseline over prior sessions: for each bucket of `bucketMinutes` from
 * `startTimeOfDay` (ET, default 09:30) to `endTimeOfDay` (default 16:00), the mean and sample
 * standard deviation (n - 1) over the sessions that have the bucket of its trade count, premium
 * and FIR.
 * @example
 * flowBaseline(sessions, { bucketMinutes: 5 })[0].avgPremium;
 * @see docs/methodology.md#flow-bull-bear-and-baseline
 */
export function flowBaseline(
  sessions: ReadonlyArray<{ date: IsoDate; trades: ReadonlyArray<Pick<ScoredTrade, "tsMs" | "aggression" | "right" | "premiumUsd">> }>,
  o: { bucketMinutes: number; startTimeOfDay?: string; endTimeOfDay?: string },
): BaselineBucket[] {
  const toMin = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  const start = toMin(o.startTimeOfDay ?? "09:30");
  const end = toMin(o.endTimeOfDay ?? "16:00");
  const out: BaselineBucket[] = [];
  const stepMs = o.bucketMinutes * 60_000;
  for (let m = start; m < end; m += o.bucketMinutes) {
    const counts: number[] = [];
    const prems: number[] = [];
    const firs: number[] = [];
    for (const s of sessions) {
      const { openMs, closeMs } = sessionBounds(s.date);
      const from = openMs + (m - 570) * 60_000; // 570 = 09:30 in minutes
      if (from < openMs || from >= closeMs) continue;
      const to = Math.min(from + stepMs, closeMs);
      let count = 0,
        prem = 0,
        bull = 0,
        bear = 0;
      for (const t of s.trades) {
        if (t.tsMs < from || t.tsMs >= to) continue;
        count++;
        prem += t.premiumUsd;
        const d = directionSign(t);
        if (d > 0) bull += t.premiumUsd;
        else if (d < 0) bear += t.premiumUsd;
      }
      counts.push(count);
      prems.push(prem);
      firs.push(bull + bear > 0 ? (100 * (bull - bear)) / (bull + bear) : 0);
    }
    const [ac, sc] = meanSd(counts);
    const [ap, sp] = meanSd(prems);
    const [af, sf] = meanSd(firs);
    out.push({
      timeOfDay: `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`,
      daysCount: counts.length,
      avgTradeCount: ac,
      stddevTradeCount: sc,
      avgPremium: ap,
      stddevPremium: sp,
      avgFir: af,
      stddevFir: sf,
    });
  }
  return out;
}
