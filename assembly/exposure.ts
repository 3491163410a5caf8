// Dealer gamma and vanna exposure of a chain, accumulated into strikes x expirations grids.
// Formulas, units, sign model and layout: docs/methodology/kernels.md#exposure-kernel.
// The JS engine (lib/kernels/_js-exposure.ts) performs the same floating-point operations in
// the same order, so the two engines differ only where vlog and Math.log differ (<= 1 ulp).
import { vexpWith, vlogWith, VK, VKI } from "./vmath";

// @ts-ignore: decorator
@inline const INV_SQRT_2PI: f64 = 0.3989422804014327;
/** Contract multiplier times "per 1%" (100 * 0.01). */
// @ts-ignore: decorator
@inline const SCALE_PER_PCT: f64 = 100.0 * 0.01;

/** Contracts per block of pass 1: the block's intermediates (10 KiB) stay in L1 between stages. */
// @ts-ignore: decorator
@inline const BLOCK: i32 = 256;

/** Bytes of scratch memory that `exposure` needs for n contracts. */
export function exposureScratchBytes(n: i32): usize {
  return ((<usize>(n + 1) & ~<usize>1) << 4) + <usize>BLOCK * 40;
}

/**
 * Accumulates per-contract dealer gamma and vanna exposure.
 *
 * Columns are structure-of-arrays in linear memory: strike/tYears/iv/oi f64[n], right u8[n]
 * (1 call, 0 put), expIndex/strikeIndex i32[n]; the kernel may read up to 16 bytes past the
 * end of a column (the loader leaves slack). Outputs are zeroed first: gammaGrid and vannaGrid
 * f64[nStrikes*nExp] row-major (strikeRow*nExp + expCol), gammaByStrike and vannaByStrike
 * f64[nStrikes] (row sums in column order), totals f64[2] = [gamma, vanna] (sums of the
 * per-strike values in row order). Scratch: exposureScratchBytes(n).
 * Returns the number of contributing contracts (oi > 0, iv > 0, tYears > 0, strike > 0; NaN
 * fails each test), or -(i+1) if contract i has an index outside the grid (outputs then undefined).
 */
export function exposure(
  n: i32,
  strikePtr: usize, tPtr: usize, ivPtr: usize, oiPtr: usize,
  rightPtr: usize, expIdxPtr: usize, strikeIdxPtr: usize,
  spot: f64, rate: f64, q: f64, callSign: f64, putSign: f64,
  nStrikes: i32, nExp: i32,
  gammaGridPtr: usize, vannaGridPtr: usize,
  gammaByStrikePtr: usize, vannaByStrikePtr: usize, totalsPtr: usize,
  scratchPtr: usize,
): i32 {
  // Pass 1 (SIMD, two contracts per step) writes per-contract exposures to g[] and v[], 0 where
  // invalid. It runs in blocks, each in four short stages (log, d1, exp, combine): short loops
  // keep their constants in registers, which V8 does far better than in one long loop body.
  const gPtr = scratchPtr;
  const vPtr = gPtr + ((<usize>(n + 1) & ~<usize>1) << 3);
  const argPtr = vPtr + ((<usize>(n + 1) & ~<usize>1) << 3); // ln(S/K), then the exp argument, then e
  const rsPtr = argPtr + <usize>BLOCK * 8; // 1 / (iv sqrt T)
  const m2Ptr = rsPtr + <usize>BLOCK * 8; // iv sqrt T - d1 = -d2
  const invIvPtr = m2Ptr + <usize>BLOCK * 8; // 1 / iv, as rs * sqrt T
  const maskPtr = invIvPtr + <usize>BLOCK * 8; // lane masks of valid contracts

  const vSpot = f64x2.splat(spot);
  const vRMinusQ = f64x2.splat(rate - q);
  const vNegQ = f64x2.splat(-q);
  const vCallSign = f64x2.splat(callSign);
  const vPutSign = f64x2.splat(putSign);
  // phi's 1/sqrt(2 pi), the contract multiplier, "per 1%" and one power of spot, folded once.
  const vScale = f64x2.splat(INV_SQRT_2PI * SCALE_PER_PCT * spot);
  const vZero = f64x2.splat(0.0);
  const lane0 = i64x2.replace_lane(i64x2.splat(0), 0, -1);
  // Constants as loads, not literals, so they are not rebuilt on every iteration (see vmath.ts).
  const cLo = v128.load(VK, 0), cHi = v128.load(VK, 16), cInvLn2 = v128.load(VK, 32), cShift = v128.load(VK, 48);
  const cShiftBits = v128.load(VKI, 0), cHalf = v128.load(VK, 64), cLn2Hi = v128.load(VK, 80), cLn2Lo = v128.load(VK, 96);
  const cP1 = v128.load(VK, 112), cP2 = v128.load(VK, 128), cP3 = v128.load(VK, 144), cP4 = v128.load(VK, 160);
  const cP5 = v128.load(VK, 176), cTwo = v128.load(VK, 192), cOne = v128.load(VK, 208), cBias = v128.load(VKI, 16);

  for (let i0 = 0; i0 < n; i0 += BLOCK) {
    const i1 = min(i0 + BLOCK, n);
    const base = <usize>i0 << 3;
    // Stage 1: ln(S/K).
    const lReduce = v128.load(VKI, 32), lExpBias = v128.load(VKI, 48), lMantissa = v128.load(VKI, 64);
    const lSqrtHalf = v128.load(VKI, 80), lLg1 = v128.load(VK, 224), lLg2 = v128.load(VK, 240), lLg3 = v128.load(VK, 256);
    const lLg4 = v128.load(VK, 272), lLg5 = v128.load(VK, 288), lLg6 = v128.load(VK, 304), lLg7 = v128.load(VK, 320);
    for (let i = i0; i < i1; i += 2) {
      const o = <usize>i << 3;
      v128.store(argPtr + o - base, vlogWith(f64x2.div(vSpot, v128.load(strikePtr + o)),
        lReduce, lExpBias, lMantissa, lSqrtHalf, cShiftBits, cShift, cOne, cHalf, cTwo,
        lLg1, lLg2, lLg3, lLg4, lLg5, lLg6, lLg7, cLn2Hi, cLn2Lo));
    }
    // Stage 2: d1 and the exp argument -qT - d1^2/2; validity (an odd tail's lane 1 is invalid).
    for (let i = i0; i < i1; i += 2) {
      const o = <usize>i << 3;
      const bo = o - base;
      const k = v128.load(strikePtr + o);
      const t = v128.load(tPtr + o);
      const iv = v128.load(ivPtr + o);
      const oi = v128.load(oiPtr + o);
      let valid = v128.and(
        v128.and(f64x2.gt(k, vZero), f64x2.gt(t, vZero)),
        v128.and(f64x2.gt(iv, vZero), f64x2.gt(oi, vZero)),
      );
      if (i + 1 == n) valid = v128.and(valid, lane0);
      // Invalid lanes may compute NaN or Infinity (wasm has no FP traps); the mask zeroes them.
      const sqrtT = f64x2.sqrt(t);
      const sst = f64x2.mul(iv, sqrtT);
      const rs = f64x2.div(cOne, sst);
      const drift = f64x2.mul(f64x2.add(vRMinusQ, f64x2.mul(f64x2.mul(cHalf, iv), iv)), t);
      const d1 = f64x2.mul(f64x2.add(v128.load(argPtr + bo), drift), rs);
      v128.store(argPtr + bo, f64x2.sub(f64x2.mul(vNegQ, t), f64x2.mul(f64x2.mul(cHalf, d1), d1)));
      v128.store(rsPtr + bo, rs);
      v128.store(m2Ptr + bo, f64x2.sub(sst, d1));
      v128.store(invIvPtr + bo, f64x2.mul(rs, sqrtT));
      v128.store(maskPtr + bo, valid);
    }
    // Stage 3: e = e^{-qT - d1^2/2} = e^{-qT} phi(d1) sqrt(2 pi).
    for (let i = i0; i < i1; i += 2) {
      const bo = (<usize>i << 3) - base;
      v128.store(argPtr + bo, vexpWith(v128.load(argPtr + bo),
        cLo, cHi, cInvLn2, cShift, cShiftBits, cHalf, cLn2Hi, cLn2Lo, cP1, cP2, cP3, cP4, cP5, cTwo, cOne, cBias));
    }
    // Stage 4: gamma * S^2 = e^{-qT} phi(d1) S / (iv sqrt T);  vanna * S = -e^{-qT} phi(d1) d2 S / iv.
    for (let i = i0; i < i1; i += 2) {
      const o = <usize>i << 3;
      const bo = o - base;
      // Byte pair (right[i], right[i+1]) -> per-lane "is call" masks: widen u8 -> i64.
      const right = v128.load16_splat(rightPtr + <usize>i);
      const isCall = i64x2.ne(i64x2.extend_low_i32x4_u(i32x4.extend_low_i16x8_u(i16x8.extend_low_i8x16_u(right))), vZero);
      const we = f64x2.mul(f64x2.mul(v128.bitselect(vCallSign, vPutSign, isCall), v128.load(oiPtr + o)), v128.load(argPtr + bo));
      const valid = v128.load(maskPtr + bo);
      const g = f64x2.mul(f64x2.mul(we, v128.load(rsPtr + bo)), vScale);
      const v = f64x2.mul(f64x2.mul(f64x2.mul(we, v128.load(m2Ptr + bo)), v128.load(invIvPtr + bo)), vScale);
      v128.store(gPtr + o, v128.and(g, valid));
      v128.store(vPtr + o, v128.and(v, valid));
    }
  }

  // Pass 2 (scalar): scatter into the grids in contract order (the JS engine's order).
  const cells = <usize>nStrikes * <usize>nExp;
  memory.fill(gammaGridPtr, 0, cells << 3);
  memory.fill(vannaGridPtr, 0, cells << 3);
  let used = 0;
  for (let i = 0; i < n; i++) {
    const row = load<i32>(strikeIdxPtr + (<usize>i << 2));
    const col = load<i32>(expIdxPtr + (<usize>i << 2));
    // Unsigned compares reject negative indexes too; the loader turns the negative return into an error.
    if (<u32>row >= <u32>nStrikes || <u32>col >= <u32>nExp) return -(i + 1);
    const o = <usize>i << 3;
    const g = load<f64>(gPtr + o);
    const v = load<f64>(vPtr + o);
    // Valid contracts with an underflowed (0) exposure still count; invalid ones never do.
    if (g == 0 && v == 0 && !isValid(i, strikePtr, tPtr, ivPtr, oiPtr)) continue;
    const c = (<usize>row * <usize>nExp + <usize>col) << 3;
    store<f64>(gammaGridPtr + c, load<f64>(gammaGridPtr + c) + g);
    store<f64>(vannaGridPtr + c, load<f64>(vannaGridPtr + c) + v);
    used++;
  }

  // Per-strike sums in column order, totals in row order (the JS engine does the same).
  let gammaTotal = 0.0;
  let vannaTotal = 0.0;
  for (let row = 0; row < nStrikes; row++) {
    const base = (<usize>row * <usize>nExp) << 3;
    let g = 0.0;
    let v = 0.0;
    for (let col = 0; col < nExp; col++) {
      const c = base + (<usize>col << 3);
      g += load<f64>(gammaGridPtr + c);
      v += load<f64>(vannaGridPtr + c);
    }
    store<f64>(gammaByStrikePtr + (<usize>row << 3), g);
    store<f64>(vannaByStrikePtr + (<usize>row << 3), v);
    gammaTotal += g;
    vannaTotal += v;
  }
  store<f64>(totalsPtr, gammaTotal);
  store<f64>(totalsPtr + 8, vannaTotal);
  return used;
}

// @ts-ignore: decorator
@inline
function isValid(i: i32, strikePtr: usize, tPtr: usize, ivPtr: usize, oiPtr: usize): bool {
  const o = <usize>i << 3;
  return load<f64>(strikePtr + o) > 0 && load<f64>(tPtr + o) > 0 && load<f64>(ivPtr + o) > 0 && load<f64>(oiPtr + o) > 0;
}
