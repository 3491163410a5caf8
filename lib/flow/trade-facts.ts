/**
 * Per-print facts: premium, moneyness, DTE, side and aggression.
 * @see docs/methodology.md#flow-methodology
 */
import type { OptionPrint } from "../market/prints/schemas";
import { CONTRACT_MULTIPLIER, DTE_BOUNDS, MONEYNESS_BANDS } from "./params";
import { isCrossPrint, isMultiLegPrint, isSweepPrint } from "../market/prints/conditions";
import { classifySide, aggressionOf, type TradeSide } from "./trade-side";
import { etDateOf } from "../time";

/** Moneyness categories, deepest in the money first (index = numeric code). */
export const MONEYNESS_CATEGORIES = ["DEEP_ITM", "ITM", "ATM", "OTM", "DEEP_OTM"] as const;
/** One moneyness category. */
export type Moneyness = (typeof MONEYNESS_CATEGORIES)[number];

/** DTE categories, shortest first (index = numeric code). */
export const DTE_CATEGORIES = ["0DTE", "WEEKLY", "SHORT_TERM", "MEDIUM_TERM", "LONG_TERM", "LEAPS"] as const;
/** One DTE category. */
export type DteCategory = (typeof DTE_CATEGORIES)[number];

const DAY_MS = 86_400_000;

/**
 * Premium of a print in USD: `price * size * 100`.
 * @example
 * premiumUsd(2.5, 10); // 2500
 * @see docs/methodology.md#flow-premium
 */
export function premiumUsd(priceUsd: number, size: number): number {
  return priceUsd * size * CONTRACT_MULTIPLIER;
}

/**
 * Percent out of the money, signed: calls `100 (K - S) / S`, puts `100 (S - K) / S`; negative
 * in the money.
 * @example
 * moneynessPct("C", 110, 100); // 10
 * @see docs/methodology.md#flow-moneyness-and-dte
 */
export function moneynessPct(right: "C" | "P", strike: number, underlyingPrice: number): number {
  return right === "C" ? (100 * (strike - underlyingPrice)) / underlyingPrice : (100 * (underlyingPrice - strike)) / underlyingPrice;
}

/**
 * Numeric moneyness code (index into {@link MONEYNESS_CATEGORIES}) of a `moneynessPct`.
 * @example
 * moneynessCode(3); // 2 (ATM: the band is inclusive)
 * @see docs/methodology.md#flow-moneyness-and-dte
 */
export function moneynessCode(pct: number): number {
  if (pct <= -MONEYNESS_BANDS.deepPct) return 0;
  if (pct < -MONEYNESS_BANDS.atmPct) return 1;
  if (pct <= MONEYNESS_BANDS.atmPct) return 2;
  if (pct < MONEYNESS_BANDS.deepPct) return 3;
  return 4;
}

/** Moneyness category of a `moneynessPct`. @see docs/methodology.md#flow-moneyness-and-dte */
export function moneynessOf(pct: number): Moneyness {
  return MONEYNESS_CATEGORIES[moneynessCode(pct)];
}

/**
 * Calendar days from an ET session date to an expiration date (0 on the expiry day, never negative).
 * @example
 * dteDays("2024-03-15", "2024-03-22"); // 7
 * @see docs/methodology.md#flow-moneyness-and-dte
 */
export function dteDays(sessionDate: string, expiry: string): number {
  const d = Math.round((Date.parse(`${expiry}T00:00:00Z`) - Date.parse(`${sessionDate}T00:00:00Z`)) / DAY_MS);
  // biome-ignore lint/complexity/useMathMinMax: an unparsable date gives 0 here; Math.max would keep NaN
  return d > 0 ? d : 0;
}

/** Numeric DTE code (index into {@link DTE_CATEGORIES}). @see docs/methodology.md#flow-moneyness-and-dte */
export function dteCode(dte: number): number {
  if (dte <= 0) return 0;
  if (dte <= DTE_BOUNDS.weekly) return 1;
  if (dte <= DTE_BOUNDS.shortTerm) return 2;
  if (dte <= DTE_BOUNDS.mediumTerm) return 3;
  if (dte <= DTE_BOUNDS.longTerm) return 4;
  return 5;
}

/** DTE category of a day count. @see docs/methodology.md#flow-moneyness-and-dte */
export function dteCategoryOf(dte: number): DteCategory {
  return DTE_CATEGORIES[dteCode(dte)];
}

/** What {@link tradeFacts} derives from one print. */
export interface TradeFacts {
  side: TradeSide;
  /** -1..+1, 0 on crosses (see docs). */
  aggression: number;
  premiumUsd: number;
  /** (bid + ask) / 2 at the print, USD; 0 without an NBBO. */
  midUsd: number;
  moneynessPct: number;
  moneyness: Moneyness;
  dte: number;
  dteCategory: DteCategory;
  /** Carries an intermarket-sweep condition. */
  isSweepCondition: boolean;
  isMultiLeg: boolean;
  isCross: boolean;
}

/**
 * Side, aggression, premium, moneyness and DTE of one print. A pre-negotiated cross keeps its side
 * label but has aggression 0 (its execution side says nothing about who initiated it).
 * @example
 * tradeFacts(print).side; // "A"
 * @see docs/methodology.md#flow-trade-side
 */
export function tradeFacts(
  print: Pick<OptionPrint, "tsMs" | "price" | "size" | "nbboBid" | "nbboAsk" | "right" | "strike" | "underlyingPrice" | "expiry" | "conditions">,
): TradeFacts {
  const side = classifySide(print.price, print.nbboBid, print.nbboAsk);
  const isCross = isCrossPrint(print);
  const pct = moneynessPct(print.right, print.strike, print.underlyingPrice);
  const dte = dteDays(etDateOf(print.tsMs), print.expiry);
  return {
    side,
    aggression: isCross ? 0 : aggressionOf(side),
    premiumUsd: premiumUsd(print.price, print.size),
    midUsd: side === "N" ? 0 : (print.nbboBid + print.nbboAsk) / 2,
    moneynessPct: pct,
    moneyness: moneynessOf(pct),
    dte,
    dteCategory: dteCategoryOf(dte),
    isSweepCondition: isSweepPrint(print),
    isMultiLeg: isMultiLegPrint(print),
    isCross,
  };
}
