/**
 * Realized volatility per session (decimal) over the last `n` close-to-close log returns, with the
 * zero-mean convention: `sqrt(mean(ln(C_i / C_{i-1})^2))`. Null with fewer than `n + 1` closes.
 * Annualise with `sqrt(252)`.
 *
 * @example realizedVolPerSession(closes, 20)! * Math.sqrt(252) // 20-day realized vol
 * @see docs/methodology.md#realized-volatility
 */
export function realizedVolPerSession(closes: ArrayLike<number>, n: number = 20): number | null {
  const m = closes.length;
  if (m < n + 1) return null;
  let sum = 0;
  for (let i = m - n; i < m; i++) {
    const r = Math.log(closes[i] / closes[i - 1]);
    sum += r * r;
  }
  return Math.sqrt(sum / n);
}
