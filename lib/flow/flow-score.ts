/**
 * Flow Score (-100..+100) and FlowBonus (0..100) per print: the per-object path. It is the
 * readable reference (the oracle) of the columnar batch path in `flow-columns.ts`.
 * @see docs/methodology.md#flow-score
 */
import type { OptionPrint } from "../market/prints/schemas";
import { isCrossPrint, isMultiLegPrint } from "../market/prints/conditions";
import { etDateOf } from "../time";
import { DTE_CONVICTION, FLOW_LABELS, FLOW_SCORE_PARAMS, MONEYNESS_CONVICTION } from "./params";
import { DEFAULT_FLOW_SCORE_WEIGHTS, type FlowScoreWeights } from "./score-weights";
import { groupSweeps } from "./sweeps";
import { dteCategoryOf, dteDays, moneynessOf, moneynessPct as moneynessPctOf, premiumUsd as premiumUsdOf } from "./trade-facts";
import { classifySide, aggressionOf } from "./trade-side";
import type * as z from "zod";
import type { FlowScoreComponentsSchema, ScoredTradeSchema } from "./schemas";

/** The six conviction components of a scored trade, each in [0, 1]. */
export type FlowScoreComponents = z.output<typeof FlowScoreComponentsSchema>;
/** One print with its facts, components and scores. */
export type ScoredTrade = z.output<typeof ScoredTradeSchema>;

/** Labels of a Flow Score. */
export type FlowScoreLabel = "strong_bullish" | "bullish" | "neutral" | "bearish" | "strong_bearish";
/** Labels of a FlowBonus. */
export type FlowBonusLabel = "high_conviction" | "moderate_conviction" | "low_conviction";

/** What scoring needs besides the prints. */
export interface FlowScoreContext {
  /** The ticker's typical premium per print, USD (see `premiumNorm`). */
  normPremiumUsd: number;
  /** Open interest at the session's start by contract symbol; a missing symbol is unknown OI. */
  openInterest: ReadonlyMap<string, number>;
  weights?: FlowScoreWeights;
}

/**
 * Rounds half away from zero (so +2.5 -> 3 and -2.5 -> -3) and never returns -0.
 * @see docs/methodology.md#flow-score
 */
export function roundHalfAway(x: number): number {
  const r = x < 0 ? -Math.round(-x) : Math.round(x);
  return r === 0 ? 0 : r;
}

/** Label of a Flow Score. @see docs/methodology.md#flow-score */
export function flowScoreLabel(score: number): FlowScoreLabel {
  if (score >= FLOW_LABELS.strong) return "strong_bullish";
  if (score >= FLOW_LABELS.directional) return "bullish";
  if (score <= -FLOW_LABELS.strong) return "strong_bearish";
  if (score <= -FLOW_LABELS.directional) return "bearish";
  return "neutral";
}

/** Label of a FlowBonus. @see docs/methodology.md#flow-score */
export function flowBonusLabel(bonus: number): FlowBonusLabel {
  if (bonus >= FLOW_LABELS.highConviction) return "high_conviction";
  if (bonus >= FLOW_LABELS.moderateConviction) return "moderate_conviction";
  return "low_conviction";
}

/**
 * Size component: 0 at or below the norm, `ln(ratio) / ln(100)` above it, capped at 1.
 * @example
 * sizeComponent(10); // 0.5
 * @see docs/methodology.md#flow-score
 */
export function sizeComponent(sizeRatio: number): number {
  return sizeRatio > 1 ? Math.min(1, Math.log(sizeRatio) / Math.log(FLOW_SCORE_PARAMS.sizeSaturationRatio)) : 0;
}

/**
 * The ticker's premium norm: the median premium per print (USD) of a sample of its prints
 * (prior sessions); 0 for an empty sample.
 * @example
 * premiumNorm([{ price: 1, size: 1 }, { price: 2, size: 1 }, { price: 10, size: 1 }]); // 200
 * @see docs/methodology.md#flow-score
 */
export function premiumNorm(prints: ReadonlyArray<Pick<OptionPrint, "price" | "size">>): number {
  if (prints.length === 0) return 0;
  const v = prints.map((p) => premiumUsdOf(p.price, p.size)).sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

/**
 * Scores a session's prints of one ticker (time order, from the open): every trade with its
 * facts, its six conviction components, its Flow Score and FlowBonus. Plain objects and maps:
 * the reference the columnar `scoreFlowColumns` must match exactly.
 * @example
 * const scored = scoreFlow(prints, { normPremiumUsd: premiumNorm(priorPrints), openInterest });
 * @see docs/methodology.md#flow-score
 */
export function scoreFlow(prints: readonly OptionPrint[], context: FlowScoreContext): ScoredTrade[] {
  const w = context.weights ?? DEFAULT_FLOW_SCORE_WEIGHTS;
  const P = FLOW_SCORE_PARAMS;
  const { groupOf } = groupSweeps(prints);
  const volumeSoFar = new Map<string, number>();
  const orderTimes = new Map<string, { times: number[]; start: number; lastGroup: number }>();
  const out: ScoredTrade[] = [];
  for (let i = 0; i < prints.length; i++) {
    const p = prints[i];
    const side = classifySide(p.price, p.nbboBid, p.nbboAsk);
    const cross = isCrossPrint(p);
    const multiLeg = isMultiLegPrint(p);
    const aggression = cross ? 0 : aggressionOf(side);
    const premium = premiumUsdOf(p.price, p.size);
    const mPct = moneynessPctOf(p.right, p.strike, p.underlyingPrice);
    const moneyness = moneynessOf(mPct);
    const dte = dteDays(etDateOf(p.tsMs), p.expiry);
    const dteCategory = dteCategoryOf(dte);
    const group = groupOf[i];

    const volume = (volumeSoFar.get(p.symbol) ?? 0) + p.size;
    volumeSoFar.set(p.symbol, volume);
    const oi = context.openInterest.get(p.symbol);
    const known = oi !== undefined && Number.isFinite(oi) && oi >= 0;
    const volOiRatio = known && oi > 0 ? volume / oi : null;
    const volOi = !known ? 0 : oi > 0 ? Math.min(1, volume / oi / P.volOiSaturation) : 1;

    let repeatCount = 0;
    if (aggression !== 0) {
      const key = `${p.symbol}|${aggression > 0 ? 1 : 0}`;
      let o = orderTimes.get(key);
      if (!o) {
        o = { times: [], start: 0, lastGroup: -1 };
        orderTimes.set(key, o);
      }
      const cutoff = p.tsMs - P.repeatWindowMs;
      while (o.start < o.times.length && o.times[o.start] < cutoff) o.start++;
      const continuation = group >= 0 && group === o.lastGroup;
      repeatCount = Math.min(P.repeatSaturation, o.times.length - o.start - (continuation ? 1 : 0));
      if (!continuation) {
        o.times.push(p.tsMs);
        o.lastGroup = group;
      }
    }

    const sizeRatio = context.normPremiumUsd > 0 ? premium / context.normPremiumUsd : 1;
    const components: FlowScoreComponents = {
      size: sizeComponent(sizeRatio),
      sweep: group >= 0 ? 1 : 0,
      moneyness: MONEYNESS_CONVICTION[moneyness],
      dte: DTE_CONVICTION[dteCategory],
      volOi,
      repeat: repeatCount / P.repeatSaturation,
    };
    const conviction =
      w.size * components.size +
      w.sweep * components.sweep +
      w.moneyness * components.moneyness +
      w.dte * components.dte +
      w.volOi * components.volOi +
      w.repeat * components.repeat;
    const multiplier = P.convictionFloor + (1 - P.convictionFloor) * conviction;
    // "+ 0" turns the -0 of a put with aggression 0 into 0.
    const baseDirection = 100 * aggression * (p.right === "C" ? 1 : -1) * (multiLeg ? P.multiLegDirectionFactor : 1) + 0;
    const flowScore = Math.max(-100, Math.min(100, roundHalfAway(baseDirection * multiplier)));
    const flowBonus = Math.max(0, Math.min(100, roundHalfAway(100 * conviction)));
    out.push({
      // The print's fields written out (not spread): see scored-trades.ts.
      id: p.id,
      tsMs: p.tsMs,
      tsNs: p.tsNs,
      symbol: p.symbol,
      root: p.root,
      underlying: p.underlying,
      expiry: p.expiry,
      strike: p.strike,
      right: p.right,
      priceUsd: p.price,
      size: p.size,
      exchange: p.exchange,
      bidUsd: p.nbboBid,
      askUsd: p.nbboAsk,
      side,
      aggression,
      premiumUsd: premium,
      underlyingPrice: p.underlyingPrice,
      iv: p.iv,
      moneynessPct: mPct,
      moneyness,
      dte,
      dteCategory,
      isSweep: group >= 0,
      sweepGroup: group,
      isMultiLeg: multiLeg,
      isCross: cross,
      openInterest: known ? oi : null,
      dailyVolume: volume,
      volOiRatio,
      sizeRatio,
      repeatCount,
      components,
      baseDirection,
      conviction,
      convictionMultiplier: multiplier,
      flowScore,
      flowScoreInterpretation: flowScoreLabel(flowScore),
      flowBonus,
      flowBonusInterpretation: flowBonusLabel(flowBonus),
    });
  }
  return out;
}
