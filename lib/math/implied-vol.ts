import type { OptionRight } from "./black-scholes";
import { LBR_ABOVE_MAXIMUM, LBR_BELOW_INTRINSIC, type LbrScratch, lbrBlackImpliedVol, lbrNormalisedImpliedVol } from "./_lets-be-rational";

/**
 * Implied volatility to machine precision by Jäckel's "Let's Be Rational": a rational initial
 * guess (one evaluation of the Black function) and one or two Householder(3) steps (at most
 * three), each one evaluation; about 2.7 evaluations per implied vol on the documented domain.
 *
 * @see docs/methodology.md#implied-volatility
 */

/** Why no volatility exists for a price. */
export type ImpliedVolFailure = "below_intrinsic" | "above_upper_bound" | "invalid_input";

/**
 * A volatility (decimal per sqrt(year)), the Householder steps taken and the price evaluations
 * spent (normalised Black function or its complement, guess included), or the reason there is none.
 */
export type ImpliedVolResult = { ok: true; vol: number; iterations: number; evaluations: number } | { ok: false; reason: ImpliedVolFailure };

/** Inputs of impliedVol; the same conventions as BsmInput with the option price instead of vol. */
export interface ImpliedVolInput {
  /** Option price (discounted, in the underlying's price units), >= 0. */
  price: number;
  /** Spot price of the underlying, > 0. */
  spot: number;
  /** Strike, > 0. */
  strike: number;
  /** Time to expiry in years of 365 days, > 0. */
  tYears: number;
  /** Continuously compounded risk-free rate, decimal per year. */
  rate: number;
  /** Continuous dividend yield, decimal per year. */
  dividendYield: number;
  right: OptionRight;
}

const INVALID: ImpliedVolResult = Object.freeze({ ok: false, reason: "invalid_input" }) as ImpliedVolResult;
const BELOW: ImpliedVolResult = Object.freeze({ ok: false, reason: "below_intrinsic" }) as ImpliedVolResult;
const ABOVE: ImpliedVolResult = Object.freeze({ ok: false, reason: "above_upper_bound" }) as ImpliedVolResult;

function toResult(vol: number, scratch: LbrScratch): ImpliedVolResult {
  if (vol > 0) return { ok: true, vol, iterations: scratch.iterations, evaluations: scratch.evaluations };
  if (vol === LBR_BELOW_INTRINSIC) return BELOW;
  if (vol === LBR_ABOVE_MAXIMUM) return ABOVE;
  return INVALID;
}

function positiveFinite(v: number): boolean {
  return v > 0 && v < Infinity;
}

/**
 * Black (1976) implied volatility of an undiscounted option price on a forward, the paper's
 * ImpliedBlackVolatility(price, F, K, T, q) with theta = q = +1 for a call, -1 for a put.
 * A price at or below intrinsic gives below_intrinsic; at or above F (call) / K (put)
 * above_upper_bound.
 *
 * @example impliedBlackVolatility(7.965567455405804, 100, 100, 1, 1) // { ok: true, vol: 0.20000000000000018, iterations: 1, evaluations: 2 }
 * @see docs/methodology.md#implied-volatility
 */
export function impliedBlackVolatility(price: number, forward: number, strike: number, tYears: number, theta: 1 | -1): ImpliedVolResult {
  if (!(price >= 0 && price < Infinity) || !positiveFinite(forward) || !positiveFinite(strike) || !positiveFinite(tYears)) {
    return INVALID;
  }
  if (theta !== 1 && theta !== -1) return INVALID;
  const scratch: LbrScratch = { iterations: 0, evaluations: 0 };
  return toResult(lbrBlackImpliedVol(price, forward, strike, tYears, theta, scratch), scratch);
}

/**
 * Normalised implied volatility s = sigma sqrt(T) of a normalised Black price
 * beta = price / sqrt(F K) at x = ln(F/K); `vol` in the result is s.
 *
 * @example impliedVolFromNormalisedPrice(0.07965567455405798, 0, 1) // { ok: true, vol: 0.20000000000000004, iterations: 1, evaluations: 2 }
 * @see docs/methodology.md#normalised-black-function
 */
export function impliedVolFromNormalisedPrice(beta: number, x: number, theta: 1 | -1): ImpliedVolResult {
  const scratch: LbrScratch = { iterations: 0, evaluations: 0 };
  if (!(beta >= 0)) return Number.isFinite(beta) ? BELOW : INVALID;
  return toResult(lbrNormalisedImpliedVol(beta, x, theta, scratch), scratch);
}

/**
 * Black-Scholes-Merton implied volatility of a (discounted) option price with a continuous
 * dividend yield: the Black implied vol of price * exp(rT) on F = S exp((r - q) T).
 * Absolute error <= 1e-12 in vol on the documented domain; never returns 0 or NaN.
 *
 * @example impliedVol({ price: 4.759422392871536, spot: 42, strike: 40, tYears: 0.5, rate: 0.1, dividendYield: 0, right: "C" }) // { ok: true, vol: 0.2000000000000001, iterations: 2, evaluations: 3 }
 * @see docs/methodology.md#implied-volatility
 */
export function impliedVol(input: ImpliedVolInput): ImpliedVolResult {
  const { price, spot, strike, tYears, rate, dividendYield, right } = input;
  if (!(price >= 0 && price < Infinity) || !positiveFinite(spot) || !positiveFinite(strike) || !positiveFinite(tYears)) {
    return INVALID;
  }
  if (!Number.isFinite(rate) || !Number.isFinite(dividendYield) || (right !== "C" && right !== "P")) return INVALID;
  const forward = spot * Math.exp((rate - dividendYield) * tYears);
  const undiscounted = price * Math.exp(rate * tYears);
  if (!positiveFinite(forward) || !(undiscounted < Infinity)) return INVALID;
  const scratch: LbrScratch = { iterations: 0, evaluations: 0 };
  return toResult(lbrBlackImpliedVol(undiscounted, forward, strike, tYears, right === "C" ? 1 : -1, scratch), scratch);
}
