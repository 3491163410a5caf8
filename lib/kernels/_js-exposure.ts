// JS exposure kernel: the same floating-point operations, in the same order, as
// assembly/exposure.ts (Math.exp is bitwise equal to the vector exp; Math.log and the vector
// log differ by at most one ulp).
import type { ResolvedParams } from "./_validate";
import { KernelError } from "./errors";
import type { ChainColumns, ExposureResult } from "./types";

const INV_SQRT_2PI = 0.3989422804014327;
/** Contract multiplier times "per 1%" (100 * 0.01). */
const SCALE_PER_PCT = 100 * 0.01;

/**
 * Accumulates dealer gamma/vanna exposure into `out` (zeroed first); returns the contributing count.
 * Throws KernelError("invalid_index") for an index outside the grid.
 * @see docs/methodology.md#exposure-kernel
 */
export function jsExposureInto(c: ChainColumns, p: ResolvedParams, nStrikes: number, nExp: number, out: ExposureResult): number {
  const { strike, tYears, iv: ivs, oi: ois, right, expIndex, strikeIndex } = c;
  const { spot, callSign, putSign } = p;
  const gammaGrid = out.gammaGrid;
  const vannaGrid = out.vannaGrid;
  gammaGrid.fill(0);
  vannaGrid.fill(0);
  const rMinusQ = p.rate - p.q;
  const negQ = -p.q;
  // phi's 1/sqrt(2 pi), the contract multiplier, "per 1%" and one power of spot, folded once.
  const scale = INV_SQRT_2PI * SCALE_PER_PCT * spot;
  const n = strike.length;
  let used = 0;
  // Consecutive contributing contracts in one cell are summed first, then added to the cell once
  // (the WASM kernel's order; identical to plain accumulation when a cell's contracts are adjacent).
  let runCell = -1;
  let runG = 0;
  let runV = 0;
  for (let i = 0; i < n; i++) {
    const row = strikeIndex[i];
    const col = expIndex[i];
    if (row >>> 0 >= nStrikes || col >>> 0 >= nExp) {
      throw new KernelError("invalid_index", `contract ${i}: (strikeIndex ${row}, expIndex ${col}) outside a ${nStrikes} x ${nExp} grid`);
    }
    const k = strike[i];
    const t = tYears[i];
    const iv = ivs[i];
    const oi = ois[i];
    if (!(k > 0 && t > 0 && iv > 0 && oi > 0)) continue;
    used++;
    const lnMoneyness = Math.log(spot / k);
    const sqrtT = Math.sqrt(t);
    const sst = iv * sqrtT;
    const rs = 1 / sst;
    const d1 = (lnMoneyness + (rMinusQ + 0.5 * iv * iv) * t) * rs;
    const e = Math.exp(negQ * t - 0.5 * d1 * d1); // e^{-qT - d1^2/2} = e^{-qT} phi(d1) sqrt(2 pi)
    // Per signed contract: gamma * S^2 = e^{-qT} phi(d1) S / (iv sqrt T), vanna * S = -e^{-qT} phi(d1) d2 S / iv.
    const w = (right[i] !== 0 ? callSign : putSign) * oi;
    const g = w * (e * rs * scale);
    const v = w * (e * (sst - d1) * (rs * sqrtT) * scale);
    const cell = row * nExp + col;
    if (cell === runCell) {
      runG += g;
      runV += v;
      continue;
    }
    if (runCell >= 0) {
      gammaGrid[runCell] += runG;
      vannaGrid[runCell] += runV;
    }
    runCell = cell;
    runG = g;
    runV = v;
  }
  if (runCell >= 0) {
    gammaGrid[runCell] += runG;
    vannaGrid[runCell] += runV;
  }
  let gammaTotal = 0;
  let vannaTotal = 0;
  for (let r = 0; r < nStrikes; r++) {
    const base = r * nExp;
    let g = 0;
    let v = 0;
    for (let col = 0; col < nExp; col++) {
      g += gammaGrid[base + col];
      v += vannaGrid[base + col];
    }
    out.gammaByStrike[r] = g;
    out.vannaByStrike[r] = v;
    gammaTotal += g;
    vannaTotal += v;
  }
  out.gammaTotal = gammaTotal;
  out.vannaTotal = vannaTotal;
  out.contributing = used;
  return used;
}
