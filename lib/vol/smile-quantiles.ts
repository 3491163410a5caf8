import { bsmPrice } from "../math/black-scholes";
import { normCdf } from "../math/normal";

/** One expiration's smile: strikes ascending with an implied vol each (decimal), its forward and time. */
export interface Smile {
  strike: Float64Array;
  ivDecimal: Float64Array;
  forward: number;
  tYears: number;
}

/** Implied vol on the smile at `k`: linear in `ln(K/F)` inside the strikes, flat beyond. */
export function smileIv(s: Smile, k: number): number {
  const n = s.strike.length;
  if (k <= s.strike[0]) return s.ivDecimal[0];
  if (k >= s.strike[n - 1]) return s.ivDecimal[n - 1];
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (s.strike[mid] <= k) lo = mid;
    else hi = mid;
  }
  const x = Math.log(k / s.forward);
  const x0 = Math.log(s.strike[lo] / s.forward);
  const x1 = Math.log(s.strike[hi] / s.forward);
  return s.ivDecimal[lo] + ((s.ivDecimal[hi] - s.ivDecimal[lo]) * (x - x0)) / (x1 - x0);
}

/**
 * Risk-neutral probability `P(S_T <= K)` implied by the smile: `e^{rT} dP/dK` of the undiscounted
 * put (`r = 0` on forward prices), by a central difference of `h = 1e-4 K`.
 *
 * @see docs/methodology.md#skew-aware-sides
 */
export function smileCdf(s: Smile, k: number): number {
  const h = 1e-4 * k;
  const put = (x: number) => bsmPrice({ spot: s.forward, strike: x, tYears: s.tYears, vol: smileIv(s, x), rate: 0, dividendYield: 0, right: "P" });
  return (put(k + h) - put(k - h)) / (2 * h);
}

/**
 * The strike where the smile's CDF reaches `p`, by bisection inside the quoted strikes; null when
 * `p` is beyond the quoted range (the quantile is in the unquoted wing).
 *
 * @see docs/methodology.md#skew-aware-sides
 */
export function smileQuantile(s: Smile, p: number): number | null {
  let lo = s.strike[0];
  let hi = s.strike[s.strike.length - 1];
  if (smileCdf(s, lo) > p || smileCdf(s, hi) < p) return null;
  for (let i = 0; i < 60 && hi - lo > 1e-7 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (smileCdf(s, mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Standardised sides of a smile: the 1- and 2-sigma quantiles in units of a standard deviation. */
export interface SmileSides {
  up1: number;
  dn1: number;
  up2: number | null;
  dn2: number | null;
}

/**
 * Where the smile puts its 1- and 2-sigma quantiles (`N(+-1)`, `N(+-2)`), as log distance from
 * the forward in units of `sd` (default the ATM standard deviation `iv(F) sqrt(T)`; cones pass
 * the expiration's strip `sqrt(sigma^2 T)`): `up_z = |ln(K_{N(z)}/F)| / sd`,
 * `dn_z = |ln(K_{N(-z)}/F)| / sd`. Null when the 1-sigma quantiles are outside the quoted strikes;
 * null 2-sigma sides likewise.
 *
 * @see docs/methodology.md#skew-aware-sides
 */
export function smileSides(s: Smile, sd: number = smileIv(s, s.forward) * Math.sqrt(s.tYears)): SmileSides | null {
  if (!(sd > 0)) return null;
  const side = (z: number): number | null => {
    const k = smileQuantile(s, normCdf(z));
    return k === null ? null : Math.abs(Math.log(k / s.forward)) / sd;
  };
  const up1 = side(1);
  const dn1 = side(-1);
  if (up1 === null || dn1 === null) return null;
  return { up1, dn1, up2: side(2), dn2: side(-2) };
}
