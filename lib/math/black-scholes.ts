import * as z from "zod";
import { MathInputError } from "./errors";
import { normCdf, normPdf } from "./normal";
import { normalisedBlackCall } from "./normalised-black";

/**
 * Black-Scholes-Merton prices and greeks of European options on an asset with a continuous
 * dividend yield. Prices go through the normalised Black function, so out-of-the-money values
 * keep full relative precision (1e-100 and below are representable, not rounded to 0).
 *
 * @see docs/methodology.md#black-scholes-merton
 */

/** "C" call, "P" put. */
export type OptionRight = "C" | "P";

/** zod schema of a BSM input, for callers that validate user data at a boundary. */
export const BsmInputSchema = z.object({
  /** Spot price of the underlying, > 0. */
  spot: z.number().positive().finite(),
  /** Strike in the underlying's price units, > 0. */
  strike: z.number().positive().finite(),
  /** Time to expiry in years of 365 days, >= 0. */
  tYears: z.number().nonnegative().finite(),
  /** Volatility as a decimal per sqrt(year) (0.20 = 20%), >= 0. */
  vol: z.number().nonnegative().finite(),
  /** Continuously compounded risk-free rate, decimal per year. */
  rate: z.number().finite(),
  /** Continuous dividend yield, decimal per year. */
  dividendYield: z.number().finite(),
  right: z.enum(["C", "P"]),
});

export type BsmInput = z.output<typeof BsmInputSchema>;

/** Price and sensitivities; see each field for its unit. */
export interface BsmGreeks {
  /** Option value in the underlying's price units. */
  price: number;
  /** dV/dS, per 1 unit of spot. */
  delta: number;
  /** d2V/dS2, per 1 unit of spot squared. */
  gamma: number;
  /** dV/dsigma per 1.00 of volatility (divide by 100 for one vol point). */
  vega: number;
  /** dV/dt as calendar time passes (= -dV/dT), per year (divide by 365 for a day). */
  theta: number;
  /** d2V/dS dsigma = d(delta)/dsigma, per 1.00 of volatility. */
  vanna: number;
  /** d(delta)/dt as calendar time passes (= -d(delta)/dT), per year. */
  charm: number;
  /** d2V/dsigma2 (volga), per 1.00 of volatility squared. */
  vomma: number;
}

function check(input: BsmInput): void {
  const { spot, strike, tYears, vol, rate, dividendYield, right } = input;
  if (!(spot > 0 && spot < Infinity)) throw new MathInputError("spot", "must be a finite number > 0");
  if (!(strike > 0 && strike < Infinity)) throw new MathInputError("strike", "must be a finite number > 0");
  if (!(tYears >= 0 && tYears < Infinity)) throw new MathInputError("tYears", "must be a finite number >= 0");
  if (!(vol >= 0 && vol < Infinity)) throw new MathInputError("vol", "must be a finite number >= 0");
  if (!Number.isFinite(rate)) throw new MathInputError("rate", "must be finite");
  if (!Number.isFinite(dividendYield)) throw new MathInputError("dividendYield", "must be finite");
  if (right !== "C" && right !== "P") throw new MathInputError("right", 'must be "C" or "P"');
}

/**
 * Black-Scholes-Merton option value: discounted Black price on the forward
 * F = S exp((r - q) T). In the money it is the discounted intrinsic F - K (or K - F) plus the
 * out-of-the-money value, never a difference of large numbers.
 *
 * @example bsmPrice({ spot: 42, strike: 40, tYears: 0.5, vol: 0.2, rate: 0.1, dividendYield: 0, right: "C" }) // 4.759422392871536 (Hull, Example 15.6: 4.76)
 * @see docs/methodology.md#black-scholes-merton
 */
export function bsmPrice(input: BsmInput): number {
  check(input);
  return priceUnchecked(input.spot, input.strike, input.tYears, input.vol, input.rate, input.dividendYield, input.right === "C" ? 1 : -1);
}

function priceUnchecked(spot: number, strike: number, tYears: number, vol: number, rate: number, q: number, theta: number): number {
  const df = Math.exp(-rate * tYears);
  const forward = spot * Math.exp((rate - q) * tYears);
  const intrinsic = Math.max(theta * (forward - strike), 0);
  const s = vol * Math.sqrt(tYears);
  if (!(s > 0)) return df * intrinsic;
  const x = Math.log(forward / strike);
  return df * (intrinsic + Math.sqrt(forward) * Math.sqrt(strike) * normalisedBlackCall(-Math.abs(x), s));
}

/**
 * Black-Scholes-Merton price and greeks (delta, gamma, vega, theta, vanna, charm, vomma) with
 * a continuous dividend yield. Units are in the fields of BsmGreeks: vega per 1.00 vol, theta
 * and charm per year of calendar time. At zero volatility or zero time the limits are returned
 * (delta 0 or +-exp(-qT), the other second-order greeks 0).
 *
 * @example bsmGreeks({ spot: 100, strike: 100, tYears: 1, vol: 0.2, rate: 0.05, dividendYield: 0, right: "C" }).delta // 0.6368306511756191
 * @see docs/methodology.md#greeks
 */
export function bsmGreeks(input: BsmInput): BsmGreeks {
  check(input);
  const { spot, strike, tYears, vol, rate, dividendYield: q } = input;
  const theta = input.right === "C" ? 1 : -1;
  const price = priceUnchecked(spot, strike, tYears, vol, rate, q, theta);
  const dq = Math.exp(-q * tYears);
  const df = Math.exp(-rate * tYears);
  const sqrtT = Math.sqrt(tYears);
  const s = vol * sqrtT;
  if (!(s > 0)) {
    const forward = spot * Math.exp((rate - q) * tYears);
    const itm = theta * (forward - strike) > 0;
    return {
      price,
      delta: itm ? theta * dq : 0,
      gamma: 0,
      vega: 0,
      theta: itm ? theta * (q * spot * dq - rate * strike * df) : 0,
      vanna: 0,
      charm: itm ? theta * q * dq : 0,
      vomma: 0,
    };
  }
  const d1 = (Math.log(spot / strike) + (rate - q) * tYears) / s + 0.5 * s;
  const d2 = d1 - s;
  const pdf = normPdf(d1);
  const nd1 = normCdf(theta * d1);
  const nd2 = normCdf(theta * d2);
  const vega = spot * dq * pdf * sqrtT;
  return {
    price,
    delta: theta * dq * nd1,
    gamma: (dq * pdf) / (spot * s),
    vega,
    theta: (-spot * dq * pdf * vol) / (2 * sqrtT) - theta * rate * strike * df * nd2 + theta * q * spot * dq * nd1,
    vanna: (-dq * pdf * d2) / vol,
    charm: theta * q * dq * nd1 - (dq * pdf * (2 * (rate - q) * tYears - d2 * s)) / (2 * tYears * s),
    vomma: (vega * d1 * d2) / vol,
  };
}
