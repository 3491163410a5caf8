// Total dealer gamma or vanna exposure recomputed at N hypothetical spot levels (for zero-gamma).
// Everything that does not depend on spot is hoisted out of the spot loop.
// See docs/methodology.md#profile-kernel. Mirrored by lib/kernels/_js-profile.ts.
import { vexpWith, vlog, VK, VKI } from "./vmath";

// @ts-ignore: decorator
@inline const INV_SQRT_2PI: f64 = 0.3989422804014327;
// @ts-ignore: decorator
@inline const SCALE_PER_PCT: f64 = 100.0 * 0.01;
/** Contract pairs per cache block: the hoisted columns of a block (20 KiB) stay in L1 across all spots. */
// @ts-ignore: decorator
@inline const BLOCK_PAIRS: i32 = 256;

/** Hoisted columns hold `capacity(n)` doubles each: n rounded up to even, plus a pad pair. */
// @ts-ignore: decorator
@inline
function capacity(n: i32): usize {
  return <usize>((n + 2) & ~1);
}

/** Bytes of scratch memory that `profile` needs for n contracts and nSpots spot levels. */
export function profileScratchBytes(n: i32, nSpots: i32): usize {
  return capacity(n) * 5 * 8 + <usize>nSpots * 16;
}

/**
 * Writes to out f64[nSpots] the total gamma (metric 0) or vanna (metric 1) exposure of the
 * chain with spot moved to each of spots f64[nSpots] (> 0), all else fixed. Same units, sign
 * model and validity rules as `exposure`; returns the number of distinct Gaussians evaluated
 * per spot (contributing contracts, adjacent equal (strike, tYears, iv) merged).
 * Scratch: profileScratchBytes(n, nSpots).
 */
export function profile(
  n: i32,
  strikePtr: usize, tPtr: usize, ivPtr: usize, oiPtr: usize, rightPtr: usize,
  spot: f64, rate: f64, q: f64, callSign: f64, putSign: f64,
  metric: i32, nSpots: i32, spotsPtr: usize, outPtr: usize, scratchPtr: usize,
): i32 {
  const cap = capacity(n);
  const aPtr = scratchPtr; // ln(S0/K) + (r - q + iv^2/2) T
  const bPtr = aPtr + cap * 8; // 1 / (iv sqrt T)
  const ePtr = bPtr + cap * 8; // -q T
  const wPtr = ePtr + cap * 8; // sign * OI / (iv sqrt T)  (gamma)  or  sign * OI / iv  (vanna)
  const sPtr = wPtr + cap * 8; // iv sqrt T  (vanna: -d2 = iv sqrt T - d1)
  const accPtr = sPtr + cap * 8; // one f64x2 accumulator per spot level

  const rMinusQ = rate - q;
  const negQ = -q;
  const vanna = metric == 1;

  // Hoist: compact the contributing contracts and precompute their spot-free terms. A contract
  // with the same strike, tYears and iv as the previous one (a call/put pair quoted at one vol)
  // has the same Gaussian, so it only adds its signed weight to that row.
  let m = 0;
  let prevK = NaN, prevT = NaN, prevIv = NaN;
  for (let i = 0; i < n; i++) {
    const o = <usize>i << 3;
    const k = load<f64>(strikePtr + o);
    const t = load<f64>(tPtr + o);
    const iv = load<f64>(ivPtr + o);
    const oi = load<f64>(oiPtr + o);
    if (!(k > 0 && t > 0 && iv > 0 && oi > 0)) continue;
    const sqrtT = Math.sqrt(t);
    const sst = iv * sqrtT;
    const rs = 1.0 / sst;
    const so = (load<u8>(rightPtr + <usize>i) != 0 ? callSign : putSign) * oi;
    const w = vanna ? so * (rs * sqrtT) : so * rs;
    if (k == prevK && t == prevT && iv == prevIv) {
      const mo = <usize>(m - 1) << 3;
      store<f64>(wPtr + mo, load<f64>(wPtr + mo) + w);
      continue;
    }
    prevK = k;
    prevT = t;
    prevIv = iv;
    const mo = <usize>m << 3;
    // ln(S0/K) through the vector log, as in the exposure kernel.
    store<f64>(aPtr + mo, f64x2.extract_lane(vlog(f64x2.splat(spot / k)), 0) + (rMinusQ + 0.5 * iv * iv) * t);
    store<f64>(bPtr + mo, rs);
    store<f64>(ePtr + mo, negQ * t);
    store<f64>(wPtr + mo, w);
    store<f64>(sPtr + mo, sst);
    m++;
  }
  // Pad to whole pairs with a zero-weight contract.
  const mPairs = (m + 1) >> 1;
  if (m & 1) {
    const mo = <usize>m << 3;
    store<f64>(aPtr + mo, 0.0);
    store<f64>(bPtr + mo, 1.0);
    store<f64>(ePtr + mo, 0.0);
    store<f64>(wPtr + mo, 0.0);
    store<f64>(sPtr + mo, 0.0);
  }

  // vexp's constants, loaded once so the inner loop can keep them in registers.
  const cLo = v128.load(VK, 0), cHi = v128.load(VK, 16), cInvLn2 = v128.load(VK, 32), cShift = v128.load(VK, 48);
  const cShiftBits = v128.load(VKI, 0), cHalf = v128.load(VK, 64), cLn2Hi = v128.load(VK, 80), cLn2Lo = v128.load(VK, 96);
  const cP1 = v128.load(VK, 112), cP2 = v128.load(VK, 128), cP3 = v128.load(VK, 144), cP4 = v128.load(VK, 160);
  const cP5 = v128.load(VK, 176), cTwo = v128.load(VK, 192), cOne = v128.load(VK, 208), cBias = v128.load(VKI, 16);

  memory.fill(accPtr, 0, <usize>nSpots << 4);
  for (let p0 = 0; p0 < mPairs; p0 += BLOCK_PAIRS) {
    const p1 = min(p0 + BLOCK_PAIRS, mPairs);
    for (let j = 0; j < nSpots; j++) {
      const lnShift = vlog(f64x2.splat(load<f64>(spotsPtr + (<usize>j << 3)) / spot));
      const accAt = accPtr + (<usize>j << 4);
      let acc = v128.load(accAt);
      if (vanna) {
        for (let p = p0; p < p1; p++) {
          const o = <usize>p << 4;
          const d1 = f64x2.mul(f64x2.add(lnShift, v128.load(aPtr + o)), v128.load(bPtr + o));
          const g = vexpWith(f64x2.sub(v128.load(ePtr + o), f64x2.mul(f64x2.mul(cHalf, d1), d1)),
            cLo, cHi, cInvLn2, cShift, cShiftBits, cHalf, cLn2Hi, cLn2Lo, cP1, cP2, cP3, cP4, cP5, cTwo, cOne, cBias);
          acc = f64x2.add(acc, f64x2.mul(f64x2.mul(v128.load(wPtr + o), g), f64x2.sub(v128.load(sPtr + o), d1)));
        }
      } else {
        for (let p = p0; p < p1; p++) {
          const o = <usize>p << 4;
          const d1 = f64x2.mul(f64x2.add(lnShift, v128.load(aPtr + o)), v128.load(bPtr + o));
          const g = vexpWith(f64x2.sub(v128.load(ePtr + o), f64x2.mul(f64x2.mul(cHalf, d1), d1)),
            cLo, cHi, cInvLn2, cShift, cShiftBits, cHalf, cLn2Hi, cLn2Lo, cP1, cP2, cP3, cP4, cP5, cTwo, cOne, cBias);
          acc = f64x2.add(acc, f64x2.mul(v128.load(wPtr + o), g));
        }
      }
      v128.store(accAt, acc);
    }
  }
  const scale = INV_SQRT_2PI * SCALE_PER_PCT;
  for (let j = 0; j < nSpots; j++) {
    const acc = v128.load(accPtr + (<usize>j << 4));
    const s = load<f64>(spotsPtr + (<usize>j << 3));
    store<f64>(outPtr + (<usize>j << 3), scale * s * (f64x2.extract_lane(acc, 0) + f64x2.extract_lane(acc, 1)));
  }
  return m;
}
