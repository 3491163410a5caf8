// The VIX strip sum as a plain loop over Float64Array columns: the JS engine's kernel and the
// oracle of assembly/vix-strip.ts (same order of operations).

/**
 * Fills `contribution[i] = dK[i] / strike[i]^2 * growth * q[i]` for `i < n` and returns their sum
 * (the Cboe "contribution by strike" and its total; `growth = e^{RT}`).
 *
 * @see docs/methodology.md#variance-per-term
 */
export function vixStripSumInto(strike: Float64Array, dK: Float64Array, q: Float64Array, growth: number, contribution: Float64Array, n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const k = strike[i];
    const c = (dK[i] / (k * k)) * growth * q[i];
    contribution[i] = c;
    sum += c;
  }
  return sum;
}
