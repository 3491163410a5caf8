// JS batch implied vol: validation and result shape here, the solver in lib/math.
import { impliedVolsInto } from "../math/implied-vol-batch";
import { checkImpliedVolInput } from "./_validate";
import type { ImpliedVolInput, ImpliedVolResult } from "./types";

/**
 * Implied vols of a batch of prices with the JS solver (Jäckel's "Let's Be Rational").
 * @see docs/methodology.md#implied-vol-batch
 */
export function impliedVolsJs(input: ImpliedVolInput, out?: ImpliedVolResult): ImpliedVolResult {
  const { n, spot, rate, q } = checkImpliedVolInput(input);
  const target: ImpliedVolResult =
    out && out.vols.length === n && out.iterations.length === n
      ? out
      : { vols: new Float64Array(n), iterations: new Int32Array(n), evaluations: new Int32Array(n), failures: 0 };
  if (target.evaluations?.length !== n) target.evaluations = new Int32Array(n);
  target.failures = impliedVolsInto(input.prices, spot, input.strike, input.tYears, rate, q, input.right, target.vols, target.iterations, target.evaluations);
  return target;
}
