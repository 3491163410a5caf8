/**
 * Flow tide (per-bucket and cumulative premium through the day) and flow momentum (the last 5
 * minutes, 30 minutes and hour against the same time of day in prior sessions).
 * @see docs/methodology.md#flow-tide
 */
import { etMinutesOfDay, sessionBounds } from "../time";
import type { IsoDate } from "../time";
import { directionSign, windowScores, type WindowTrade } from "./direction";
import { MOMENTUM_PARAMS } from "./params";
import type { ScoredTrade } from "./flow-score";
import type * as z from "zod";
import type { FlowMomentumSchema, MomentumBaselineSchema, MomentumTrendSchema, MomentumWindowSchema, TideBarSchema } from "./schemas";

/** One tide bar (timestamps in Unix seconds). */
export type TideBar = z.output<typeof TideBarSchema>;
/** Metrics of one momentum window. */
export type MomentumWindow = z.output<typeof MomentumWindowSchema>;
/** The momentum baseline. */
export type MomentumBaseline = z.output<typeof MomentumBaselineSchema>;
/** The momentum record. */
export type FlowMomentum = z.output<typeof FlowMomentumSchema>;
/** Momentum trend labels. */
export type MomentumTrend = z.output<typeof MomentumTrendSchema>;

/** Bucket sizes of the tide. */
export const TIDE_BUCKETS = ["1min", "5min", "15min", "30min", "1h"] as const;
/** One tide bucket size. */
export type TideBucket = (typeof TIDE_BUCKETS)[number];
const BUCKET_MS: Readonly<Record<TideBucket, number>> = {
  "1min": 60_000,
  "5min": 300_000,
  "15min": 900_000,
  "30min": 1_800_000,
  "1h": 3_600_000,
};

/** Trades the tide reads. */
export type TideTrade = WindowTrade & Pick<ScoredTrade, "tsMs">;

/**
 * Tide bars of one session from `fromMs` (default the open) to `toMs` (default the close), one per
 * bucket from the open, empty buckets included; trades outside the span are ignored.
 * @example
 * flowTide(scored, { date: "2024-03-15", bucket: "5min" }).at(-1)?.netCallPutPremiumCumulative;
 * @see docs/methodology.md#flow-tide
 */
export function flowTide(trades: readonly TideTrade[], o: { date: IsoDate; bucket?: TideBucket; fromMs?: number; toMs?: number }): TideBar[] {
  const { openMs, closeMs } = sessionBounds(o.date);
  const step = BUCKET_MS[o.bucket ?? "5min"];
  const from = Math.max(openMs, o.fromMs ?? openMs);
  const to = Math.min(closeMs, o.toMs ?? closeMs);
  const first = Math.floor((from - openMs) / step);
  const groups: TideTrade[][] = [];
  for (let s = openMs + first * step; s < to; s += step) groups.push([]);
  for (const t of trades) {
    if (t.tsMs < from || t.tsMs >= to) continue;
    groups[Math.floor((t.tsMs - openMs) / step) - first].push(t);
  }
  const bars: TideBar[] = [];
  let cumCp = 0;
  let cumNet = 0;
  groups.forEach((g, j) => {
    const start = openMs + (first + j) * step;
    let callPremium = 0,
      putPremium = 0,
      ncp = 0,
      npp = 0;
    for (const t of g) {
      const a = Math.sign(t.aggression);
      if (t.right === "C") {
        callPremium += t.premiumUsd;
        ncp += a * t.premiumUsd;
      } else {
        putPremium += t.premiumUsd;
        npp += a * t.premiumUsd;
      }
    }
    const w = windowScores(g);
    cumCp += callPremium - putPremium;
    cumNet += w.netPremium;
    bars.push({
      timestamp: Math.floor(start / 1000),
      timestampEnd: Math.floor(Math.min(start + step, closeMs) / 1000),
      callPremium,
      putPremium,
      netCallPutPremium: callPremium - putPremium,
      netCallPutPremiumCumulative: cumCp,
      ncp,
      npp,
      bullishPremium: w.bullishPremium,
      bearishPremium: w.bearishPremium,
      neutralPremium: w.neutralPremium,
      netPremium: w.netPremium,
      netPremiumCumulative: cumNet,
      bullishVolume: w.bullishVolume,
      bearishVolume: w.bearishVolume,
      vwf: w.vwf,
      sdf: w.sdf,
      fir: w.fir,
      tradeCount: w.tradeCount,
      sweepCount: w.sweepCount,
    });
  });
  return bars;
}

function windowMetrics(trades: readonly TideTrade[], fromMs: number, toMs: number): MomentumWindow {
  let count = 0,
    premium = 0,
    bull = 0,
    bear = 0;
  for (const t of trades) {
    if (t.tsMs < fromMs || t.tsMs >= toMs) continue;
    count++;
    premium += t.premiumUsd;
    const d = directionSign(t);
    if (d > 0) bull += t.premiumUsd;
    else if (d < 0) bear += t.premiumUsd;
  }
  const net = bull - bear;
  return { tradeCount: count, premium, bullishPremium: bull, bearishPremium: bear, netPremium: net, fir: bull + bear > 0 ? (100 * net) / (bull + bear) : 0 };
}

/** Mean and sample standard deviation (n - 1; 0 for fewer than two values). */
function meanSd(xs: readonly number[]): [number, number] {
  const n = xs.length;
  if (n === 0) return [0, 0];
  let m = 0;
  for (const x of xs) m += x;
  m /= n;
  if (n < 2) return [m, 0];
  let v = 0;
  for (const x of xs) v += (x - m) * (x - m);
  return [m, Math.sqrt(v / (n - 1))];
}

/**
 * Momentum at `asOfMs`: the 5-minute, 30-minute and 1-hour windows ending at it (`[asOf - W,
 * asOf)`), and the 5-minute window against the same time-of-day window (offset from each session's
 * open) of the baseline sessions, as z-scores; the trend label follows the documented rules.
 * @example
 * flowMomentum(today, baselineSessions, { date: "2024-03-15", asOfMs }).signals.trend;
 * @see docs/methodology.md#flow-momentum
 */
export function flowMomentum(
  today: readonly TideTrade[],
  baseline: ReadonlyArray<{ date: IsoDate; trades: readonly TideTrade[] }>,
  o: { date: IsoDate; asOfMs: number; lookbackDays?: number },
): FlowMomentum {
  const P = MOMENTUM_PARAMS;
  const m5 = windowMetrics(today, o.asOfMs - 300_000, o.asOfMs);
  const m30 = windowMetrics(today, o.asOfMs - 1_800_000, o.asOfMs);
  const m60 = windowMetrics(today, o.asOfMs - 3_600_000, o.asOfMs);
  const offset = o.asOfMs - sessionBounds(o.date).openMs;
  const prem: number[] = [];
  const firs: number[] = [];
  for (const b of baseline) {
    const open = sessionBounds(b.date).openMs;
    const w = windowMetrics(b.trades, open + offset - 300_000, open + offset);
    prem.push(w.premium);
    firs.push(w.fir);
  }
  const minutes = etMinutesOfDay(o.asOfMs);
  const timeOfDay = `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
  let base: MomentumBaseline | null = null;
  let firZ = 0;
  let premZ = 0;
  if (baseline.length >= P.minBaselineDays) {
    const [ap, sp] = meanSd(prem);
    const [af, sf] = meanSd(firs);
    base = {
      timeOfDay,
      lookbackDays: o.lookbackDays ?? baseline.length,
      daysInBaseline: baseline.length,
      avg5mPremium: ap,
      stddev5mPremium: sp,
      avg5mFir: af,
      stddev5mFir: sf,
    };
    firZ = sf > 0 ? (m5.fir - af) / sf : 0;
    premZ = sp > 0 ? (m5.premium - ap) / sp : 0;
  }
  const trend = momentumTrend(m5.fir, m60.fir, firZ);
  const interpretation =
    `${trend}: 5-minute FIR ${Math.round(m5.fir)} vs 1-hour ${Math.round(m60.fir)}` +
    (base ? ` (z ${firZ.toFixed(1)} against ${base.daysInBaseline} sessions at ${timeOfDay} ET).` : " (no baseline).");
  return {
    asOf: new Date(o.asOfMs).toISOString(),
    current5m: m5,
    current30m: m30,
    current1h: m60,
    baseline: base,
    signals: { firZscore5m: firZ, premiumZscore5m: premZ, trend, interpretation },
  };
}

/**
 * The momentum trend: `ACCELERATING_*` when the 5-minute FIR is strong (|fir5m| >= 30), pulls away
 * from the 1-hour FIR by >= 20 points in its direction, and is >= 1.5 sigma from its baseline in
 * that direction; `BULLISH`/`BEARISH` when both the 5-minute and 1-hour FIR are directional (>= 20
 * the same way); else `NEUTRAL`.
 * @example
 * momentumTrend(50, 10, 2); // "ACCELERATING_BULLISH"
 * @see docs/methodology.md#flow-momentum
 */
export function momentumTrend(fir5m: number, fir1h: number, firZ5m: number): MomentumTrend {
  const P = MOMENTUM_PARAMS;
  if (fir5m >= P.strongFirPct && fir5m - fir1h >= P.pullAwayPct && firZ5m >= P.zScore) return "ACCELERATING_BULLISH";
  if (fir5m <= -P.strongFirPct && fir1h - fir5m >= P.pullAwayPct && firZ5m <= -P.zScore) return "ACCELERATING_BEARISH";
  if (fir5m >= P.directionalFirPct && fir1h >= P.directionalFirPct) return "BULLISH";
  if (fir5m <= -P.directionalFirPct && fir1h <= -P.directionalFirPct) return "BEARISH";
  return "NEUTRAL";
}
