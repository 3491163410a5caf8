import { erfcx } from "./erf";
import { blOverBmax, buOverBmax, oneMinusErfcx } from "./_lbr-branch-points";
import { inverseNormCdf, normCdf, normPdf } from "./normal";
import {
  DBL_EPSILON,
  DBL_MAX,
  DBL_MIN,
  lnNormalisedVega,
  normalisedBlackCall,
  normalisedBlackCallOverVega,
  normalisedIntrinsic,
  normalisedVega,
} from "./normalised-black";
import { convexControlLeft, convexControlRight, rationalCubicInterpolation } from "./_rational-cubic";

/**
 * Normalised implied volatility by Peter Jäckel's "Let's Be Rational" (Wilmott, January 2015,
 * pp. 40-53; reference implementation of 2023-12 with the complementary upper branch):
 * a four-branch rational initial guess, then Householder(3) steps on a branch-specific
 * objective. The branch points b_l, b_u come from Jäckel's 2024 univariate approximations
 * (./_lbr-branch-points), so the guess evaluates the Black function once (b_c), and the
 * iteration stops after one step when the fourth-order error bound shows that the next
 * correction would be below eps * s. Port of www.jaeckel.org/LetsBeRational.7z:
 *   Copyright © 2013-2024 Peter Jäckel. Permission to use, copy, modify, and distribute this
 *   software is freely granted, provided that this notice is preserved.
 *
 * @see docs/methodology.md#implied-volatility
 */

/** Result codes (negative, so they never collide with a volatility). */
export const LBR_BELOW_INTRINSIC = -1;
export const LBR_ABOVE_MAXIMUM = -2;
export const LBR_INVALID_INPUT = -3;

/** Caller-owned scratch so the solver reports its work without allocating. */
export interface LbrScratch {
  /** Householder steps taken. */
  iterations: number;
  /** Evaluations of the normalised Black function b or its complement b_max - b (guess and steps). */
  evaluations: number;
}

const SQRT_DBL_MAX = Math.sqrt(DBL_MAX);
const TWO_PI = 6.283185307179586;
const SQRT_TWO_PI = 2.5066282746310007;
const SQRT_THREE = 1.7320508075688772;
const SQRT_ONE_OVER_THREE = 0.5773502691896257;
const TWO_PI_OVER_SQRT_TWENTY_SEVEN = 1.2091995761561452;
const SQRT_THREE_OVER_THIRD_ROOT_TWO_PI = 0.9386434874273836;
const PI_OVER_SIX = 0.5235987755982989;
const SQRT_HALF = Math.SQRT1_2;
const SQRT_PI_OVER_TWO = 1.2533141373155003;
const ONE_OVER_SQRT_TWO_PI = 0.3989422804014327;

/**
 * Two Householder steps reach machine precision from the rational guess (Jäckel 2015, section 5);
 * a third is taken only when the second step was still large, which the tests never observe
 * on the documented domain.
 */
const THIRD_STEP_RELATIVE_THRESHOLD = 1e-6;

/**
 * Largest relative step |ds|/s after which the early exit is considered: keeps the step well
 * inside the asymptotic regime of the error bound (the exits observed are at |ds|/s < 1e-3).
 */
const EXIT_MAX_RELATIVE_STEP = 1 / 64;

function keepIterating(iterations: number, ds: number, s: number): boolean {
  const ads = Math.abs(ds);
  if (!(ads > DBL_EPSILON * s)) return false;
  return iterations < 2 || (iterations < 3 && ads > THIRD_STEP_RELATIVE_THRESHOLD * s);
}

/**
 * Whether the Householder(3) step ds taken from s leaves a next correction below eps * s.
 * Its error is e1 = K ds^4 + O(ds^5) with K = h4/24 - h2 h3/6 + h2^3/8 (hk = g^(k)/g' at s);
 * in scaled form, with r = ds/s and hk s^(k-1), |e1|/s <= (|h4 s^3|/24 + |h2 s| |h3 s^2|/6 +
 * |h2 s|^3/8) r^4. Overflow or NaN answers false (keep iterating).
 *
 * @see docs/methodology.md#implied-volatility
 */
function nextCorrectionNegligible(ds: number, s: number, hh2: number, hh3: number, hh4: number): boolean {
  const r = Math.abs(ds / s);
  if (!(r <= EXIT_MAX_RELATIVE_STEP)) return false;
  const a2 = Math.abs(hh2 * s);
  const a3 = Math.abs(hh3 * s * s);
  const a4 = Math.abs(hh4 * s * s * s);
  const k = a4 / 24 + (a2 * a3) / 6 + (a2 * a2 * a2) / 8;
  const r2 = r * r;
  return k * (r2 * r2) <= DBL_EPSILON;
}

function householder3Factor(nu: number, hh2: number, hh3: number): number {
  return (1 + 0.5 * hh2 * nu) / (1 + nu * (hh2 + (hh3 * nu) / 6));
}

function householder4Factor(nu: number, hh2: number, hh3: number, hh4: number): number {
  return (1 + nu * (hh2 + (nu * hh3) / 6)) / (1 + nu * (1.5 * hh2 + nu * ((hh2 * hh2) / 4 + hh3 / 3 + (nu * hh4) / 24)));
}

function clamp(lo: number, hi: number, v: number): number {
  return Math.max(lo, Math.min(hi, v));
}

/** Inverse of the lower map f(s) = 2 pi / sqrt(27) |x| Phi(-|x| / (sqrt 3 s))^3 (formula 4.38). */
function inverseFLowerMap(x: number, f: number): number {
  return Math.abs(x / (SQRT_THREE * inverseNormCdf((SQRT_THREE_OVER_THIRD_ROOT_TWO_PI * Math.cbrt(f)) / Math.cbrt(Math.abs(x)))));
}

/**
 * Normalised implied volatility s = sigma sqrt(T) of the normalised Black price beta at
 * x = ln(F/K), theta = +1 call / -1 put. Returns s > 0, or one of the negative LBR_* codes.
 * Sets scratch.iterations to the Householder steps taken (at most 3) and scratch.evaluations
 * to the evaluations of b or b_max - b (one for the guess, one per step).
 */
export function lbrNormalisedImpliedVol(beta: number, x: number, theta: number, scratch: LbrScratch): number {
  scratch.iterations = 0;
  scratch.evaluations = 0;
  if (!(Number.isFinite(beta) && Number.isFinite(x)) || (theta !== 1 && theta !== -1)) return LBR_INVALID_INPUT;
  if (theta * x > 0) {
    // In the money: the out-of-the-money price with the same vol is beta minus intrinsic.
    beta -= normalisedIntrinsic(x, theta);
    theta = -theta;
  }
  if (!(beta > 0)) return LBR_BELOW_INTRINSIC;
  if (theta < 0) x = -x; // put at x == call at -x (reciprocal-strike symmetry); now x <= 0
  const bMax = Math.exp(0.5 * x);
  if (beta >= bMax) return LBR_ABOVE_MAXIMUM;

  let iterations = 0;
  let done = false;
  let s = -DBL_MAX;
  let ds = -DBL_MAX;
  let sLeft = DBL_MIN;
  let sRight = DBL_MAX;
  const sC = Math.sqrt(Math.abs(2 * x));
  // The guess's one price evaluation: b_c = b(x, s_c) in closed form, vega b'(s_c) = b_max / sqrt(2 pi).
  const omErfcx = oneMinusErfcx(Math.sqrt(Math.abs(x)));
  const bC = 0.5 * bMax * omErfcx;
  const vC = ONE_OVER_SQRT_TWO_PI * bMax;
  scratch.evaluations = 1;

  if (beta < bC) {
    const sL = sC - SQRT_PI_OVER_TWO * omErfcx;
    const bL = bMax * blOverBmax(sC);
    if (beta < bL) {
      // Lowest branch: guess through the lower map, iterate on g(s) = 1/ln b(s) - 1/ln beta.
      const ax = Math.abs(x);
      const z = (SQRT_ONE_OVER_THREE * ax) / sL;
      const y = z * z;
      const s2 = sL * sL;
      const Phi = normCdf(-z);
      const phi = normPdf(z);
      const fpp = ((PI_OVER_SIX * y) / (s2 * sL)) * Phi * (8 * SQRT_THREE * sL * ax + ((3 * s2 * (s2 - 8) - 8 * x * x) * Phi) / phi) * Math.exp(2 * y + 0.25 * s2);
      const Phi2 = Phi * Phi;
      const fp = TWO_PI * y * Phi2 * Math.exp(y + 0.125 * s2);
      const fL = TWO_PI_OVER_SQRT_TWENTY_SEVEN * ax * (Phi2 * Phi);
      const rLL = convexControlRight(0, bL, 0, fL, 1, fp, fpp, true);
      let f = rationalCubicInterpolation(beta, 0, bL, 0, fL, 1, fp, rLL);
      if (!(f > 0)) {
        // Round-off for extreme |x|: quadratic through f(0) = 0, f'(0) = 1 and f(bL).
        const t = beta / bL;
        f = (fL * t + bL * (1 - t)) * t;
      }
      s = inverseFLowerMap(x, f);
      sRight = sL;
      const lnBeta = Math.log(beta);
      while (!done && keepIterating(iterations, ds, s)) {
        const lnVega = lnNormalisedVega(x, s);
        const bx = normalisedBlackCallOverVega(x, s, lnVega);
        const lnB = Math.log(bx) + lnVega;
        const bpob = 1 / bx;
        const h = x / s;
        const bHh2 = (h * h) / s - s / 4;
        const nu = ((lnBeta - lnB) * lnB) / lnBeta / bpob;
        const lambda = 1 / lnB;
        const otLambda = 1 + 2 * lambda;
        const hh2 = bHh2 - bpob * otLambda;
        const c = 3 * (h / s) * (h / s);
        const bHh3 = bHh2 * bHh2 - c - 0.25;
        const sqBpob = bpob * bpob;
        const bppob = bHh2 * bpob;
        const mu = 6 * lambda * (1 + lambda);
        const hh3 = bHh3 + sqBpob * (2 + mu) - bppob * 3 * otLambda;
        const hh4 =
          bHh2 * (bHh3 - 0.5) -
          (bHh2 - 2 / s) * 2 * c -
          bpob * (sqBpob * (6 + lambda * (22 + lambda * (36 + lambda * 24))) - bppob * (12 + 6 * mu)) -
          bppob * bHh2 * 3 * otLambda -
          bHh3 * bpob * 4 * otLambda;
        if (x < -190) {
          // Householder(4) removes a residual inaccuracy at extreme moneyness (Jäckel, 2023-12-14).
          ds = nu * householder4Factor(nu, hh2, hh3, hh4);
        } else {
          ds = nu * householder3Factor(nu, hh2, hh3);
          done = nextCorrectionNegligible(ds, s, hh2, hh3, hh4);
        }
        const next = clamp(sLeft, sRight, s + ds);
        if (next !== s + ds) done = false;
        ds = next - s;
        s = next;
        iterations++;
      }
      scratch.iterations = iterations;
      scratch.evaluations += iterations;
      return s;
    }
    const vL = normalisedVega(x, sL);
    const rLM = convexControlRight(bL, bC, sL, sC, 1 / vL, 1 / vC, 0, false);
    s = rationalCubicInterpolation(beta, bL, bC, sL, sC, 1 / vL, 1 / vC, rLM);
    sLeft = sL;
    sRight = sC;
  } else {
    const sU = sC + SQRT_PI_OVER_TWO * (2 - omErfcx);
    const bU = bMax * buOverBmax(sC);
    if (beta <= bU) {
      const vU = normalisedVega(x, sU);
      const rUM = convexControlLeft(bC, bU, sC, sU, 1 / vC, 1 / vU, 0, false);
      s = rationalCubicInterpolation(beta, bC, bU, sC, sU, 1 / vC, 1 / vU, rUM);
      sLeft = sC;
      sRight = sU;
    } else {
      // Highest branch: guess through the upper map f(s) = Phi(-s/2).
      const fU = normCdf(-0.5 * sU);
      const w = (x / sU) * (x / sU);
      const fp = -0.5 * Math.exp(0.5 * w);
      const fpp = SQRT_PI_OVER_TWO * Math.exp(w + 0.125 * sU * sU) * (w / sU);
      let f = -DBL_MAX;
      if (fpp > -SQRT_DBL_MAX && fpp < SQRT_DBL_MAX) {
        const rUU = convexControlLeft(bU, bMax, fU, 0, fp, -0.5, fpp, true);
        f = rationalCubicInterpolation(beta, bU, bMax, fU, 0, fp, -0.5, rUU);
      }
      if (f <= 0) {
        // Quadratic through f(bU), f(bMax) = 0 and f'(bMax) = -1/2.
        const hw = bMax - bU;
        const t = (beta - bU) / hw;
        f = (fU * (1 - t) + 0.5 * hw * t) * (1 - t);
      }
      s = -2 * inverseNormCdf(f);
      sLeft = sU;
      if (beta > 0.5 * bMax) {
        // Objective g(s) = ln(bMax - beta) - ln(bMax - b(s)), with bMax - b computed directly.
        const betaBar = bMax - beta;
        while (!done && keepIterating(iterations, ds, s)) {
          const h = x / s;
          const t = s / 2;
          const gp = 2 / SQRT_TWO_PI / (erfcx((t + h) * SQRT_HALF) + erfcx((t - h) * SQRT_HALF));
          const bBar = normalisedVega(x, s) / gp;
          const g = Math.log(betaBar / bBar);
          const bHh2 = (h * h) / s - s / 4;
          const c = 3 * (h / s) * (h / s);
          const bHh3 = bHh2 * bHh2 - c - 0.25;
          const nu = -g / gp;
          const hh2 = bHh2 + gp;
          const hh3 = bHh3 + gp * (2 * gp + 3 * bHh2);
          const hh4 = bHh2 * (bHh3 - 0.5) - (bHh2 - 2 / s) * 2 * c + gp * (6 * gp * (gp + 2 * bHh2) + 3 * bHh2 * bHh2 + 4 * bHh3);
          if (x < -580) {
            ds = nu * householder4Factor(nu, hh2, hh3, hh4);
          } else {
            ds = nu * householder3Factor(nu, hh2, hh3);
            done = nextCorrectionNegligible(ds, s, hh2, hh3, hh4);
          }
          const next = clamp(sLeft, sRight, s + ds);
          if (next !== s + ds) done = false;
          ds = next - s;
          s = next;
          iterations++;
        }
        scratch.iterations = iterations;
        scratch.evaluations += iterations;
        return s;
      }
    }
  }
  // Middle branches: objective g(s) = b(x, s) - beta.
  while (!done && keepIterating(iterations, ds, s)) {
    const b = normalisedBlackCall(x, s);
    const bp = normalisedVega(x, s);
    const nu = (beta - b) / bp;
    const h = x / s;
    const hh2 = (h * h) / s - s / 4;
    const c = 3 * (h / s) * (h / s);
    const hh3 = hh2 * hh2 - c - 0.25;
    const hh4 = hh2 * (hh3 - 0.5) - (hh2 - 2 / s) * 2 * c;
    ds = nu * householder3Factor(nu, hh2, hh3);
    done = nextCorrectionNegligible(ds, s, hh2, hh3, hh4);
    const next = clamp(sLeft, sRight, s + ds);
    if (next !== s + ds) done = false;
    ds = next - s;
    s = next;
    iterations++;
  }
  scratch.iterations = iterations;
  scratch.evaluations += iterations;
  return s;
}

/**
 * Black implied volatility of an undiscounted price at forward F, strike K, T years, theta
 * = +1 call / -1 put. Returns sigma > 0 or a negative LBR_* code; inputs are assumed finite
 * with F, K, T > 0 (the public wrappers check). In-the-money prices are reduced to their
 * out-of-the-money counterparts in price space, before normalisation, to keep digits.
 */
export function lbrBlackImpliedVol(price: number, forward: number, strike: number, tYears: number, theta: number, scratch: LbrScratch): number {
  scratch.iterations = 0;
  scratch.evaluations = 0;
  const intrinsic = Math.max(theta * (forward - strike), 0);
  if (!(price >= intrinsic)) return LBR_BELOW_INTRINSIC;
  if (price >= (theta < 0 ? strike : forward)) return LBR_ABOVE_MAXIMUM;
  const x = Math.log(forward / strike);
  if (theta * x > 0) {
    price = Math.max(price - intrinsic, 0);
    theta = -theta;
  }
  const s = lbrNormalisedImpliedVol(price / (Math.sqrt(forward) * Math.sqrt(strike)), x, theta, scratch);
  return s > 0 ? s / Math.sqrt(tYears) : s;
}
