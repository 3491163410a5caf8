import { MINUTE_MS } from "./defaults";
import type { ChainTerms, VarianceRead } from "./chain-terms";

/** The 1-sigma move priced from a board's instant to a target instant. */
export interface ImpliedMove {
  /** `100 sqrt(w)`, percent of the price at the board's instant. */
  em1Pct: number;
  /** Total implied variance to the target, decimal^2. */
  totalVariance: number;
  minutes: number;
  read: VarianceRead;
}

/**
 * The 1-sigma move (percent) the options on a board price to `targetMs`: `100 sqrt(w)` with `w`
 * the constant-maturity total variance to that instant (the SVX interpolation at
 * `Nt = (targetMs - asOfMs) / 60,000`). Null when the target is not after the board or no term
 * is usable.
 *
 * @example impliedMove(chainTerms(priorCloseBoard), todayCloseMs)?.em1Pct // the priced one-day move
 * @see docs/methodology.md#implied-move
 */
export function impliedMove(terms: ChainTerms, targetMs: number): ImpliedMove | null {
  const minutes = (targetMs - terms.asOfMs) / MINUTE_MS;
  if (!(minutes > 0)) return null;
  const read = terms.varianceTo(minutes);
  if (!read) return null;
  return { em1Pct: 100 * Math.sqrt(read.totalVariance), totalVariance: read.totalVariance, minutes, read };
}
