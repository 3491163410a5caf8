/**
 * Premium and sentiment by option type and moneyness category, notable patterns and an
 * interpretation (the reference's `/v1/moneyness/{ticker}`).
 * @see docs/methodology.md#flow-moneyness-breakdown
 */
import * as z from "zod";
import { directionSign } from "./direction";
import { roundHalfAway, type ScoredTrade } from "./flow-score";
import { MONEYNESS_CATEGORIES } from "./trade-facts";

/** Weights, pattern shares and signal thresholds. @see docs/methodology.md#flow-moneyness-breakdown */
export const MONEYNESS_PARAMS = {
  /** `weightedPremium` multiplier per category, deep ITM first. */
  weights: [0.5, 0.75, 1, 1.25, 1.5],
  /** Share (percent of all premium) for each pattern, and the sentiment a directional one needs. */
  otmAccumulationPct: 25,
  atmConcentrationPct: 40,
  lotteryPct: 10,
  stockReplacementPct: 20,
  patternSentiment: 20,
  /** A side's premium at least this multiple of the other's is a skew. */
  skewMultiple: 2,
  /** Significance: `high` from 40%, `medium` from 25%. */
  highPct: 40,
  mediumPct: 25,
  /** Overall sentiment: `bullish` from 40, `moderately_bullish` from 15 (mirrored). */
  strongSignal: 40,
  signal: 15,
  /** Focus group share (percent of all premium) needed to name a conviction focus. */
  focusPct: 30,
  /** Share of directional premium the largest (right, buy/sell) group needs to name a strategy. */
  strategyPct: 40,
} as const;

const KEYS = ["deepItm", "itm", "atm", "otm", "deepOtm"] as const;
const num = z.number();
const int = z.number().int();

const CategorySchema = z.object({ premium: num, sentiment: int.min(-100).max(100), pctOfTotal: num, tradeCount: int, weightedPremium: num });
const TypeSchema = z.object({
  deepItm: CategorySchema,
  itm: CategorySchema,
  atm: CategorySchema,
  otm: CategorySchema,
  deepOtm: CategorySchema,
  totalPremium: num,
  totalTrades: int,
});
const PATTERNS = [
  "otm_call_accumulation",
  "otm_put_accumulation",
  "atm_concentration",
  "lottery_ticket_calls",
  "itm_stock_replacement",
  "heavy_put_skew",
  "heavy_call_skew",
] as const;

/** The reference's `MoneynessNotablePattern`. */
export const MoneynessPatternSchema = z.object({
  pattern: z.enum(PATTERNS),
  description: z.string(),
  significance: z.enum(["high", "medium", "low"]),
  metrics: z.object({ premium: num, pctOfTotal: num, sentiment: int }),
});

/** What `moneynessBreakdown` returns (the reference's `MoneynessResponse` without ticker and timeframe). */
export const MoneynessBreakdownSchema = z.object({
  moneynessBreakdown: z.object({ calls: TypeSchema, puts: TypeSchema }),
  notablePatterns: z.array(MoneynessPatternSchema),
  interpretation: z.object({
    convictionFocus: z.enum(["otm_calls", "otm_puts", "atm", "distributed", "none"]),
    dominantStrategy: z.enum([
      "speculative_bullish",
      "call_selling",
      "bearish_speculation",
      "put_selling",
      "directional_bullish",
      "directional_bearish",
      "mixed",
      "no_activity",
    ]),
    signal: z.enum(["bullish", "moderately_bullish", "neutral", "moderately_bearish", "bearish"]),
  }),
});
export type MoneynessBreakdown = z.output<typeof MoneynessBreakdownSchema>;

/** Trades the breakdown reads. */
export type MoneynessTrade = Pick<ScoredTrade, "right" | "aggression" | "premiumUsd" | "moneyness">;

interface Acc {
  premium: number;
  net: number;
  n: number;
}
const sentimentOf = (a: Acc) => (a.premium > 0 ? roundHalfAway((100 * a.net) / a.premium) : 0);

/**
 * The breakdown of `trades`: per right and category the premium, sentiment `100 * (bullish -
 * bearish premium) / premium`, percent of all premium, trade count and weighted premium; the
 * patterns whose rules hold; the focus, strategy and signal.
 * @example moneynessBreakdown(trades).interpretation.signal
 * @see docs/methodology.md#flow-moneyness-breakdown
 */
export function moneynessBreakdown(trades: Iterable<MoneynessTrade>): MoneynessBreakdown {
  const P = MONEYNESS_PARAMS;
  const cells = { C: KEYS.map(() => ({ premium: 0, net: 0, n: 0 })), P: KEYS.map(() => ({ premium: 0, net: 0, n: 0 })) };
  // Directional premium by (right, bought/sold) and the OTM part of each, for the strategy.
  const flows = { CB: 0, CS: 0, PB: 0, PS: 0, CBotm: 0, PBotm: 0 };
  let total = 0;
  let net = 0;
  for (const t of trades) {
    const k = MONEYNESS_CATEGORIES.indexOf(t.moneyness);
    const d = directionSign(t);
    const c = cells[t.right][k];
    c.premium += t.premiumUsd;
    c.net += d * t.premiumUsd;
    c.n++;
    total += t.premiumUsd;
    net += d * t.premiumUsd;
    if (t.aggression !== 0) {
      const key = `${t.right}${t.aggression > 0 ? "B" : "S"}` as "CB" | "CS" | "PB" | "PS";
      flows[key] += t.premiumUsd;
      if (k >= 3 && t.aggression > 0) flows[t.right === "C" ? "CBotm" : "PBotm"] += t.premiumUsd;
    }
  }
  const pct = (x: number) => (total > 0 ? (100 * x) / total : 0);
  const typeBlock = (cs: Acc[]) => {
    const out: Record<string, unknown> = {};
    cs.forEach((c, i) => {
      out[KEYS[i]] = { premium: c.premium, sentiment: sentimentOf(c), pctOfTotal: pct(c.premium), tradeCount: c.n, weightedPremium: c.premium * P.weights[i] };
    });
    out.totalPremium = cs.reduce((s, c) => s + c.premium, 0);
    out.totalTrades = cs.reduce((s, c) => s + c.n, 0);
    return out as z.output<typeof TypeSchema>;
  };
  const merge = (...xs: Acc[]): Acc => xs.reduce((a, b) => ({ premium: a.premium + b.premium, net: a.net + b.net, n: a.n + b.n }), { premium: 0, net: 0, n: 0 });
  const otmCalls = merge(cells.C[3], cells.C[4]);
  const otmPuts = merge(cells.P[3], cells.P[4]);
  const atm = merge(cells.C[2], cells.P[2]);
  const itmCalls = merge(cells.C[0], cells.C[1]);
  const calls = merge(...cells.C);
  const puts = merge(...cells.P);

  const patterns: z.output<typeof MoneynessPatternSchema>[] = [];
  const significance = (p: number) => (p >= P.highPct ? "high" : p >= P.mediumPct ? "medium" : "low");
  const add = (pattern: (typeof PATTERNS)[number], a: Acc, description: string) => {
    const share = pct(a.premium);
    patterns.push({ pattern, description, significance: significance(share), metrics: { premium: a.premium, pctOfTotal: share, sentiment: sentimentOf(a) } });
  };
  if (pct(otmCalls.premium) >= P.otmAccumulationPct && sentimentOf(otmCalls) > P.patternSentiment) {
    add("otm_call_accumulation", otmCalls, "Out-of-the-money calls carry a large, net-bought share of the premium.");
  }
  if (pct(otmPuts.premium) >= P.otmAccumulationPct && sentimentOf(otmPuts) < -P.patternSentiment) {
    add("otm_put_accumulation", otmPuts, "Out-of-the-money puts carry a large, net-bought share of the premium.");
  }
  if (pct(atm.premium) >= P.atmConcentrationPct) add("atm_concentration", atm, "Premium is concentrated at the money.");
  if (pct(cells.C[4].premium) >= P.lotteryPct && sentimentOf(cells.C[4]) > P.patternSentiment) {
    add("lottery_ticket_calls", cells.C[4], "Deep out-of-the-money calls are being bought.");
  }
  if (pct(itmCalls.premium) >= P.stockReplacementPct && sentimentOf(itmCalls) > P.patternSentiment) {
    add("itm_stock_replacement", itmCalls, "In-the-money calls are being bought in size, a stock-replacement pattern.");
  }
  if (puts.premium > 0 && puts.premium >= P.skewMultiple * calls.premium) add("heavy_put_skew", puts, `Put premium is at least ${P.skewMultiple}x call premium.`);
  if (calls.premium > 0 && calls.premium >= P.skewMultiple * puts.premium) add("heavy_call_skew", calls, `Call premium is at least ${P.skewMultiple}x put premium.`);

  const s = total > 0 ? (100 * net) / total : 0;
  const signal =
    s >= P.strongSignal ? "bullish" : s >= P.signal ? "moderately_bullish" : s <= -P.strongSignal ? "bearish" : s <= -P.signal ? "moderately_bearish" : "neutral";
  const focusGroups = [
    ["otm_calls", otmCalls.premium],
    ["otm_puts", otmPuts.premium],
    ["atm", atm.premium],
  ] as const;
  const top = [...focusGroups].sort((a, b) => b[1] - a[1])[0];
  const convictionFocus = total === 0 ? "none" : pct(top[1]) >= P.focusPct ? top[0] : "distributed";
  const directional = flows.CB + flows.CS + flows.PB + flows.PS;
  const lead = (["CB", "CS", "PB", "PS"] as const).map((k) => [k, flows[k]] as const).sort((a, b) => b[1] - a[1])[0];
  let dominantStrategy: MoneynessBreakdown["interpretation"]["dominantStrategy"];
  if (total === 0) dominantStrategy = "no_activity";
  else if (directional === 0 || (100 * lead[1]) / directional < P.strategyPct) dominantStrategy = "mixed";
  else if (lead[0] === "CB") dominantStrategy = flows.CBotm >= flows.CB / 2 ? "speculative_bullish" : "directional_bullish";
  else if (lead[0] === "PB") dominantStrategy = flows.PBotm >= flows.PB / 2 ? "bearish_speculation" : "directional_bearish";
  else dominantStrategy = lead[0] === "CS" ? "call_selling" : "put_selling";

  return {
    moneynessBreakdown: { calls: typeBlock(cells.C), puts: typeBlock(cells.P) },
    notablePatterns: patterns,
    interpretation: { convictionFocus, dominantStrategy, signal },
  };
}
