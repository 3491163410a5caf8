/**
 * One trade's scoring detail (the reference's `/v1/score/{trade_id}`): sentiment, urgency and
 * confidence, a direction and intent, the spread analysis and the trade's context.
 * @see docs/methodology.md#flow-trade-score
 */
import * as z from "zod";
import { formatTsNsIso } from "../market/prints/ts-ns";
import { roundHalfAway, type ScoredTrade } from "./flow-score";
import { BLOCK_MIN_CONTRACTS } from "./trade-rows";

/** Thresholds and weights. @see docs/methodology.md#flow-trade-score */
export const TRADE_SCORE_PARAMS = {
  /** `bullish` from 50, `moderately_bullish` from 15 (mirrored). */
  strong: 50,
  moderate: 15,
  /** Urgency = 100 (w_a |aggression| + w_s sweep). */
  aggressionWeight: 0.6,
  sweepWeight: 0.4,
} as const;

/**
 * The print id of our tapes, `ROOT-<epoch minute>-<k>`, as its root and minute (ms); null when the
 * id has another form.
 * @example parseTradeId("AAPL-28498680-3") // { root: "AAPL", minuteMs: 1709911800000 }
 */
export function parseTradeId(id: string): { root: string; minuteMs: number } | null {
  const m = /^([A-Z0-9.]{1,12})-(\d{1,10})-(\d{1,6})$/.exec(id);
  return m ? { root: m[1], minuteMs: Number(m[2]) * 60_000 } : null;
}

const POSITION: Record<string, string> = {
  AA: "above_ask",
  A: "at_ask",
  BA: "below_ask",
  M: "mid",
  AB: "above_bid",
  B: "at_bid",
  BB: "below_bid",
  N: "unknown",
};

/** The reference's `TradeScoreResponse`. */
export const TradeScoreSchema = z.object({
  tradeId: z.string(),
  scores: z.object({ sentiment: z.number().int().min(-100).max(100), urgency: z.number().int().min(0).max(100), confidence: z.number().min(0).max(1) }),
  interpretation: z.object({
    direction: z.enum(["bullish", "moderately_bullish", "neutral", "moderately_bearish", "bearish"]),
    intent: z.string(),
    description: z.string(),
  }),
  spreadAnalysis: z.object({
    bid: z.number(),
    ask: z.number(),
    mid: z.number(),
    tradePrice: z.number(),
    positionInSpread: z.enum(["above_ask", "at_ask", "below_ask", "mid", "above_bid", "at_bid", "below_bid", "unknown"]),
    spreadWidth: z.number(),
    spreadPct: z.number(),
  }),
  tradeContext: z.object({
    ticker: z.string(),
    timestamp: z.string(),
    optionType: z.enum(["call", "put"]),
    strike: z.number(),
    expiration: z.string(),
    premium: z.number(),
    size: z.number().int(),
    underlyingPrice: z.number(),
    tradeType: z.enum(["sweep", "block", "regular"]),
    dte: z.number().int(),
    moneyness: z.enum(["deep_itm", "itm", "atm", "otm", "deep_otm"]),
    moneynessPct: z.number(),
  }),
});
export type TradeScore = z.output<typeof TradeScoreSchema>;

/**
 * The intent token: `opening_long_*`/`opening_short_*` when the contract's volume so far exceeds
 * its opening open interest (part of it must be opening), else `aggressive_*_buy`/`_sell` at or
 * beyond a quote, `passive_*_buy`/`_sell` inside the spread, `cross_*` on a cross and `neutral_*`
 * at the mid or without a quote.
 */
export function tradeIntent(t: Pick<ScoredTrade, "aggression" | "right" | "isCross" | "dailyVolume" | "openInterest">): string {
  const kind = t.right === "C" ? "call" : "put";
  if (t.isCross) return `cross_${kind}`;
  if (t.aggression === 0) return `neutral_${kind}`;
  const buy = t.aggression > 0;
  if (t.openInterest !== null && t.dailyVolume > t.openInterest) return `opening_${buy ? "long" : "short"}_${kind}`;
  return `${Math.abs(t.aggression) >= 1 ? "aggressive" : "passive"}_${kind}_${buy ? "buy" : "sell"}`;
}

/**
 * The scoring detail of one scored trade: sentiment = Flow Score; urgency = round(100 (0.6
 * |aggression| + 0.4 sweep)); confidence = FlowBonus / 100; direction from the Flow Score.
 * @example tradeScore(trade, "AAPL").scores.sentiment === trade.flowScore
 * @see docs/methodology.md#flow-trade-score
 */
export function tradeScore(t: ScoredTrade, ticker: string): TradeScore {
  const P = TRADE_SCORE_PARAMS;
  const s = t.flowScore;
  const direction = s >= P.strong ? "bullish" : s >= P.moderate ? "moderately_bullish" : s <= -P.strong ? "bearish" : s <= -P.moderate ? "moderately_bearish" : "neutral";
  const quoted = t.side !== "N";
  const mid = quoted ? (t.bidUsd + t.askUsd) / 2 : 0;
  const width = quoted ? t.askUsd - t.bidUsd : 0;
  const tradeType = t.isSweep ? "sweep" : t.size >= BLOCK_MIN_CONTRACTS ? "block" : "regular";
  const intent = tradeIntent(t);
  const kind = t.right === "C" ? "call" : "put";
  return {
    tradeId: t.id,
    scores: {
      sentiment: s,
      urgency: roundHalfAway(100 * (P.aggressionWeight * Math.abs(t.aggression) + P.sweepWeight * (t.isSweep ? 1 : 0))),
      confidence: t.flowBonus / 100,
    },
    interpretation: {
      direction,
      intent,
      description:
        `${t.size} ${ticker} ${t.strike} ${kind}s expiring ${t.expiry} for $${Math.round(t.premiumUsd).toLocaleString("en-US")} ` +
        `(${POSITION[t.side].replace("_", " ")}, ${tradeType}): ${intent.replace(/_/g, " ")}, Flow Score ${s}.`,
    },
    spreadAnalysis: {
      bid: t.bidUsd,
      ask: t.askUsd,
      mid,
      tradePrice: t.priceUsd,
      positionInSpread: POSITION[t.side] as TradeScore["spreadAnalysis"]["positionInSpread"],
      spreadWidth: width,
      spreadPct: mid > 0 ? (100 * width) / mid : 0,
    },
    tradeContext: {
      ticker,
      timestamp: formatTsNsIso(t.tsNs),
      optionType: kind,
      strike: t.strike,
      expiration: t.expiry,
      premium: t.premiumUsd,
      size: t.size,
      underlyingPrice: t.underlyingPrice,
      tradeType,
      dte: t.dte,
      moneyness: t.moneyness.toLowerCase() as TradeScore["tradeContext"]["moneyness"],
      moneynessPct: t.moneynessPct,
    },
  };
}
