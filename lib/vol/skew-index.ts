import type { ChainTerms, TermRef } from "./chain-terms";
import { SVX_TENOR_MINUTES } from "./defaults";
import type { VixTerm } from "./vix-term";

/** Risk-neutral moments of `ln(S_T / F)` from one term's strip (Bakshi-Kapadia-Madan). */
export interface SkewTermMoments {
  /** `E[ln(S_T/F)]`. */
  p1: number;
  /** `E[ln^2(S_T/F)]`. */
  p2: number;
  /** `E[ln^3(S_T/F)]`. */
  p3: number;
  /** Skewness `(P3 - 3 P1 P2 + 2 P1^3) / (P2 - P1^2)^{3/2}`. */
  skewness: number;
}

/** A SKEW-style index reading at a target maturity. */
export interface SkewIndexReading {
  /** `100 - 10 S`, S the risk-neutral skewness interpolated to the target. */
  value: number;
  skewness: number;
  targetMinutes: number;
  /** Weight of the near term's skewness (1 with one term). */
  weightNear: number;
  near: { expiration: string; tMinutes: number; skewness: number } | null;
  next: { expiration: string; tMinutes: number; skewness: number } | null;
}

/**
 * The moments of the log return to a term's settlement priced by its VIX strip (the same strikes,
 * `dK`, mids `Q(K)` and `e^{RT}`), with the exact expansion terms around `K0`. Null when the
 * variance `P2 - P1^2` is not positive.
 *
 * @example skewTermMoments(chainTerms(board).term(3)!)?.skewness // about -2 on an index
 * @see docs/methodology.md#skew-index
 */
export function skewTermMoments(term: VixTerm): SkewTermMoments | null {
  const { strike, dK, q } = term.strip;
  const growth = Math.exp(term.rateAnnual * term.tYears);
  const f = term.forward;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let i = 0; i < strike.length; i++) {
    const k = strike[i];
    const w = (q[i] * dK[i]) / (k * k);
    const x = Math.log(k / f);
    s1 += w;
    s2 += 2 * (1 - x) * w;
    s3 += 3 * (2 * x - x * x) * w;
  }
  const l0 = Math.log(term.k0 / f);
  const d0 = f / term.k0 - 1;
  const p1 = -growth * s1 + l0 + d0;
  const p2 = growth * s2 + l0 * l0 + 2 * l0 * d0;
  const p3 = growth * s3 + l0 * l0 * l0 + 3 * l0 * l0 * d0;
  const variance = p2 - p1 * p1;
  if (!(variance > 0)) return null;
  return { p1, p2, p3, skewness: (p3 - 3 * p1 * p2 + 2 * p1 * p1 * p1) / variance ** 1.5 };
}

/**
 * A SKEW-style index on a board (Cboe SKEW methodology): the skewness of each of the two terms
 * SVX uses around `targetMinutes` (default 30 days), linear in minutes,
 * `S = w S1 + (1 - w) S2`, `w = (N2 - Nt)/(N2 - N1)`, and `SKEW = 100 - 10 S`. One term alone
 * when only one brackets the target. Null without a usable term.
 *
 * @example skewIndex(chainTerms(spxwBoard))?.value // about 130 on an index with put skew
 * @see docs/methodology.md#skew-index
 */
export function skewIndex(terms: ChainTerms, targetMinutes: number = SVX_TENOR_MINUTES.svx30): SkewIndexReading | null {
  const read = terms.varianceTo(targetMinutes);
  if (!read) return null;
  const side = (r: TermRef | null) => {
    const m = r && skewTermMoments(r.term);
    return r && m ? { expiration: r.expiration, tMinutes: r.tMinutes, skewness: m.skewness } : null;
  };
  const near = side(read.near);
  const next = side(read.next);
  let weightNear = 1;
  let skewness: number;
  if (near && next) {
    weightNear = (next.tMinutes - targetMinutes) / (next.tMinutes - near.tMinutes);
    skewness = weightNear * near.skewness + (1 - weightNear) * next.skewness;
  } else if (near || next) {
    weightNear = near ? 1 : 0;
    skewness = (near ?? next)!.skewness;
  } else return null;
  return { value: 100 - 10 * skewness, skewness, targetMinutes, weightNear, near, next };
}
