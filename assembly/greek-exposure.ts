// Dealer delta, charm or vomma exposure of a chain, accumulated into one strikes x expirations grid.
// Formulas, units, sign model and evaluation order: docs/methodology.md#greek-exposure-kernel.
// Same structure as `exposure` (pass 0 compaction, SIMD Black-Scholes terms per row, scalar
// scatter). The JS engine (lib/kernels/_js-greek-exposure.ts) performs the same floating-point
// operations in the same order, so the engines differ only where vlog and Math.log differ (<= 1 ulp).
import { capacity, compactRows, rowMapBytes } from "./compact";
import { erfc, erfcx } from "./normal";
import { vexp, vexpWith, vlogWith, VK, VKI } from "./vmath";
import { verfcSmall, verfcxMiddle } from "./vnormal";

// @ts-ignore: decorator
@inline const INV_SQRT_2PI: f64 = 0.3989422804014327;
/** Contract multiplier (shares per contract). */
// @ts-ignore: decorator
@inline const MULTIPLIER: f64 = 100.0;
/** Calendar days per year: charm per year -> per day. */
// @ts-ignore: decorator
@inline const DAYS_PER_YEAR: f64 = 365.0;
/** 1/sqrt(2): Phi(x) = erfc(-x / sqrt 2) / 2. */
// @ts-ignore: decorator
@inline const SQRT_HALF: f64 = 0.7071067811865476;
/** Cody's erfc split: at or below it erfc(y) = 1 - y R(y) needs no exponential. */
// @ts-ignore: decorator
@inline const CODY_THRESHOLD: f64 = 0.46875;
/** Rows per block of pass 1: the block's intermediates (10 KiB) stay in L1 between stages. */
// @ts-ignore: decorator
@inline const BLOCK: i32 = 256;

/** e^{-qT} Phi(-|d1|) of one row from ay = |d1| / sqrt 2, e = e^{-qT - d1^2/2} and dq = e^{-qT}. */
// @ts-ignore: decorator
@inline
function tailOf(ay: f64, e: f64, dq: f64): f64 {
  return ay <= CODY_THRESHOLD ? dq * (0.5 * erfc(ay)) : 0.5 * erfcx(ay) * e;
}

/** Bytes of scratch memory that `greekExposure` needs for n contracts. */
export function greekExposureScratchBytes(n: i32): usize {
  return rowMapBytes(n) + capacity(n) * 5 * 8 + <usize>BLOCK * 40;
}

/**
 * Accumulates per-contract dealer exposure of one greek: metric 0 delta (dollars per 1% spot
 * move), 1 charm (dollars of delta per calendar day), 2 vomma (dollars of vega per vol point, per
 * vol point). Columns and validity rules as `exposure`; outputs (zeroed first): grid
 * f64[nStrikes*nExp] row-major, byStrike f64[nStrikes] (row sums in column order), total f64[1]
 * (sum of byStrike in row order). Scratch: greekExposureScratchBytes(n). Returns the number of
 * contributing contracts, or -(i+1) if contract i has an index outside the grid (outputs then
 * undefined).
 */
export function greekExposure(
  n: i32,
  strikePtr: usize, tPtr: usize, ivPtr: usize, oiPtr: usize,
  rightPtr: usize, expIdxPtr: usize, strikeIdxPtr: usize,
  spot: f64, rate: f64, q: f64, callSign: f64, putSign: f64, metric: i32,
  nStrikes: i32, nExp: i32,
  gridPtr: usize, byStrikePtr: usize, totalPtr: usize,
  scratchPtr: usize,
): i32 {
  const cap = capacity(n);
  const uidPtr = scratchPtr; // i32 per contract: its compacted row, -1 if it does not contribute
  const kPtr = uidPtr + rowMapBytes(n); // compacted strike, tYears, iv
  const tuPtr = kPtr + cap * 8;
  const ivuPtr = tuPtr + cap * 8;
  const xCallPtr = ivuPtr + cap * 8; // per compacted row: exposure per signed call contract
  const xPutPtr = xCallPtr + cap * 8; // ... per signed put contract
  const argPtr = xPutPtr + cap * 8; // block stage columns: ln(S/K), then the exp argument, then e
  const d1Ptr = argPtr + <usize>BLOCK * 8;
  const sstPtr = d1Ptr + <usize>BLOCK * 8; // iv sqrt T
  const sqrtTPtr = sstPtr + <usize>BLOCK * 8;
  const dqPtr = sqrtTPtr + <usize>BLOCK * 8; // e^{-qT}

  // Pass 0 (scalar): as in `exposure`; a call/put twin shares its row's d1 and e.
  const u = compactRows(n, strikePtr, tPtr, ivPtr, oiPtr, uidPtr, kPtr, tuPtr, ivuPtr, spot);

  const rMinusQ = rate - q;
  const negQ = -q;
  const cDelta = MULTIPLIER * 0.01 * spot;
  const cCharm = (MULTIPLIER * spot) / DAYS_PER_YEAR;
  const cVomma = INV_SQRT_2PI * MULTIPLIER * 0.01 * 0.01 * spot;
  // Delta, and charm's q term, need dq Phi(+-d1); charm without a dividend yield and vomma do not.
  const tails = metric == 0 || (metric == 1 && q != 0);
  // A call and a put have the same charm (q = 0) and vomma: the put column is the call column.
  const putColPtr = tails ? xPutPtr : xCallPtr;

  // Pass 1 (SIMD, two rows per step, in blocks of short stages: log, d1, exp, the metric's
  // density terms, then for delta and charm with q != 0 the normal cdf terms).
  const vSpot = f64x2.splat(spot);
  const vRMinusQ = f64x2.splat(rate - q);
  const vNegQ = f64x2.splat(-q);
  const vTwoRMinusQ = f64x2.splat(2.0 * rMinusQ);
  const vInvSqrt2Pi = f64x2.splat(INV_SQRT_2PI);
  const vCharm = f64x2.splat(cCharm);
  const vVomma = f64x2.splat(cVomma);
  const zero = f64x2.splat(0.0);
  const vQ = f64x2.splat(q);
  const vDelta = f64x2.splat(cDelta);
  const vSqrtHalf = f64x2.splat(SQRT_HALF);
  const vThreshold = f64x2.splat(CODY_THRESHOLD);
  const vFour = f64x2.splat(4.0);
  const cLo = v128.load(VK, 0), cHi = v128.load(VK, 16), cInvLn2 = v128.load(VK, 32), cShift = v128.load(VK, 48);
  const cShiftBits = v128.load(VKI, 0), cHalf = v128.load(VK, 64), cLn2Hi = v128.load(VK, 80), cLn2Lo = v128.load(VK, 96);
  const cP1 = v128.load(VK, 112), cP2 = v128.load(VK, 128), cP3 = v128.load(VK, 144), cP4 = v128.load(VK, 160);
  const cP5 = v128.load(VK, 176), cTwo = v128.load(VK, 192), cOne = v128.load(VK, 208), cBias = v128.load(VKI, 16);
  // e^{-qT} is a function of tYears alone: computed again only when tYears changes from row to row.
  let dqT = NaN;
  let dq = 0.0;

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
    // Stage 2: d1 and the exp argument -qT - d1^2/2 (the exposure kernel's operations).
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
      v128.store(d1Ptr + bo, d1);
      v128.store(sstPtr + bo, sst);
      v128.store(sqrtTPtr + bo, sqrtT);
    }
    // Stage 3: e = e^{-qT - d1^2/2} = e^{-qT} phi(d1) sqrt(2 pi).
    for (let i = i0; i < i1; i += 2) {
      const bo = (<usize>i << 3) - base;
      v128.store(argPtr + bo, vexpWith(v128.load(argPtr + bo),
        cLo, cHi, cInvLn2, cShift, cShiftBits, cHalf, cLn2Hi, cLn2Lo, cP1, cP2, cP3, cP4, cP5, cTwo, cOne, cBias));
    }
    // Stage 4: the metric's terms that do not need Phi.
    if (metric == 1) {
      // common = e^{-qT} phi(d1) (2 (r - q) T - d2 s) / (2 T s); without q the value is -common per day.
      for (let i = i0; i < i1; i += 2) {
        const o = <usize>i << 3;
        const bo = o - base;
        const t = v128.load(tuPtr + o);
        const sst = v128.load(sstPtr + bo);
        const d2 = f64x2.sub(v128.load(d1Ptr + bo), sst);
        const num = f64x2.mul(f64x2.mul(v128.load(argPtr + bo), vInvSqrt2Pi), f64x2.sub(f64x2.mul(vTwoRMinusQ, t), f64x2.mul(d2, sst)));
        const common = f64x2.div(num, f64x2.mul(f64x2.mul(cTwo, t), sst));
        v128.store(xCallPtr + o, tails ? common : f64x2.mul(f64x2.sub(zero, common), vCharm));
      }
    } else if (metric == 2) {
      // vega d1 d2 / iv = S e^{-qT} phi(d1) sqrt T d1 d2 / iv, per vol point squared.
      for (let i = i0; i < i1; i += 2) {
        const o = <usize>i << 3;
        const bo = o - base;
        const sqrtT = v128.load(sqrtTPtr + bo);
        const d1 = v128.load(d1Ptr + bo);
        const d2 = f64x2.sub(d1, v128.load(sstPtr + bo));
        const ratio = f64x2.div(f64x2.mul(f64x2.mul(sqrtT, d1), d2), v128.load(ivuPtr + o));
        v128.store(xCallPtr + o, f64x2.mul(f64x2.mul(v128.load(argPtr + bo), ratio), vVomma));
      }
    }
    if (!tails) continue;
    // Stage 5: tail = e^{-qT} Phi(-|d1|), then e^{-qT} Phi(d1) and e^{-qT} Phi(-d1). Cody's erfc at
    // or below the split; beyond it Phi(-|d1|) = erfcx(|d1|/sqrt 2) e^{-d1^2/2} / 2, whose
    // exponential times e^{-qT} is e, already computed: no exponential per row. First e^{-qT}
    // per row (scalar, recomputed only when tYears changes), then two rows per step.
    const iEnd = (i1 + 1) & ~1;
    for (let i = i0; i < iEnd; i++) {
      const t = load<f64>(tuPtr + (<usize>i << 3));
      if (t != dqT) {
        dqT = t;
        dq = f64x2.extract_lane(vexp(f64x2.splat(negQ * t)), 0);
      }
      store<f64>(dqPtr + (<usize>i << 3) - base, dq);
    }
    for (let i = i0; i < i1; i += 2) {
      const o = <usize>i << 3;
      const bo = o - base;
      const d1 = v128.load(d1Ptr + bo);
      const e = v128.load(argPtr + bo);
      const dqv = v128.load(dqPtr + bo);
      const ay = f64x2.mul(f64x2.abs(d1), vSqrtHalf);
      // Each range's rational only where a lane needs it (the ranges come in runs along a chain).
      const small = f64x2.le(ay, vThreshold);
      let tail: v128;
      if (v128.any_true(small)) {
        const tailSmall = f64x2.mul(dqv, f64x2.mul(cHalf, verfcSmall(ay, cOne)));
        tail = i64x2.all_true(small) ? tailSmall : v128.bitselect(tailSmall, f64x2.mul(f64x2.mul(cHalf, verfcxMiddle(ay)), e), small);
      } else {
        tail = f64x2.mul(f64x2.mul(cHalf, verfcxMiddle(ay)), e);
      }
      // Beyond Cody's second range (|d1| > 4 sqrt 2, or NaN) the scalar erfcx, lane by lane.
      if (!i64x2.all_true(f64x2.le(ay, vFour))) {
        tail = f64x2.replace_lane(tail, 0, tailOf(f64x2.extract_lane(ay, 0), f64x2.extract_lane(e, 0), f64x2.extract_lane(dqv, 0)));
        tail = f64x2.replace_lane(tail, 1, tailOf(f64x2.extract_lane(ay, 1), f64x2.extract_lane(e, 1), f64x2.extract_lane(dqv, 1)));
      }
      const rest = f64x2.sub(dqv, tail);
      const pos = f64x2.ge(d1, zero);
      const up = v128.bitselect(rest, tail, pos); // e^{-qT} Phi(d1)
      const down = v128.bitselect(tail, rest, pos); // e^{-qT} Phi(-d1)
      if (metric == 0) {
        // theta e^{-qT} Phi(theta d1), per 1% move in dollars.
        v128.store(xCallPtr + o, f64x2.mul(up, vDelta));
        v128.store(xPutPtr + o, f64x2.mul(f64x2.neg(down), vDelta));
      } else {
        // theta q e^{-qT} Phi(theta d1) - common, per day.
        const common = v128.load(xCallPtr + o);
        v128.store(xCallPtr + o, f64x2.mul(f64x2.sub(f64x2.mul(vQ, up), common), vCharm));
        v128.store(xPutPtr + o, f64x2.mul(f64x2.sub(f64x2.neg(f64x2.mul(vQ, down)), common), vCharm));
      }
    }
  }

  // Pass 2 (scalar): weight by sign * OI and scatter into the grid in contract order; a run of
  // consecutive contracts in one cell is summed first and added to the cell once (as `exposure`).
  const cells = <usize>nStrikes * <usize>nExp;
  memory.fill(gridPtr, 0, cells << 3);
  let used = 0;
  let runCell: usize = -1;
  let run = 0.0;
  for (let i = 0; i < n; i++) {
    const row = load<i32>(strikeIdxPtr + (<usize>i << 2));
    const col = load<i32>(expIdxPtr + (<usize>i << 2));
    if (<u32>row >= <u32>nStrikes || <u32>col >= <u32>nExp) return -(i + 1);
    const id = load<i32>(uidPtr + (<usize>i << 2));
    if (id < 0) continue;
    used++;
    const call = load<u8>(rightPtr + <usize>i) != 0;
    const w = (call ? callSign : putSign) * load<f64>(oiPtr + (<usize>i << 3));
    const v = w * load<f64>((call ? xCallPtr : putColPtr) + (<usize>id << 3));
    const c = (<usize>row * <usize>nExp + <usize>col) << 3;
    if (c == runCell) {
      run += v;
      continue;
    }
    if (runCell != -1) store<f64>(gridPtr + runCell, load<f64>(gridPtr + runCell) + run);
    runCell = c;
    run = v;
  }
  if (runCell != -1) store<f64>(gridPtr + runCell, load<f64>(gridPtr + runCell) + run);
  let total = 0.0;
  for (let row = 0; row < nStrikes; row++) {
    const base = (<usize>row * <usize>nExp) << 3;
    let s = 0.0;
    for (let col = 0; col < nExp; col++) s += load<f64>(gridPtr + base + (<usize>col << 3));
    store<f64>(byStrikePtr + (<usize>row << 3), s);
    total += s;
  }
  store<f64>(totalPtr, total);
  return used;
}
