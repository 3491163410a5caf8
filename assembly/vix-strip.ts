// VIX strip sum kernel (f64): the Cboe "contribution by strike" dK/K^2 e^{RT} Q(K) and its total
// over one term's selected strikes. Same order of operations as lib/kernels/_js-strip-sum.ts, so
// the two engines agree bit for bit (a sequential sum: no SIMD reordering).
// See docs/methodology.md#variance-per-term and #vix-strip-sum-kernel

/**
 * Writes contribution[i] = ((dK[i] / (K[i] * K[i])) * growth) * Q[i] for i < n and returns the sum.
 * Columns are f64 at the given byte offsets; the kernel allocates nothing.
 */
export function vixStripSum(n: i32, strikePtr: usize, dKPtr: usize, qPtr: usize, growth: f64, contributionPtr: usize): f64 {
  let sum: f64 = 0.0;
  for (let i: i32 = 0; i < n; i++) {
    const off: usize = (<usize>i) << 3;
    const k: f64 = load<f64>(strikePtr + off);
    const c: f64 = ((load<f64>(dKPtr + off) / (k * k)) * growth) * load<f64>(qPtr + off);
    store<f64>(contributionPtr + off, c);
    sum += c;
  }
  return sum;
}
