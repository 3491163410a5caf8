// Pass 0 of the chain kernels (exposure, greekExposure): drop non-contributing contracts and give
// each contributing one a row in compacted strike/tYears/iv columns, so the SIMD pass computes the
// Black-Scholes terms of a call/put twin once. Layout: docs/methodology.md#memory-layout.

/** Doubles per compacted column: n rounded up to even plus a pad pair. */
// @ts-ignore: decorator
@inline
export function capacity(n: i32): usize {
  return <usize>((n + 2) & ~1);
}

/** Bytes of the per-contract row map (i32[n]), rounded up to 16. */
// @ts-ignore: decorator
@inline
export function rowMapBytes(n: i32): usize {
  return (<usize>n * 4 + 15) & ~<usize>15;
}

/**
 * Writes uid[i] = the compacted row of contract i, or -1 if it does not contribute (oi > 0,
 * iv > 0, tYears > 0, strike > 0 fail; NaN fails each). A contract with the same strike, tYears
 * and iv as the previous contributing one (a call/put pair quoted at one vol) gets that
 * contract's row. Pads the columns to a whole pair with a harmless row (strike spot, tYears 1,
 * iv 1). Returns the number of compacted rows.
 */
// @ts-ignore: decorator
@inline
export function compactRows(
  n: i32, strikePtr: usize, tPtr: usize, ivPtr: usize, oiPtr: usize,
  uidPtr: usize, kPtr: usize, tuPtr: usize, ivuPtr: usize, spot: f64,
): i32 {
  let u = 0;
  let pk = NaN, pt = NaN, piv = NaN;
  for (let i = 0; i < n; i++) {
    const o = <usize>i << 3;
    const k = load<f64>(strikePtr + o);
    const t = load<f64>(tPtr + o);
    const iv = load<f64>(ivPtr + o);
    const oi = load<f64>(oiPtr + o);
    if (!(k > 0 && t > 0 && iv > 0 && oi > 0)) {
      store<i32>(uidPtr + (<usize>i << 2), -1);
      continue;
    }
    if (k == pk && t == pt && iv == piv) {
      store<i32>(uidPtr + (<usize>i << 2), u - 1);
      continue;
    }
    pk = k;
    pt = t;
    piv = iv;
    const uo = <usize>u << 3;
    store<f64>(kPtr + uo, k);
    store<f64>(tuPtr + uo, t);
    store<f64>(ivuPtr + uo, iv);
    store<i32>(uidPtr + (<usize>i << 2), u);
    u++;
  }
  store<f64>(kPtr + (<usize>u << 3), spot);
  store<f64>(tuPtr + (<usize>u << 3), 1.0);
  store<f64>(ivuPtr + (<usize>u << 3), 1.0);
  return u;
}
