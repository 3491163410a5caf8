/**
 * Trade side against the NBBO at print time, and the aggression it implies.
 * @see docs/methodology.md#flow-trade-side
 */
import { SIDE_TOLERANCE } from "./params";

/**
 * Execution-side labels (the reference's codes): below bid, at bid, above bid (below mid), mid,
 * below ask (above mid), at ask, above ask, no usable NBBO. Index = the numeric side code used in
 * typed-array columns.
 */
export const TRADE_SIDES = ["N", "BB", "B", "AB", "M", "BA", "A", "AA"] as const;

/** One execution-side label. */
export type TradeSide = (typeof TRADE_SIDES)[number];

/** Numeric side codes (index into {@link TRADE_SIDES}). */
export const SIDE_CODE = { N: 0, BB: 1, B: 2, AB: 3, M: 4, BA: 5, A: 6, AA: 7 } as const satisfies Record<TradeSide, number>;

/**
 * Aggression of each side code, from -1 (seller-initiated) to +1 (buyer-initiated):
 * `AA`, `A` +1; `BA` +0.5; `M`, `N` 0; `AB` -0.5; `B`, `BB` -1. Indexed by side code.
 * @see docs/methodology.md#flow-trade-side
 */
export const SIDE_AGGRESSION: readonly number[] = [0, -1, -1, -0.5, 0, 0.5, 1, 1];

/** Slack added to every comparison, USD. @see docs/methodology.md#flow-trade-side */
export const FLOAT_SLACK_USD = 1e-9;

/** Ratio bucket of each side code: 1 ask (at or above ask), -1 bid (at or below bid), 0 mid (all else). */
export const SIDE_BUCKET: readonly number[] = [0, -1, -1, 0, 0, 0, 1, 1];

/**
 * The "at a quote" tolerance in USD for a spread: `min(max(0.005, 0.1 * spread), spread / 4)`,
 * or the absolute floor on a locked market.
 * @example
 * sideToleranceUsd(0.5); // 0.05
 * @see docs/methodology.md#flow-trade-side
 */
export function sideToleranceUsd(spreadUsd: number): number {
  const tol = Math.max(SIDE_TOLERANCE.absUsd, SIDE_TOLERANCE.spreadFraction * spreadUsd);
  return spreadUsd > 0 ? Math.min(tol, spreadUsd / 4) : SIDE_TOLERANCE.absUsd;
}

/**
 * Numeric side code of a print at `priceUsd` against `bidUsd`/`askUsd` (see {@link TRADE_SIDES}).
 * No usable NBBO (non-finite, ask <= 0, or bid > ask) gives `N`; a locked market gives `AA`, `BB`
 * or `M`.
 * @example
 * sideCode(1.05, 1.0, 1.05); // 6 (A)
 * @see docs/methodology.md#flow-trade-side
 */
export function sideCode(priceUsd: number, bidUsd: number, askUsd: number): number {
  if (!(askUsd > 0) || !(bidUsd >= 0) || bidUsd > askUsd || !Number.isFinite(priceUsd) || !Number.isFinite(askUsd)) {
    return 0;
  }
  const spread = askUsd - bidUsd;
  // 1e-9 USD absorbs binary rounding (10.30 - 10.25 is 0.05000000000000071 in doubles).
  const tol = sideToleranceUsd(spread) + FLOAT_SLACK_USD;
  if (priceUsd > askUsd + tol) return 7;
  if (priceUsd < bidUsd - tol) return 1;
  if (spread <= 0) return 4;
  if (priceUsd >= askUsd - tol) return 6;
  if (priceUsd <= bidUsd + tol) return 2;
  const mid = (bidUsd + askUsd) / 2;
  if (Math.abs(priceUsd - mid) <= tol) return 4;
  return priceUsd > mid ? 5 : 3;
}

/**
 * Side label of a print (see {@link sideCode}).
 * @example
 * classifySide(0.95, 1.0, 1.1); // "BB"
 * @see docs/methodology.md#flow-trade-side
 */
export function classifySide(priceUsd: number, bidUsd: number, askUsd: number): TradeSide {
  return TRADE_SIDES[sideCode(priceUsd, bidUsd, askUsd)];
}

/**
 * Aggression of a side label, -1..+1 (see {@link SIDE_AGGRESSION}).
 * @example
 * aggressionOf("BA"); // 0.5
 */
export function aggressionOf(side: TradeSide): number {
  return SIDE_AGGRESSION[SIDE_CODE[side]];
}
