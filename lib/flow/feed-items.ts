/**
 * Scored trades and sweeps in the reference's feed shapes (`FlowTradeItem`, `SweepItem`,
 * `SweepSummary`), so the server's flow feed and sweeps routes only page and filter.
 * @see docs/methodology.md#flow-feed-items
 */
import * as z from "zod";
import { formatTsNsIso } from "../market/prints/ts-ns";
import { roundHalfAway, type ScoredTrade } from "./flow-score";
import type { SweepGroup } from "./sweeps";
import { DTE_CATEGORIES, MONEYNESS_CATEGORIES } from "./trade-facts";
import { TRADE_SIDES } from "./trade-side";
import { FlowScoreComponentsSchema } from "./schemas";

/** Liquidity grade thresholds on the spread as a percent of the mid. @see docs/methodology.md#flow-feed-items */
export const LIQUIDITY_GRADES = { highBelowPct: 2, mediumBelowPct: 5 } as const;

const num = z.number();
const int = z.number().int();

/** One trade of the flow feed (the reference's `FlowTradeItem`, plus `side`, `components`, `repeatCount`, `conviction`). */
export const FlowTradeItemSchema = z.object({
  timestamp: z.string(),
  tradeId: z.string(),
  optionType: z.enum(["CALL", "PUT"]),
  strike: num,
  expiration: z.string(),
  dte: int,
  dteCategory: z.enum(DTE_CATEGORIES),
  contracts: int,
  premium: num,
  price: num,
  bid: num,
  ask: num,
  mid: num,
  spreadWidth: num,
  spreadWidthPct: num,
  liquidityGrade: z.enum(["HIGH", "MEDIUM", "LOW"]),
  underlyingPrice: num,
  isSweep: z.boolean(),
  isMultiLeg: z.boolean(),
  isCross: z.boolean(),
  exchangeCount: int.nullable(),
  moneyness: z.enum(MONEYNESS_CATEGORIES),
  moneynessPct: num,
  moneynessWeight: num,
  combinedMoneynessDteWeight: num,
  openInterest: int,
  oiIsZero: z.boolean(),
  dailyVolume: int,
  volOiRatio: num.nullable(),
  volOiScore: int,
  sizeOiRatio: num.nullable(),
  iv: num.nullable(),
  relativePremium: num,
  side: z.enum(TRADE_SIDES),
  repeatCount: int,
  conviction: num,
  components: FlowScoreComponentsSchema,
  scores: z.object({
    flowScore: int,
    flowScoreInterpretation: z.string(),
    flowBonus: int,
    flowBonusInterpretation: z.string(),
    baseDirection: int,
    convictionMultiplier: num,
  }),
});
/** One trade of the flow feed. */
export type FlowTradeItem = z.output<typeof FlowTradeItemSchema>;

/**
 * A scored trade in the feed's shape. `exchangeCount` is the sweep's distinct exchanges (1 for a
 * trade outside a sweep); `liquidityGrade` from the spread as a percent of the mid (`HIGH` under
 * 2%, `MEDIUM` under 5%, else `LOW`; `LOW` without a quote).
 * @example
 * flowTradeItem(scored[0], groups[scored[0].sweepGroup]).scores.flowScore;
 * @see docs/methodology.md#flow-feed-items
 */
export function flowTradeItem(t: ScoredTrade, sweep?: Pick<SweepGroup, "exchangeCount"> | null): FlowTradeItem {
  const quoted = t.side !== "N";
  const mid = quoted ? (t.bidUsd + t.askUsd) / 2 : 0;
  const width = quoted ? t.askUsd - t.bidUsd : 0;
  const widthPct = mid > 0 ? (100 * width) / mid : 0;
  const oi = t.openInterest ?? 0;
  return {
    timestamp: formatTsNsIso(t.tsNs),
    tradeId: t.id,
    optionType: t.right === "C" ? "CALL" : "PUT",
    strike: t.strike,
    expiration: t.expiry,
    dte: t.dte,
    dteCategory: t.dteCategory,
    contracts: t.size,
    premium: t.premiumUsd,
    price: t.priceUsd,
    bid: t.bidUsd,
    ask: t.askUsd,
    mid,
    spreadWidth: width,
    spreadWidthPct: widthPct,
    liquidityGrade: !(mid > 0) ? "LOW" : widthPct < LIQUIDITY_GRADES.highBelowPct ? "HIGH" : widthPct < LIQUIDITY_GRADES.mediumBelowPct ? "MEDIUM" : "LOW",
    underlyingPrice: t.underlyingPrice,
    isSweep: t.isSweep,
    isMultiLeg: t.isMultiLeg,
    isCross: t.isCross,
    exchangeCount: t.isSweep ? (sweep?.exchangeCount ?? null) : 1,
    moneyness: t.moneyness,
    moneynessPct: t.moneynessPct,
    moneynessWeight: t.components.moneyness,
    combinedMoneynessDteWeight: t.components.moneyness * t.components.dte,
    openInterest: oi,
    oiIsZero: t.openInterest === 0,
    dailyVolume: t.dailyVolume,
    volOiRatio: t.volOiRatio,
    volOiScore: roundHalfAway(100 * t.components.volOi),
    sizeOiRatio: oi > 0 ? t.size / oi : null,
    iv: t.iv,
    relativePremium: t.sizeRatio,
    side: t.side,
    repeatCount: t.repeatCount,
    conviction: t.conviction,
    components: t.components,
    scores: {
      flowScore: t.flowScore,
      flowScoreInterpretation: t.flowScoreInterpretation,
      flowBonus: t.flowBonus,
      flowBonusInterpretation: t.flowBonusInterpretation,
      baseDirection: roundHalfAway(t.baseDirection),
      convictionMultiplier: t.convictionMultiplier,
    },
  };
}

/** One logical sweep (the reference's `SweepItem`). */
export const SweepItemSchema = z.object({
  timestamp: z.string(),
  optionType: z.enum(["CALL", "PUT"]),
  strike: num,
  expiration: z.string(),
  dte: int,
  totalContracts: int,
  totalPremium: num,
  exchangeCount: int,
  exchanges: z.array(z.string()),
  executionTimeMs: int,
  spreadPosition: z.enum(["AT_ASK", "ABOVE_MID", "AT_MID", "BELOW_MID", "AT_BID", "UNKNOWN"]),
  moneyness: z.enum(MONEYNESS_CATEGORIES),
  scores: z.object({ flowScore: int, flowBonus: int }),
});
/** One logical sweep. */
export type SweepItem = z.output<typeof SweepItemSchema>;

/**
 * A sweep in the feed's shape, from its group and the batch's scored trades (indexed like the
 * prints the group was built from). Its scores are the premium-weighted means of its fills'
 * Flow Scores and FlowBonuses, rounded half away from zero; DTE and moneyness are the first fill's.
 * @example
 * sweepItem(groups[0], scored).scores.flowScore;
 * @see docs/methodology.md#flow-feed-items
 */
export function sweepItem(g: SweepGroup, trades: readonly ScoredTrade[]): SweepItem {
  let premium = 0;
  let score = 0;
  let bonus = 0;
  for (const i of g.printIndices) {
    premium += trades[i].premiumUsd;
    score += trades[i].premiumUsd * trades[i].flowScore;
    bonus += trades[i].premiumUsd * trades[i].flowBonus;
  }
  const first = trades[g.printIndices[0]];
  return {
    timestamp: formatTsNsIso(g.firstTsNs),
    optionType: g.right === "C" ? "CALL" : "PUT",
    strike: g.strike,
    expiration: g.expiry,
    dte: first.dte,
    totalContracts: g.totalContracts,
    totalPremium: g.totalPremiumUsd,
    exchangeCount: g.exchangeCount,
    exchanges: g.exchanges,
    executionTimeMs: g.executionTimeMs,
    spreadPosition: g.spreadPosition,
    moneyness: first.moneyness,
    scores: {
      flowScore: premium > 0 ? roundHalfAway(score / premium) : first.flowScore,
      flowBonus: premium > 0 ? roundHalfAway(bonus / premium) : first.flowBonus,
    },
  };
}

/** The sweeps summary (the reference's `SweepSummary`). */
export const SweepSummarySchema = z.object({
  totalSweeps: int,
  bullishSweeps: int,
  bearishSweeps: int,
  totalSweepPremium: num,
  sdf: num,
  returnedCount: int,
});
/** The sweeps summary. */
export type SweepSummary = z.output<typeof SweepSummarySchema>;

/**
 * Summary of a day's sweeps: counts (bullish when the sweep is on the ask side of a call or the bid
 * side of a put), total premium and `sdf = 100 * (bullish - bearish premium) / total premium`.
 * @example
 * sweepSummary(groups, 100).sdf;
 * @see docs/methodology.md#flow-feed-items
 */
export function sweepSummary(groups: readonly SweepGroup[], returnedCount: number): SweepSummary {
  let bull = 0,
    bear = 0,
    bullPrem = 0,
    bearPrem = 0;
  for (const g of groups) {
    if (g.sideSign > 0 === (g.right === "C")) {
      bull++;
      bullPrem += g.totalPremiumUsd;
    } else {
      bear++;
      bearPrem += g.totalPremiumUsd;
    }
  }
  const total = bullPrem + bearPrem;
  return {
    totalSweeps: groups.length,
    bullishSweeps: bull,
    bearishSweeps: bear,
    totalSweepPremium: total,
    sdf: total > 0 ? (100 * (bullPrem - bearPrem)) / total : 0,
    returnedCount,
  };
}
