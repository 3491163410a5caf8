/**
 * Direction of a trade and the window scores built on it (VWF, SDF, FIR, composite).
 * @see docs/methodology.md#flow-window-scores
 */
import type { ScoredTrade } from "./flow-score";
import type * as z from "zod";
import type { WindowScoresSchema } from "./schemas";

/** Window-level scores and the premium split. */
export type WindowScores = z.output<typeof WindowScoresSchema>;

/** What direction needs: aggression (-1..+1) and the right. */
export type DirectionalTrade = Pick<ScoredTrade, "aggression" | "right">;

/**
 * +1 bullish (calls bought, puts sold), -1 bearish (puts bought, calls sold), 0 neutral (mid,
 * no NBBO, crosses).
 * @example
 * directionSign({ aggression: -1, right: "P" }); // 1 (puts sold)
 * @see docs/methodology.md#flow-window-scores
 */
export function directionSign(t: DirectionalTrade): -1 | 0 | 1 {
  if (t.aggression === 0) return 0;
  return t.aggression > 0 === (t.right === "C") ? 1 : -1;
}

/** Trades the window scores read. */
export type WindowTrade = Pick<ScoredTrade, "aggression" | "right" | "premiumUsd" | "size" | "isSweep" | "flowScore">;

/** Weights of the composite. @see docs/methodology.md#flow-window-scores */
export const COMPOSITE_WEIGHTS = { vwf: 0.4, sdf: 0.35, fir: 0.25 } as const;

/**
 * VWF, SDF, FIR, the composite and the bullish/bearish/neutral premium split of a set of trades.
 * Every ratio is 0 when its denominator is 0.
 * @example
 * windowScores(scored).fir; // -100..100
 * @see docs/methodology.md#flow-window-scores
 */
export function windowScores(trades: readonly WindowTrade[]): WindowScores {
  const w: WindowScores = {
    tradeCount: 0,
    sweepCount: 0,
    totalPremium: 0,
    totalVolume: 0,
    bullishPremium: 0,
    bearishPremium: 0,
    neutralPremium: 0,
    netPremium: 0,
    bullishCount: 0,
    bearishCount: 0,
    neutralCount: 0,
    bullishVolume: 0,
    bearishVolume: 0,
    sweepPremium: 0,
    vwf: 0,
    sdf: 0,
    fir: 0,
    composite: 0,
  };
  let scoreWeighted = 0;
  let sweepNet = 0;
  for (const t of trades) {
    const d = directionSign(t);
    w.tradeCount++;
    w.totalPremium += t.premiumUsd;
    w.totalVolume += t.size;
    scoreWeighted += t.premiumUsd * t.flowScore;
    if (d > 0) {
      w.bullishPremium += t.premiumUsd;
      w.bullishCount++;
      w.bullishVolume += t.size;
    } else if (d < 0) {
      w.bearishPremium += t.premiumUsd;
      w.bearishCount++;
      w.bearishVolume += t.size;
    } else {
      w.neutralPremium += t.premiumUsd;
      w.neutralCount++;
    }
    if (t.isSweep) {
      w.sweepCount++;
      w.sweepPremium += t.premiumUsd;
      sweepNet += d * t.premiumUsd;
    }
  }
  w.netPremium = w.bullishPremium - w.bearishPremium;
  w.vwf = w.totalPremium > 0 ? scoreWeighted / w.totalPremium : 0;
  w.sdf = w.sweepPremium > 0 ? (100 * sweepNet) / w.sweepPremium : 0;
  const directional = w.bullishPremium + w.bearishPremium;
  w.fir = directional > 0 ? (100 * w.netPremium) / directional : 0;
  const c = COMPOSITE_WEIGHTS.vwf * w.vwf + COMPOSITE_WEIGHTS.sdf * w.sdf + COMPOSITE_WEIGHTS.fir * w.fir;
  w.composite = Math.max(-100, Math.min(100, c));
  return w;
}

/** Label of a composite score (`STRONG_BULLISH` >= 60, `BULLISH` >= 20, mirrored, else `NEUTRAL`). */
export function compositeBias(composite: number): "STRONG_BULLISH" | "BULLISH" | "NEUTRAL" | "BEARISH" | "STRONG_BEARISH" {
  if (composite >= 60) return "STRONG_BULLISH";
  if (composite >= 20) return "BULLISH";
  if (composite <= -60) return "STRONG_BEARISH";
  if (composite <= -20) return "BEARISH";
  return "NEUTRAL";
}

/**
 * Signal strength of a window: `neutral` when `|composite| < 20`; `strong` (`|composite| >= 60`)
 * and `moderate` need at least 100 trades; else `weak`.
 * @see docs/methodology.md#flow-window-scores
 */
export function signalStrength(composite: number, tradeCount: number): "strong" | "moderate" | "weak" | "neutral" {
  const a = Math.abs(composite);
  if (a < 20) return "neutral";
  if (tradeCount < 100) return "weak";
  return a >= 60 ? "strong" : "moderate";
}
