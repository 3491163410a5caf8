/**
 * Market overview: market-wide (or a ticker list's) premium, volume, direction, FIR and premium RVOL.
 * @see docs/methodology.md#flow-market-overview
 */
import { sessionBounds } from "../time";
import type { IsoDate } from "../time";
import { directionSign } from "./direction";
import type { ScoredTrade } from "./flow-score";
import { RATIO_PARAMS } from "./params";
import { premiumUsd } from "./trade-facts";
import type * as z from "zod";
import type { MarketOverviewSchema, TopTickerSummarySchema } from "./schemas";

/** One of the overview's top tickers. */
export type TopTickerSummary = z.output<typeof TopTickerSummarySchema>;
/** The market overview record. */
export type MarketOverview = z.output<typeof MarketOverviewSchema>;

/** Trades the overview reads (a cheap view: no score needed). */
export type OverviewTrade = Pick<ScoredTrade, "right" | "premiumUsd" | "size" | "aggression">;

/**
 * Premium of a session's prints through a time of day: prints with `open <= tsMs < open + elapsedMs`,
 * the baseline value of {@link marketOverview}'s `premiumRvol` for one prior session.
 * @example
 * premiumThroughTimeOfDay(prints, "2024-03-14", 3_600_000); // premium of the first hour
 * @see docs/methodology.md#flow-market-overview
 */
export function premiumThroughTimeOfDay(prints: ReadonlyArray<{ tsMs: number; price: number; size: number }>, date: IsoDate, elapsedMs: number): number {
  const { openMs, closeMs } = sessionBounds(date);
  const end = Math.min(closeMs, openMs + elapsedMs);
  let sum = 0;
  for (const p of prints) if (p.tsMs >= openMs && p.tsMs < end) sum += premiumUsd(p.price, p.size);
  return sum;
}

/**
 * The market overview from each ticker's trades of the session (so far) and the baseline premium
 * values (one per prior session, each through the same time of day; the trailing 20 sessions by
 * default, see `PREMIUM_RVOL_LOOKBACK_SESSIONS`). `premiumRvol` is null without a baseline (none
 * given, or a mean of 0).
 * @example
 * marketOverview("2024-03-15", [{ ticker: "SPY", trades }], [1.2e9, 1.1e9]).premiumRvol;
 * @see docs/methodology.md#flow-market-overview
 */
export function marketOverview(
  date: IsoDate,
  tickers: ReadonlyArray<{ ticker: string; trades: readonly OverviewTrade[] }>,
  baselinePremium: readonly number[],
  topN = 10,
): MarketOverview {
  const o: MarketOverview = {
    date,
    totalPremium: 0,
    totalVolume: 0,
    callPremium: 0,
    putPremium: 0,
    netPremium: 0,
    callVolume: 0,
    putVolume: 0,
    callPutRatio: 0,
    activeTickers: 0,
    bullishPremium: 0,
    bearishPremium: 0,
    directionalNet: 0,
    fir: 0,
    premiumRvol: null,
    topTickers: [],
  };
  const tops: TopTickerSummary[] = [];
  for (const { ticker, trades } of tickers) {
    if (trades.length === 0) continue;
    o.activeTickers++;
    const s: TopTickerSummary = { ticker, totalPremium: 0, totalVolume: 0, callPremium: 0, putPremium: 0, netPremium: 0 };
    for (const t of trades) {
      s.totalPremium += t.premiumUsd;
      s.totalVolume += t.size;
      if (t.right === "C") {
        s.callPremium += t.premiumUsd;
        o.callVolume += t.size;
      } else {
        s.putPremium += t.premiumUsd;
        o.putVolume += t.size;
      }
      const d = directionSign(t);
      if (d > 0) o.bullishPremium += t.premiumUsd;
      else if (d < 0) o.bearishPremium += t.premiumUsd;
    }
    s.netPremium = s.callPremium - s.putPremium;
    o.totalPremium += s.totalPremium;
    o.totalVolume += s.totalVolume;
    o.callPremium += s.callPremium;
    o.putPremium += s.putPremium;
    tops.push(s);
  }
  o.netPremium = o.callPremium - o.putPremium;
  o.callPutRatio = o.putPremium > 0 ? Math.min(RATIO_PARAMS.cap, o.callPremium / o.putPremium) : o.callPremium > 0 ? RATIO_PARAMS.cap : 0;
  o.directionalNet = o.bullishPremium - o.bearishPremium;
  const directional = o.bullishPremium + o.bearishPremium;
  o.fir = directional > 0 ? (100 * o.directionalNet) / directional : 0;
  let base = 0;
  for (const b of baselinePremium) base += b;
  base = baselinePremium.length > 0 ? base / baselinePremium.length : 0;
  o.premiumRvol = base > 0 ? o.totalPremium / base : null;
  o.topTickers = tops.sort((a, b) => b.totalPremium - a.totalPremium || (a.ticker < b.ticker ? -1 : 1)).slice(0, topN);
  return o;
}
