// Dealer gamma and vanna exposure of a chain, accumulated into strikes x expirations grids.
// Formulas, units, sign model and layout: docs/methodology.md#exposure-kernel.
// The JS engine (lib/kernels/_js-exposure.ts) performs the same floating-point operations in
// the same order, so the two engines differ only where vlog and Math.log differ (<= 1 ulp).
import { capacity, compactRows, rowMapBytes } from "./compact";
import { vexpWith, vlogWith, VK, VKI } from "./vmath";

// @ts-ignore: decorator
@inline const INV_SQRT_2PI: f64 = 0.3989422804014327;
/** Contract multiplier times "per 1%" (100 * 0.01). */
// @ts-ignore: decorator
@inline const SCALE_PER_PCT: f64 = 100.0 * 0.01;

/** Rows per block of pass 1: the block's intermediates (10 KiB) stay in L1 between stages. */
// @ts-ignore: decorator
@inline const BLOCK: i32 = 256;

/** Bytes of scratch memory that `exposure` needs for n contracts. */
export function exposureScratchBytes(n: i32): usize {
  return rowMapBytes(n) + capacity(n) * 5 * 8 + <usize>BLOCK * 32;
}

/**
 * Accumulates per-contract dealer gamma and vanna exposure.
 *
 * Columns are structure-of-arrays in linear memory: strike/tYears/iv/oi f64[n], right u8[n]
 * (1 call, 0 put), expIndex/strikeIndex i32[n]. Outputs are zeroed first: gammaGrid and
 * vannaGrid f64[nStrikes*nExp] row-major (strikeRow*nExp + expCol), gammaByStrike and
 * vannaByStrike f64[nStrikes] (row sums in column order), totals f64[2] = [gamma, vanna]
 * (sums of the per-strike values in row order). Scratch: exposureScratchBytes(n).
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
  const cap = capacity(n);
  const uidPtr = scratchPtr; // i32 per contract: its row in the compacted columns, -1 if it does not contribute
  const kPtr = uidPtr + rowMapBytes(n); // compacted strike, tYears, iv
  const tuPtr = kPtr + cap * 8;
  const ivuPtr = tuPtr + cap * 8;
  const gPtr = ivuPtr + cap * 8; // per compacted row: gamma exposure per signed contract
  const vPtr = gPtr + cap * 8; // per compacted row: vanna exposure per signed contract
  const argPtr = vPtr + cap * 8; // block stage columns: ln(S/K), then the exp argument, then e
  const rsPtr = argPtr + <usize>BLOCK * 8; // 1 / (iv sqrt T)
  const m2Ptr = rsPtr + <usize>BLOCK * 8; // iv sqrt T - d1 = -d2
  const invIvPtr = m2Ptr + <usize>BLOCK * 8; // 1 / iv, as rs * sqrt T

  // Pass 0 (scalar): drop non-contributing contracts, and give a contract with the same strike,
  // tYears and iv as the previous contributing one (a call/put pair quoted at one vol) that
  // contract's row: BSM gamma and vanna are the same for both, so they are computed once.
  const u = compactRows(n, strikePtr, tPtr, ivPtr, oiPtr, uidPtr, kPtr, tuPtr, ivuPtr, spot);

  // Pass 1 (SIMD, two rows per step, in blocks of four short stages: log, d1, exp, combine;
  // short loops keep their constants in registers, which V8 does far better than one long body).
  const vSpot = f64x2.splat(spot);
  const vRMinusQ = f64x2.splat(rate - q);
  const vNegQ = f64x2.splat(-q);
  // phi's 1/sqrt(2 pi), the contract multiplier, "per 1%" and one power of spot, folded once.
  const vScale = f64x2.splat(INV_SQRT_2PI * SCALE_PER_PCT * spot);
  // Constants as loads, not literals, so they are not rebuilt on every iteration (see vmath.ts).
  const cLo = v128.load(VK, 0), cHi = v128.load(VK, 16), cInvLn2 = v128.load(VK, 32), cShift = v128.load(VK, 48);
  const cShiftBits = v128.load(VKI, 0), cHalf = v128.load(VK, 64), cLn2Hi = v128.load(VK, 80), cLn2Lo = v128.load(VK, 96);
  const cP1 = v128.load(VK, 112), cP2 = v128.load(VK, 128), cP3 = v128.load(VK, 144), cP4 = v128.load(VK, 160);
  const cP5 = v128.load(VK, 176), cTwo = v128.load(VK, 192), cOne = v128.load(VK, 208), cBias = v128.load(VKI, 16);

  for (let i0 = 0; i0 < u; i0 += BLOCK) {
    const i1 = min(i0 + BLOCK, u);
    const base = <usize>i0 << 3;
    // Stage 1: ln(S/K).
    const lReduce = v128.load(VKI, 32), lExpBias = v128.load(VKI, 48), lMantissa = v128.load(VKI, 64);
    const lSqrtHalf = v128.load(VKI, 80), lLg1 = v128.load(VK, 224), lLg2 = v128.load(VK, 240), lLg3 = v128.load(VK, 256);
    const lLg4 = v128.load(VK, 272), lLg5 = v128.load(VK, 288), lLg6 = v128.load(VK, 304), lLg7 = v128.load(VK, 320);
    for (let i = i0; i < i1; i += 2) {
      const o = <usize>i << 3;
      v128.store(argPtr + o - base, vlogWith(f64x2.div(vSpot, v128.load(kPtr + o)),
        lReduce, lExpBias, lMantissa, lSqrtHalf, cShiftBits, cShift, cOne, cHalf, cTwo,
        lLg1, lLg2, lLg3, lLg4, lLg5, lLg6, lLg7, cLn2Hi, cLn2Lo));
    }
    // Stage 2: d1 and the exp argument -qT - d1^2/2.
    for (let i = i0; i < i1; i += 2) {
      const o = <usize>i << 3;
      const bo = o - base;
      const t = v128.load(tuPtr + o);
      const iv = v128.load(ivuPtr + o);
      const sqrtT = f64x2.sqrt(t);
      const sst = f64x2.mul(iv, sqrtT);
      const rs = f64x2.div(cOne, sst);
      const drift = f64x2.mul(f64x2.add(vRMinusQ, f64x2.mul(f64x2.mul(cHalf, iv), iv)), t);
      const d1 = f64x2.mul(f64x2.add(v128.load(argPtr + bo), drift), rs);
      v128.store(argPtr + bo, f64x2.sub(f64x2.mul(vNegQ, t), f64x2.mul(f64x2.mul(cHalf, d1), d1)));
      v128.store(rsPtr + bo, rs);
      v128.store(m2Ptr + bo, f64x2.sub(sst, d1));
      v128.store(invIvPtr + bo, f64x2.mul(rs, sqrtT));
    }
    // Stage 3: e = e^{-qT - d1^2/2} = e^{-qT} phi(d1) sqrt(2 pi).
    for (let i = i0; i < i1; i += 2) {
      const bo = (<usize>i << 3) - base;
      v128.store(argPtr + bo, vexpWith(v128.load(argPtr + bo),
        cLo, cHi, cInvLn2, cShift, cShiftBits, cHalf, cLn2Hi, cLn2Lo, cP1, cP2, cP3, cP4, cP5, cTwo, cOne, cBias));
    }
    // Stage 4: per signed contract, gamma * S^2 = e^{-qT} phi(d1) S / (iv sqrt T) and
    // vanna * S = -e^{-qT} phi(d1) d2 S / iv, with the multiplier and "per 1%".
    for (let i = i0; i < i1; i += 2) {
      const o = <usize>i << 3;
      const bo = o - base;
      const e = v128.load(argPtr + bo);
      v128.store(gPtr + o, f64x2.mul(f64x2.mul(e, v128.load(rsPtr + bo)), vScale));
      v128.store(vPtr + o, f64x2.mul(f64x2.mul(f64x2.mul(e, v128.load(m2Ptr + bo)), v128.load(invIvPtr + bo)), vScale));
    }
  }

  // Pass 2 (scalar): weight by sign * OI and scatter into the grids in contract order. A run of
  // consecutive contributing contracts in one cell (a call/put pair, a sorted chain) is summed
  // first and added to the cell once, with no store-to-load round trip per contract. The JS
  // engine sums the same way.
  const cells = <usize>nStrikes * <usize>nExp;
  memory.fill(gammaGridPtr, 0, cells << 3);
  memory.fill(vannaGridPtr, 0, cells << 3);
  let used = 0;
  let runCell: usize = -1;
  let runG = 0.0;
  let runV = 0.0;
  for (let i = 0; i < n; i++) {
    const row = load<i32>(strikeIdxPtr + (<usize>i << 2));
    const col = load<i32>(expIdxPtr + (<usize>i << 2));
    // Unsigned compares reject negative indexes too; the loader turns the negative return into an error.
    if (<u32>row >= <u32>nStrikes || <u32>col >= <u32>nExp) return -(i + 1);
    const id = load<i32>(uidPtr + (<usize>i << 2));
    if (id < 0) continue;
    used++;
    const w = (load<u8>(rightPtr + <usize>i) != 0 ? callSign : putSign) * load<f64>(oiPtr + (<usize>i << 3));
    const g = w * load<f64>(gPtr + (<usize>id << 3));
    const v = w * load<f64>(vPtr + (<usize>id << 3));
    const c = (<usize>row * <usize>nExp + <usize>col) << 3;
    if (c == runCell) {
      runG += g;
      runV += v;
      continue;
    }
    if (runCell != -1) {
      store<f64>(gammaGridPtr + runCell, load<f64>(gammaGridPtr + runCell) + runG);
      store<f64>(vannaGridPtr + runCell, load<f64>(vannaGridPtr + runCell) + runV);
    }
    runCell = c;
    runG = g;
    runV = v;
  }
  if (runCell != -1) {
    store<f64>(gammaGridPtr + runCell, load<f64>(gammaGridPtr + runCell) + runG);
    store<f64>(vannaGridPtr + runCell, load<f64>(vannaGridPtr + runCell) + runV);
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
