/**
 * Market breadth from options flow: the major index ETFs' sentiment, an advance/decline count of
 * tickers by their FIR, and each sector's rotation signal.
 * @see docs/methodology.md#flow-market-wide-screens
 */
import * as z from "zod";
import type { IsoDate } from "../time";
import { ADVANCE_DECLINE_RATIO_CAP, BREADTH_MAJOR_INDICES, ROTATION_FIR, SENTIMENT_FIR } from "./market-params";
import { firOf, SECTOR_ETFS } from "./sectors";

/** Sentiment labels, most bullish first. */
export const SENTIMENTS = ["strong_bullish", "bullish", "slightly_bullish", "neutral", "slightly_bearish", "bearish", "strong_bearish"] as const;
const SentimentSchema = z.enum(SENTIMENTS);

/**
 * The sentiment label of a FIR. @see docs/methodology.md#flow-market-wide-screens
 * @example sentimentOf(30); // "bullish"
 */
export function sentimentOf(fir: number): (typeof SENTIMENTS)[number] {
  const a = Math.abs(fir);
  const level = a >= SENTIMENT_FIR.strong ? 0 : a >= SENTIMENT_FIR.normal ? 1 : a >= SENTIMENT_FIR.slight ? 2 : 3;
  return level === 3 ? "neutral" : fir > 0 ? SENTIMENTS[level] : SENTIMENTS[6 - level];
}

/** The rotation signal of a sector's FIR. @example rotationSignal(-20); // "outflow" */
export function rotationSignal(fir: number): "strong_inflow" | "inflow" | "neutral" | "outflow" | "strong_outflow" {
  if (fir >= ROTATION_FIR.strong) return "strong_inflow";
  if (fir >= ROTATION_FIR.normal) return "inflow";
  if (fir <= -ROTATION_FIR.strong) return "strong_outflow";
  if (fir <= -ROTATION_FIR.normal) return "outflow";
  return "neutral";
}

const int = z.number().int().min(0);

/** `data` of the market breadth (reference `MarketBreadthResponse`). */
export const MarketBreadthSchema = z.object({
  date: z.string(),
  majorIndices: z.array(
    z.object({ ticker: z.string(), bullishPremium: z.number(), bearishPremium: z.number(), netPremium: z.number(), fir: z.number(), sentiment: SentimentSchema }),
  ),
  aggregateSentiment: z.object({
    combinedBullish: z.number(),
    combinedBearish: z.number(),
    combinedNetPremium: z.number(),
    combinedFir: z.number(),
    sentiment: SentimentSchema,
  }),
  advanceDecline: z.object({
    advancing: int,
    declining: int,
    unchanged: int,
    total: int,
    ratio: z.number().meta({ description: `advancing / declining, capped at ${ADVANCE_DECLINE_RATIO_CAP}; 0 when nothing declines.` }),
    breadthPct: z.number().meta({ description: "Percent of the tickers that advance." }),
    marketAvgFir: z.number().meta({ description: "Mean FIR of the tickers, -100..100." }),
  }),
  sectorRotation: z.array(
    z.object({
      sector: z.string(),
      etf: z.string(),
      fir: z.number(),
      netPremium: z.number().meta({ description: "Bullish minus bearish premium of the sector's tickers, USD." }),
      signal: z.enum(["strong_inflow", "inflow", "neutral", "outflow", "strong_outflow"]),
    }),
  ),
});
/** The market breadth record. */
export type MarketBreadth = z.output<typeof MarketBreadthSchema>;

/** One ticker's session as the breadth reads it. */
export interface BreadthTicker {
  ticker: string;
  sector: string;
  /** False when the ticker had no trade (it is then left out of every count). */
  traded: boolean;
  bullishPremium: number;
  bearishPremium: number;
}

/**
 * Market breadth of one session over the tickers that traded. `majorIndices`: SPY, QQQ, IWM (those
 * present), each with bullish, bearish and net (bullish - bearish) premium, FIR and its sentiment;
 * `aggregateSentiment` the same over their summed premium. Advance/decline: a ticker advances when
 * `fir > 0` and `fir >= firThreshold`, declines when `fir < 0` and `fir <= -firThreshold`, else is
 * unchanged; `ratio` = advancing / declining capped (0 without decliners), `breadthPct` = 100
 * advancing / total, `marketAvgFir` the mean FIR. `sectorRotation`: every sector ETF with the FIR
 * and net premium of the traded tickers of that sector and its signal.
 * @example
 * marketBreadth("2024-03-06", tickers, 10).advanceDecline.breadthPct;
 * @see docs/methodology.md#flow-market-wide-screens
 */
export function marketBreadth(date: IsoDate, tickers: readonly BreadthTicker[], firThreshold: number): MarketBreadth {
  const traded = tickers.filter((t) => t.traded);
  const majorIndices = BREADTH_MAJOR_INDICES.flatMap((sym) => {
    const t = traded.find((x) => x.ticker === sym);
    if (!t) return [];
    const fir = firOf(t.bullishPremium, t.bearishPremium);
    return [
      {
        ticker: sym,
        bullishPremium: t.bullishPremium,
        bearishPremium: t.bearishPremium,
        netPremium: t.bullishPremium - t.bearishPremium,
        fir,
        sentiment: sentimentOf(fir),
      },
    ];
  });
  const combinedBullish = majorIndices.reduce((s, x) => s + x.bullishPremium, 0);
  const combinedBearish = majorIndices.reduce((s, x) => s + x.bearishPremium, 0);
  const combinedFir = firOf(combinedBullish, combinedBearish);
  let advancing = 0,
    declining = 0,
    firSum = 0;
  for (const t of traded) {
    const fir = firOf(t.bullishPremium, t.bearishPremium);
    firSum += fir;
    if (fir > 0 && fir >= firThreshold) advancing++;
    else if (fir < 0 && fir <= -firThreshold) declining++;
  }
  const total = traded.length;
  const sectorRotation = SECTOR_ETFS.map(({ sector, etf }) => {
    let bull = 0,
      bear = 0;
    for (const t of traded) {
      if (t.sector !== sector) continue;
      bull += t.bullishPremium;
      bear += t.bearishPremium;
    }
    const fir = firOf(bull, bear);
    return { sector, etf, fir, netPremium: bull - bear, signal: rotationSignal(fir) };
  });
  return {
    date,
    majorIndices,
    aggregateSentiment: { combinedBullish, combinedBearish, combinedNetPremium: combinedBullish - combinedBearish, combinedFir, sentiment: sentimentOf(combinedFir) },
    advanceDecline: {
      advancing,
      declining,
      unchanged: total - advancing - declining,
      total,
      ratio: declining > 0 ? Math.min(advancing / declining, ADVANCE_DECLINE_RATIO_CAP) : 0,
      breadthPct: total > 0 ? (100 * advancing) / total : 0,
      marketAvgFir: total > 0 ? firSum / total : 0,
    },
    sectorRotation,
  };
}
