/**
 * The U-shaped intraday activity curve used by the option-print generator.
 * @see docs/methodology.md#intraday-curve
 */

/** Baseline level of the curve (midday activity before normalisation). */
const U_CURVE_BASE = 0.5;
/** Extra activity at the open and its decay, as a fraction of the session. */
const U_CURVE_OPEN = { amplitude: 2.4, decay: 0.07 } as const;
/** Extra activity into the close and its build-up, as a fraction of the session. */
const U_CURVE_CLOSE = { amplitude: 1.4, decay: 0.05 } as const;

const MEAN =
  U_CURVE_BASE +
  U_CURVE_OPEN.amplitude * U_CURVE_OPEN.decay * (1 - Math.exp(-1 / U_CURVE_OPEN.decay)) +
  U_CURVE_CLOSE.amplitude * U_CURVE_CLOSE.decay * (1 - Math.exp(-1 / U_CURVE_CLOSE.decay));

/**
 * Relative activity at a point of the regular session, normalised to a mean of 1 over the
 * session (so `ordersPerDay / minutes * uCurve(x)` integrates to `ordersPerDay`).
 * @param sessionFraction elapsed fraction of the regular session, 0 at the open, 1 at the close
 * @example
 * uCurve(0) > uCurve(0.5) && uCurve(1) > uCurve(0.5); // true
 */
export function uCurve(sessionFraction: number): number {
  const x = Math.min(1, Math.max(0, sessionFraction));
  return (U_CURVE_BASE + U_CURVE_OPEN.amplitude * Math.exp(-x / U_CURVE_OPEN.decay) + U_CURVE_CLOSE.amplitude * Math.exp(-(1 - x) / U_CURVE_CLOSE.decay)) / MEAN;
}
