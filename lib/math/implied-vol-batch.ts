import { LBR_ABOVE_MAXIMUM, LBR_BELOW_INTRINSIC, LBR_INVALID_INPUT, type LbrScratch, lbrBlackImpliedVol } from "./_lets-be-rational";

/**
 * Codes written to the iterations column when no volatility exists (the vol column gets NaN).
 * Non-negative values are Householder step counts. The WASM kernel uses the same codes.
 *
 * @see docs/methodology.md#implied-volatility-batch
 */
export const IV_CODE_BELOW_INTRINSIC = -1;
export const IV_CODE_ABOVE_UPPER_BOUND = -2;
export const IV_CODE_INVALID_INPUT = -3;

/**
 * Implied volatilities of a column of option prices (the JS engine's IV kernel): the same
 * algorithm and results as impliedVol per row, no allocation per contract. Rights are 1 call /
 * 0 put. Writes vol (decimal) into out[i], or NaN with a negative code in iterations[i]
 * (-1 below intrinsic, -2 above the upper bound, -3 invalid input). The optional evaluations
 * column gets the price evaluations spent on each row (0 where no vol exists). Returns the
 * number of rows without a volatility. All columns must have prices.length rows.
 *
 * @example
 * const out = new Float64Array(1);
 * impliedVolsInto(Float64Array.of(4.759422392871536), 42, Float64Array.of(40), Float64Array.of(0.5), 0.1, 0, Uint8Array.of(1), out) // 0; out[0] ≈ 0.2
 * @see docs/methodology.md#implied-volatility-batch
 */
export function impliedVolsInto(
  prices: Float64Array,
  spot: number,
  strikes: Float64Array,
  tYears: Float64Array,
  rate: number,
  q: number,
  rights: Uint8Array,
  out: Float64Array,
  iterations?: Int32Array,
  evaluations?: Int32Array,
): number {
  const n = prices.length;
  const scratch: LbrScratch = { iterations: 0, evaluations: 0 };
  const common = spot > 0 && spot < Infinity && Number.isFinite(rate) && Number.isFinite(q);
  let failures = 0;
  for (let i = 0; i < n; i++) {
    const price = prices[i];
    const strike = strikes[i];
    const t = tYears[i];
    let vol: number = LBR_INVALID_INPUT;
    scratch.iterations = 0;
    scratch.evaluations = 0;
    if (common && price >= 0 && price < Infinity && strike > 0 && strike < Infinity && t > 0 && t < Infinity) {
      const forward = spot * Math.exp((rate - q) * t);
      const undiscounted = price * Math.exp(rate * t);
      if (forward > 0 && forward < Infinity && undiscounted < Infinity) {
        vol = lbrBlackImpliedVol(undiscounted, forward, strike, t, rights[i] === 1 ? 1 : -1, scratch);
      }
    }
    if (vol > 0) {
      out[i] = vol;
      if (iterations) iterations[i] = scratch.iterations;
      if (evaluations) evaluations[i] = scratch.evaluations;
    } else {
      out[i] = NaN;
      failures++;
      if (evaluations) evaluations[i] = 0;
      if (iterations) {
        iterations[i] = vol === LBR_BELOW_INTRINSIC ? IV_CODE_BELOW_INTRINSIC : vol === LBR_ABOVE_MAXIMUM ? IV_CODE_ABOVE_UPPER_BOUND : IV_CODE_INVALID_INPUT;
      }
    }
  }
  return failures;
}
