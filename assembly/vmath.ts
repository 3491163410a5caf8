// Two-lane (f64x2) exp and log: AssemblyScript's standard library has no vector versions.
// Both follow fdlibm's algorithms (exp is the one V8's Math.exp uses, so results are bitwise
// identical to Math.exp; log agrees with Math.log to one ulp).
// See docs/methodology.md#simd-exp-and-log.
//
// Constants are read from a static table (`v128.load(VK, offset)`) rather than written as
// v128 literals: V8 rebuilds every v128 literal inside a loop (several instructions each),
// while a load from the table is one instruction.

// @ts-ignore: decorator
@inline const SHIFT: f64 = 6755399441055744.0; // 1.5 * 2^52: adding it rounds to an integer kept in the low bits
// @ts-ignore: decorator
@inline const SHIFT_BITS: i64 = 0x4338000000000000;

/** Lane-duplicated constants, 16 bytes each; offsets below. */
export const VK: usize = memory.data<f64>([
  -1400.0, -1400.0, // 0: exp clamp low (|x| <= 1400 keeps the split scale factors normal)
  1400.0, 1400.0, // 16: exp clamp high
  1.44269504088896338700e+00, 1.44269504088896338700e+00, // 32: 1/ln2
  SHIFT, SHIFT, // 48
  0.5, 0.5, // 64
  6.93147180369123816490e-01, 6.93147180369123816490e-01, // 80: ln2 hi (low 21 bits zero: n*ln2hi exact)
  1.90821492927058770002e-10, 1.90821492927058770002e-10, // 96: ln2 lo
  // 112..176: fdlibm e_exp.c P1..P5 (rational approximation on [-ln2/2, ln2/2])
  1.66666666666666019037e-01, 1.66666666666666019037e-01,
  -2.77777777770155933842e-03, -2.77777777770155933842e-03,
  6.61375632143793436117e-05, 6.61375632143793436117e-05,
  -1.65339022054652515390e-06, -1.65339022054652515390e-06,
  4.13813679705723846039e-08, 4.13813679705723846039e-08,
  2.0, 2.0, // 192
  1.0, 1.0, // 208
  // 224..320: fdlibm e_log.c Lg1..Lg7
  6.666666666666735130e-01, 6.666666666666735130e-01,
  3.999999999940941908e-01, 3.999999999940941908e-01,
  2.857142874366239149e-01, 2.857142874366239149e-01,
  2.222219843214978396e-01, 2.222219843214978396e-01,
  1.818357216161805012e-01, 1.818357216161805012e-01,
  1.531383769920937332e-01, 1.531383769920937332e-01,
  1.479819860511658591e-01, 1.479819860511658591e-01,
], 16);

/** Lane-duplicated integer constants. */
export const VKI: usize = memory.data<i64>([
  SHIFT_BITS, SHIFT_BITS, // 0
  1023, 1023, // 16: exponent bias
  0x0009_5f62_0000_0000, 0x0009_5f62_0000_0000, // 32: (0x3ff00000 - 0x3fe6a09e) << 32, log reduction
  0x3ff, 0x3ff, // 48
  0x000f_ffff_ffff_ffff, 0x000f_ffff_ffff_ffff, // 64: mantissa mask
  0x3fe6_a09e_0000_0000, 0x3fe6_a09e_0000_0000, // 80: bits of ~sqrt(2)/2
], 16);

/** e^x per lane, bitwise equal to fdlibm's exp; NaN in, NaN out; gradual underflow to subnormals and 0. */
// @ts-ignore: decorator
@inline
export function vexp(x: v128): v128 {
  return vexpWith(x,
    v128.load(VK, 0), v128.load(VK, 16), v128.load(VK, 32), v128.load(VK, 48), v128.load(VKI, 0), v128.load(VK, 64),
    v128.load(VK, 80), v128.load(VK, 96), v128.load(VK, 112), v128.load(VK, 128), v128.load(VK, 144), v128.load(VK, 160),
    v128.load(VK, 176), v128.load(VK, 192), v128.load(VK, 208), v128.load(VKI, 16));
}

/** vexp with its constants passed in (hoist the loads out of hot loops). */
// @ts-ignore: decorator
@inline
export function vexpWith(
  x0: v128, lo: v128, hi: v128, invLn2: v128, shift: v128, shiftBits: v128, half: v128, ln2Hi: v128, ln2Lo: v128,
  p1: v128, p2: v128, p3: v128, p4: v128, p5: v128, two: v128, one: v128, bias: v128,
): v128 {
  // pmin/pmax are single instructions; NaN stays NaN because it is the first operand.
  const x = f64x2.pmin(f64x2.pmax(x0, lo), hi);
  const kd = f64x2.add(f64x2.mul(x, invLn2), shift);
  const n = f64x2.sub(kd, shift);
  const ki = i64x2.sub(kd, shiftBits);
  // n1 = round(n/2) by the same shift trick (x86 has no 64-bit arithmetic shift), n2 = n - n1.
  const n1 = i64x2.sub(f64x2.add(f64x2.mul(n, half), shift), shiftBits);
  const n2 = i64x2.sub(ki, n1);
  const rHi = f64x2.sub(x, f64x2.mul(n, ln2Hi));
  const rLo = f64x2.mul(n, ln2Lo);
  const r = f64x2.sub(rHi, rLo);
  const t = f64x2.mul(r, r);
  let p = f64x2.add(p4, f64x2.mul(t, p5));
  p = f64x2.add(p3, f64x2.mul(t, p));
  p = f64x2.add(p2, f64x2.mul(t, p));
  p = f64x2.add(p1, f64x2.mul(t, p));
  const c = f64x2.sub(r, f64x2.mul(t, p));
  const q = f64x2.div(f64x2.mul(r, c), f64x2.sub(two, c));
  const y = f64x2.sub(one, f64x2.sub(f64x2.sub(rLo, q), rHi));
  // Scale by 2^n1 * 2^n2: each factor is a normal number for |n| <= 2020, so results in the
  // subnormal range round once, as in fdlibm.
  const s1 = i64x2.shl(i64x2.add(n1, bias), 52);
  const s2 = i64x2.shl(i64x2.add(n2, bias), 52);
  return f64x2.mul(f64x2.mul(y, s1), s2);
}

/** ln x per lane for positive, finite, normal x (the kernels only take logs of price ratios). */
// @ts-ignore: decorator
@inline
export function vlog(x: v128): v128 {
  return vlogWith(x,
    v128.load(VKI, 32), v128.load(VKI, 48), v128.load(VKI, 64), v128.load(VKI, 80), v128.load(VKI, 0), v128.load(VK, 48),
    v128.load(VK, 208), v128.load(VK, 64), v128.load(VK, 192), v128.load(VK, 224), v128.load(VK, 240), v128.load(VK, 256),
    v128.load(VK, 272), v128.load(VK, 288), v128.load(VK, 304), v128.load(VK, 320), v128.load(VK, 80), v128.load(VK, 96));
}

/** vlog with its constants passed in (hoist the loads out of hot loops). */
// @ts-ignore: decorator
@inline
export function vlogWith(
  x: v128, reduce: v128, expBias: v128, mantissa: v128, sqrtHalfBits: v128, shiftBits: v128, shift: v128,
  one: v128, half: v128, two: v128, lg1: v128, lg2: v128, lg3: v128, lg4: v128, lg5: v128, lg6: v128, lg7: v128,
  ln2Hi: v128, ln2Lo: v128,
): v128 {
  // Reduce x = 2^k * z with z in [sqrt(2)/2, sqrt(2)).
  const ix = i64x2.add(x, reduce);
  // The exponent field of a positive double fits in 11 bits, so a logical shift is enough
  // (x86 has no 64-bit arithmetic shift).
  const k = i64x2.sub(i64x2.shr_u(ix, 52), expBias);
  const zBits = i64x2.add(v128.and(ix, mantissa), sqrtHalfBits);
  // k to f64 with the shift trick in reverse.
  const dk = f64x2.sub(i64x2.add(k, shiftBits), shift);
  const f = f64x2.sub(zBits, one);
  const hfsq = f64x2.mul(f64x2.mul(half, f), f);
  const s = f64x2.div(f, f64x2.add(two, f));
  const z = f64x2.mul(s, s);
  const w = f64x2.mul(z, z);
  let t1 = f64x2.add(lg4, f64x2.mul(w, lg6));
  t1 = f64x2.mul(w, f64x2.add(lg2, f64x2.mul(w, t1)));
  let t2 = f64x2.add(lg5, f64x2.mul(w, lg7));
  t2 = f64x2.add(lg3, f64x2.mul(w, t2));
  t2 = f64x2.mul(z, f64x2.add(lg1, f64x2.mul(w, t2)));
  const rr = f64x2.add(t2, t1);
  // s*(hfsq+R) + dk*ln2_lo - hfsq + f + dk*ln2_hi, left to right as in fdlibm.
  let acc = f64x2.add(f64x2.mul(s, f64x2.add(hfsq, rr)), f64x2.mul(dk, ln2Lo));
  acc = f64x2.sub(acc, hfsq);
  acc = f64x2.add(acc, f);
  return f64x2.add(acc, f64x2.mul(dk, ln2Hi));
}

/** Applies vexp to n doubles (test and accuracy hook). */
export function expBatch(n: i32, inPtr: usize, outPtr: usize): void {
  let i = 0;
  for (; i + 1 < n; i += 2) {
    const o = <usize>i << 3;
    v128.store(outPtr + o, vexp(v128.load(inPtr + o)));
  }
  if (i < n) {
    const o = <usize>i << 3;
    store<f64>(outPtr + o, f64x2.extract_lane(vexp(f64x2.splat(load<f64>(inPtr + o))), 0));
  }
}

/** Applies vlog to n doubles (test and accuracy hook). */
export function logBatch(n: i32, inPtr: usize, outPtr: usize): void {
  let i = 0;
  for (; i + 1 < n; i += 2) {
    const o = <usize>i << 3;
    v128.store(outPtr + o, vlog(v128.load(inPtr + o)));
  }
  if (i < n) {
    const o = <usize>i << 3;
    store<f64>(outPtr + o, f64x2.extract_lane(vlog(f64x2.splat(load<f64>(inPtr + o))), 0));
  }
}
