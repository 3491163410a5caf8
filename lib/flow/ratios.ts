/**
 * Contract and chain ratios (bid/ask/mid distribution) with the spec's `interpretation` object.
 * @see docs/methodology.md#flow-ratios-and-interpretation
 */
import { sessionBounds } from "../time";
import type { IsoDate } from "../time";
import type { ScoredTrade } from "./flow-score";
import { directionSign } from "./direction";
import { MONEYNESS_BANDS, RATIO_PARAMS } from "./params";
import { SIDE_BUCKET, SIDE_CODE } from "./trade-side";
import type * as z from "zod";
import type { ChainRatioResultSchema, ChainRatiosSchema, ContractRatioResultSchema, ContractRatiosSchema, RatioInterpretationSchema } from "./schemas";

/** The spec's interpretation object. */
export type RatioInterpretation = z.output<typeof RatioInterpretationSchema>;
/** Bid/ask/mid shares of trade counts. */
export type ContractRatios = z.output<typeof ContractRatiosSchema>;
/** The contract-ratio record. */
export type ContractRatioResult = z.output<typeof ContractRatioResultSchema>;
/** Chain-level ratios. */
export type ChainRatios = z.output<typeof ChainRatiosSchema>;
/** The chain-ratio record. */
export type ChainRatioResult = z.output<typeof ChainRatioResultSchema>;

/** Timeframes of the ratio endpoints. */
export const RATIO_TIMEFRAMES = ["5m", "15m", "1h", "4h", "1d"] as const;
/** One timeframe. */
export type RatioTimeframe = (typeof RATIO_TIMEFRAMES)[number];
const TIMEFRAME_MS: Readonly<Record<RatioTimeframe, number>> = {
  "5m": 300_000,
  "15m": 900_000,
  "1h": 3_600_000,
  "4h": 14_400_000,
  "1d": Number.POSITIVE_INFINITY,
};

/**
 * The `[fromMs, toMs)` window of a timeframe on a session: it ends at the close or at `nowMs`
 * (whichever is first) and reaches back the timeframe's length, never before the open (`1d` is
 * the whole session so far).
 * @example
 * timeframeWindow("2024-03-15", "1h", Date.UTC(2024, 2, 15, 15, 0)); // { fromMs: 14:00Z, toMs: 15:00Z }
 * @see docs/methodology.md#flow-ratios-and-interpretation
 */
export function timeframeWindow(date: IsoDate, timeframe: RatioTimeframe, nowMs = Number.POSITIVE_INFINITY): { fromMs: number; toMs: number } {
  const { openMs, closeMs } = sessionBounds(date);
  const toMs = Math.max(openMs, Math.min(closeMs, nowMs));
  return { fromMs: Math.max(openMs, toMs - TIMEFRAME_MS[timeframe]), toMs };
}

/** Trades the ratios read. */
export type RatioTrade = Pick<ScoredTrade, "side" | "aggression" | "right" | "premiumUsd" | "size" | "moneynessPct" | "dte">;

const cap = (num: number, den: number) => (den > 0 ? Math.min(RATIO_PARAMS.cap, num / den) : num > 0 ? RATIO_PARAMS.cap : 0);
const pct = (x: number) => `${Math.round(100 * x)}%`;

/** Counts by ratio bucket and the directional premium split. */
function tally(trades: readonly RatioTrade[]) {
  let ask = 0,
    bid = 0,
    mid = 0,
    premium = 0,
    volume = 0,
    bull = 0,
    bear = 0;
  for (const t of trades) {
    const b = SIDE_BUCKET[SIDE_CODE[t.side]];
    if (b > 0) ask++;
    else if (b < 0) bid++;
    else mid++;
    premium += t.premiumUsd;
    volume += t.size;
    const d = directionSign(t);
    if (d > 0) bull += t.premiumUsd;
    else if (d < 0) bear += t.premiumUsd;
  }
  return { ask, bid, mid, premium, volume, bull, bear, count: trades.length };
}

/**
 * The interpretation of a set of trades: bias from the premium-weighted flow imbalance (`fir`),
 * aggression from the share of trades at or beyond the bid or ask, confidence from the trade count.
 * @example
 * ratioInterpretation({ count: 120, ask: 80, bid: 20, premium: 1e6, bull: 7e5, bear: 2e5 }).bias; // "BULLISH"
 * @see docs/methodology.md#flow-ratios-and-interpretation
 */
export function ratioInterpretation(t: { count: number; ask: number; bid: number; premium: number; bull: number; bear: number }): RatioInterpretation {
  const P = RATIO_PARAMS;
  const directional = t.bull + t.bear;
  const fir = directional > 0 ? (100 * (t.bull - t.bear)) / directional : 0;
  const directionalShare = t.premium > 0 ? directional / t.premium : 0;
  const sideShare = t.count > 0 ? (t.ask + t.bid) / t.count : 0;
  const bias: RatioInterpretation["bias"] =
    t.count === 0 ? "NEUTRAL" : fir >= P.biasFirPct ? "BULLISH" : fir <= -P.biasFirPct ? "BEARISH" : directionalShare >= P.mixedDirectionalShare ? "MIXED" : "NEUTRAL";
  const aggression = sideShare >= P.highAggressionShare ? "HIGH" : sideShare >= P.mediumAggressionShare ? "MEDIUM" : "LOW";
  const confidence = t.count >= P.highConfidenceTrades ? "HIGH" : t.count >= P.mediumConfidenceTrades ? "MEDIUM" : "LOW";
  const description =
    t.count === 0
      ? "No trades in the window."
      : `${bias}: flow imbalance ${fir >= 0 ? "+" : ""}${Math.round(fir)} on ${pct(directionalShare)} of premium directional; ` +
        `${pct(sideShare)} of ${t.count} trades at or beyond the bid or ask.`;
  return { bias, aggression, confidence, description };
}

function shares(t: ReturnType<typeof tally>): ContractRatios {
  const n = t.count;
  return {
    askRatio: n > 0 ? t.ask / n : 0,
    bidRatio: n > 0 ? t.bid / n : 0,
    midRatio: n > 0 ? t.mid / n : 0,
    aggressionRatio: cap(t.ask + t.bid, t.mid),
  };
}

/**
 * Ratios of one contract's trades (already limited to the timeframe's window). Trades below
 * `minPremiumUsd` are left out.
 * @example
 * contractRatio(trades, { symbol, ticker: "SPY", right: "C", date: "2024-03-15", timeframe: "1d" });
 * @see docs/methodology.md#flow-ratios-and-interpretation
 */
export function contractRatio(
  trades: readonly RatioTrade[],
  o: { symbol: string; ticker: string; right: "C" | "P" | null; date: IsoDate; timeframe: RatioTimeframe; minPremiumUsd?: number },
): ContractRatioResult {
  const kept = trades.filter((t) => t.premiumUsd >= (o.minPremiumUsd ?? 0));
  const t = tally(kept);
  return {
    symbol: o.symbol,
    ticker: o.ticker,
    optionType: o.right === "C" ? "CALL" : o.right === "P" ? "PUT" : "UNKNOWN",
    date: o.date,
    timeframe: o.timeframe,
    tradeCount: t.count,
    totalVolume: t.volume,
    totalPremium: t.premium,
    contractRatios: shares(t),
    interpretation: ratioInterpretation(t),
  };
}

/**
 * Ratios of a ticker's trades (already limited to the timeframe's window), filtered by
 * `optionType`, `minPremiumUsd`, `minDte`, `maxDte`.
 * @example
 * chainRatio(trades, { ticker: "SPY", date: "2024-03-15", timeframe: "1h" }).chainRatios.callPutRatio;
 * @see docs/methodology.md#flow-ratios-and-interpretation
 */
export function chainRatio(
  trades: readonly RatioTrade[],
  o: { ticker: string; date: IsoDate; timeframe: RatioTimeframe; optionType?: "call" | "put" | "all"; minPremiumUsd?: number; minDte?: number; maxDte?: number },
): ChainRatioResult {
  const type = o.optionType ?? "all";
  const kept = trades.filter(
    (t) =>
      (type === "all" || (type === "call") === (t.right === "C")) &&
      t.premiumUsd >= (o.minPremiumUsd ?? 0) &&
      t.dte >= (o.minDte ?? 0) &&
      t.dte <= (o.maxDte ?? Number.POSITIVE_INFINITY),
  );
  const t = tally(kept);
  let callPremium = 0,
    putPremium = 0,
    volume = 0,
    atm = 0,
    callVol = 0,
    putVol = 0,
    otmCall = 0,
    otmPut = 0;
  for (const x of kept) {
    volume += x.size;
    if (Math.abs(x.moneynessPct) <= MONEYNESS_BANDS.atmPct) atm += x.size;
    const otm = x.moneynessPct > MONEYNESS_BANDS.atmPct;
    if (x.right === "C") {
      callPremium += x.premiumUsd;
      callVol += x.size;
      if (otm) otmCall += x.size;
    } else {
      putPremium += x.premiumUsd;
      putVol += x.size;
      if (otm) otmPut += x.size;
    }
  }
  return {
    ticker: o.ticker,
    date: o.date,
    timeframe: o.timeframe,
    tradeCount: t.count,
    totalPremium: t.premium,
    chainRatios: {
      callPutRatio: type === "all" ? cap(callPremium, putPremium) : null,
      ...shares(t),
      atmConcentration: volume > 0 ? atm / volume : 0,
      otmCallConcentration: callVol > 0 ? otmCall / callVol : 0,
      otmPutConcentration: putVol > 0 ? otmPut / putVol : 0,
    },
    interpretation: ratioInterpretation(t),
  };
}
