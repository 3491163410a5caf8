// The WASM engine: copies columns into the bump region, calls a kernel, copies results out.
import { GREEK_METRIC_CODE } from "./_js-greek-exposure";
import { impliedVolsJs } from "./_js-implied-vols";
import { vixStripSumInto } from "./_js-strip-sum";
import { KernelError } from "./errors";
import {
  checkChainColumns,
  checkGreekMetric,
  checkImpliedVolInput,
  checkProfileColumns,
  checkSpots,
  checkVixStrip,
  fitsExposure,
  fitsGreekExposure,
  resolveParams,
} from "./_validate";
import type { KernelExports } from "./_wasm-exports";
import { aligned, WasmRegion } from "./_wasm-region";
import type {
  ChainColumns,
  ExposureParams,
  ExposureResult,
  GreekExposureResult,
  GreekMetric,
  GridParams,
  ImpliedVolInput,
  ImpliedVolResult,
  KernelEngine,
  ProfileColumns,
  ProfileMetric,
  VixStripColumns,
} from "./types";

/** Copies a typed array into linear memory at `ptr`. */
function put(buffer: ArrayBuffer, ptr: number, src: Float64Array | Int32Array | Uint8Array): void {
  if (src instanceof Float64Array) new Float64Array(buffer, ptr, src.length).set(src);
  else if (src instanceof Int32Array) new Int32Array(buffer, ptr, src.length).set(src);
  else new Uint8Array(buffer, ptr, src.length).set(src);
}

/** Bytes the seven chain columns of `n` contracts take in the region. */
const chainBytes = (n: number): number => aligned(n * 8) * 4 + aligned(n * 4) * 2 + aligned(n);

/** Addresses of a chain's columns in linear memory, in the kernels' argument order. */
interface ChainPtrs {
  strike: number;
  t: number;
  iv: number;
  oi: number;
  right: number;
  exp: number;
  strikeIdx: number;
}

/** Allocates the chain's columns in `region` (already reserved) and copies them in. */
function putChain(region: WasmRegion, input: ChainColumns, n: number): ChainPtrs {
  const ptrs: ChainPtrs = {
    strike: region.alloc(n * 8),
    t: region.alloc(n * 8),
    iv: region.alloc(n * 8),
    oi: region.alloc(n * 8),
    exp: region.alloc(n * 4),
    strikeIdx: region.alloc(n * 4),
    right: region.alloc(n),
  };
  const buffer = region.buffer;
  put(buffer, ptrs.strike, input.strike);
  put(buffer, ptrs.t, input.tYears);
  put(buffer, ptrs.iv, input.iv);
  put(buffer, ptrs.oi, input.oi);
  put(buffer, ptrs.exp, input.expIndex);
  put(buffer, ptrs.strikeIdx, input.strikeIndex);
  put(buffer, ptrs.right, input.right);
  return ptrs;
}

/** The kernels' error for a contract whose (strike, expiration) cell is outside the grid. */
function outsideGrid(input: ChainColumns, used: number, nStrikes: number, nExp: number): KernelError {
  const i = -used - 1;
  return new KernelError("invalid_index", `contract ${i}: (strikeIndex ${input.strikeIndex[i]}, expIndex ${input.expIndex[i]}) outside a ${nStrikes} x ${nExp} grid`);
}

/**
 * Wraps an instantiated kernels module as a KernelEngine.
 * @example const engine = createWasmEngine(instance.exports as unknown as KernelExports);
 */
export function createWasmEngine(exports: KernelExports): KernelEngine {
  const region = new WasmRegion(exports);

  function exposure(input: ChainColumns, params: GridParams, out?: ExposureResult): ExposureResult {
    const n = checkChainColumns(input, params);
    const p = resolveParams(params);
    const { nStrikes, nExp } = params;
    const cells = nStrikes * nExp;
    const scratchBytes = exports.exposureScratchBytes(n);
    region.reserve(chainBytes(n) + aligned(cells * 8) * 2 + aligned(nStrikes * 8) * 2 + 16 + aligned(scratchBytes));
    const c = putChain(region, input, n);
    const gammaGridPtr = region.alloc(cells * 8);
    const vannaGridPtr = region.alloc(cells * 8);
    const gammaByStrikePtr = region.alloc(nStrikes * 8);
    const vannaByStrikePtr = region.alloc(nStrikes * 8);
    const totalsPtr = region.alloc(16);
    const scratchPtr = region.alloc(scratchBytes);
    const buffer = region.buffer;
    const used = exports.exposure(
      n,
      c.strike,
      c.t,
      c.iv,
      c.oi,
      c.right,
      c.exp,
      c.strikeIdx,
      p.spot,
      p.rate,
      p.q,
      p.callSign,
      p.putSign,
      nStrikes,
      nExp,
      gammaGridPtr,
      vannaGridPtr,
      gammaByStrikePtr,
      vannaByStrikePtr,
      totalsPtr,
      scratchPtr,
    );
    if (used < 0) throw outsideGrid(input, used, nStrikes, nExp);
    // The kernel never allocates, so `buffer` is still attached here.
    const gammaGrid = new Float64Array(buffer, gammaGridPtr, cells);
    const vannaGrid = new Float64Array(buffer, vannaGridPtr, cells);
    const gammaByStrike = new Float64Array(buffer, gammaByStrikePtr, nStrikes);
    const vannaByStrike = new Float64Array(buffer, vannaByStrikePtr, nStrikes);
    const totals = new Float64Array(buffer, totalsPtr, 2);
    if (out && fitsExposure(out, nStrikes, nExp)) {
      out.gammaGrid.set(gammaGrid);
      out.vannaGrid.set(vannaGrid);
      out.gammaByStrike.set(gammaByStrike);
      out.vannaByStrike.set(vannaByStrike);
      out.nStrikes = nStrikes;
      out.nExp = nExp;
      out.gammaTotal = totals[0];
      out.vannaTotal = totals[1];
      out.contributing = used;
      return out;
    }
    return {
      nStrikes,
      nExp,
      gammaGrid: gammaGrid.slice(),
      vannaGrid: vannaGrid.slice(),
      gammaByStrike: gammaByStrike.slice(),
      vannaByStrike: vannaByStrike.slice(),
      gammaTotal: totals[0],
      vannaTotal: totals[1],
      contributing: used,
    };
  }

  function greekExposure(input: ChainColumns, params: GridParams, metric: GreekMetric, out?: GreekExposureResult): GreekExposureResult {
    const n = checkChainColumns(input, params);
    const p = resolveParams(params);
    checkGreekMetric(metric);
    const { nStrikes, nExp } = params;
    const cells = nStrikes * nExp;
    const scratchBytes = exports.greekExposureScratchBytes(n);
    region.reserve(chainBytes(n) + aligned(cells * 8) + aligned(nStrikes * 8) + 16 + aligned(scratchBytes));
    const c = putChain(region, input, n);
    const gridPtr = region.alloc(cells * 8);
    const byStrikePtr = region.alloc(nStrikes * 8);
    const totalPtr = region.alloc(16);
    const scratchPtr = region.alloc(scratchBytes);
    const buffer = region.buffer;
    const used = exports.greekExposure(
      n,
      c.strike,
      c.t,
      c.iv,
      c.oi,
      c.right,
      c.exp,
      c.strikeIdx,
      p.spot,
      p.rate,
      p.q,
      p.callSign,
      p.putSign,
      GREEK_METRIC_CODE[metric],
      nStrikes,
      nExp,
      gridPtr,
      byStrikePtr,
      totalPtr,
      scratchPtr,
    );
    if (used < 0) throw outsideGrid(input, used, nStrikes, nExp);
    const grid = new Float64Array(buffer, gridPtr, cells);
    const byStrike = new Float64Array(buffer, byStrikePtr, nStrikes);
    const total = new Float64Array(buffer, totalPtr, 1)[0];
    if (out && fitsGreekExposure(out, nStrikes, nExp)) {
      out.grid.set(grid);
      out.byStrike.set(byStrike);
      out.nStrikes = nStrikes;
      out.nExp = nExp;
      out.metric = metric;
      out.total = total;
      out.contributing = used;
      return out;
    }
    return { nStrikes, nExp, metric, grid: grid.slice(), byStrike: byStrike.slice(), total, contributing: used };
  }

  function profile(input: ProfileColumns, params: ExposureParams, spots: Float64Array, metric: ProfileMetric): Float64Array {
    const n = checkProfileColumns(input);
    const p = resolveParams(params);
    checkSpots(spots);
    const nSpots = spots.length;
    const scratchBytes = exports.profileScratchBytes(n, nSpots);
    region.reserve(aligned(n * 8) * 4 + aligned(n) + aligned(nSpots * 8) * 2 + aligned(scratchBytes));
    const strikePtr = region.alloc(n * 8);
    const tPtr = region.alloc(n * 8);
    const ivPtr = region.alloc(n * 8);
    const oiPtr = region.alloc(n * 8);
    const rightPtr = region.alloc(n);
    const spotsPtr = region.alloc(nSpots * 8);
    const outPtr = region.alloc(nSpots * 8);
    const scratchPtr = region.alloc(scratchBytes);
    const buffer = region.buffer;
    put(buffer, strikePtr, input.strike);
    put(buffer, tPtr, input.tYears);
    put(buffer, ivPtr, input.iv);
    put(buffer, oiPtr, input.oi);
    put(buffer, rightPtr, input.right);
    put(buffer, spotsPtr, spots);
    exports.profile(
      n,
      strikePtr,
      tPtr,
      ivPtr,
      oiPtr,
      rightPtr,
      p.spot,
      p.rate,
      p.q,
      p.callSign,
      p.putSign,
      metric === "vanna" ? 1 : 0,
      nSpots,
      spotsPtr,
      outPtr,
      scratchPtr,
    );
    return new Float64Array(buffer, outPtr, nSpots).slice();
  }

  function impliedVols(input: ImpliedVolInput, out?: ImpliedVolResult): ImpliedVolResult {
    const batch = exports.impliedVolBatch;
    // Until the IV kernel is part of the build, the JS batch keeps the API whole.
    if (!batch) return impliedVolsJs(input, out);
    const { n, spot, rate, q } = checkImpliedVolInput(input);
    region.reserve(aligned(n * 8) * 4 + aligned(n) + aligned(n * 4) * 2);
    const pricePtr = region.alloc(n * 8);
    const strikePtr = region.alloc(n * 8);
    const tPtr = region.alloc(n * 8);
    const rightPtr = region.alloc(n);
    const outPtr = region.alloc(n * 8);
    const iterPtr = region.alloc(n * 4);
    const evalPtr = region.alloc(n * 4);
    const buffer = region.buffer;
    put(buffer, pricePtr, input.prices);
    put(buffer, strikePtr, input.strike);
    put(buffer, tPtr, input.tYears);
    put(buffer, rightPtr, input.right);
    const failures = batch(n, pricePtr, spot, strikePtr, tPtr, rate, q, rightPtr, outPtr, iterPtr, evalPtr);
    const vols = new Float64Array(buffer, outPtr, n);
    const iterations = new Int32Array(buffer, iterPtr, n);
    const evaluations = new Int32Array(buffer, evalPtr, n);
    if (out && out.vols.length === n && out.iterations.length === n) {
      out.vols.set(vols);
      out.iterations.set(iterations);
      if (out.evaluations?.length === n) out.evaluations.set(evaluations);
      else out.evaluations = evaluations.slice();
      out.failures = failures;
      return out;
    }
    return { vols: vols.slice(), iterations: iterations.slice(), evaluations: evaluations.slice(), failures };
  }

  function vixStripSum(input: VixStripColumns, growth: number, contribution: Float64Array): number {
    const n = checkVixStrip(input, growth, contribution);
    const kernel = exports.vixStripSum;
    // A module built before the strip kernel keeps the API whole with the JS loop.
    if (!kernel) return vixStripSumInto(input.strike, input.dK, input.q, growth, contribution, n);
    region.reserve(aligned(n * 8) * 4);
    const strikePtr = region.alloc(n * 8);
    const dKPtr = region.alloc(n * 8);
    const qPtr = region.alloc(n * 8);
    const outPtr = region.alloc(n * 8);
    const buffer = region.buffer;
    put(buffer, strikePtr, input.strike);
    put(buffer, dKPtr, input.dK);
    put(buffer, qPtr, input.q);
    const sum = kernel(n, strikePtr, dKPtr, qPtr, growth, outPtr);
    contribution.set(new Float64Array(buffer, outPtr, n));
    return sum;
  }

  return { name: "wasm", exposure, greekExposure, profile, impliedVols, vixStripSum };
}
