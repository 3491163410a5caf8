// Gathers the contracts of a selection (expiration columns x strike rows) into kernel columns.
import type { ChainColumns, KernelEngine } from "../kernels";
import { tYearsToSettle } from "./time-to-expiry";
import type { PositioningChain } from "./types";

/** Kernel columns of a selection, plus how their IVs were obtained. */
export interface SelectedColumns {
  columns: ChainColumns;
  /** Contracts in the selection (before dropping those without a usable IV). */
  selected: number;
  /** IVs solved from the bid/ask mid because the snapshot had none. */
  ivSolved: number;
  /** Contracts left out: no IV in the snapshot and none solvable from the mid. */
  ivMissing: number;
}

/**
 * Columns for the contracts whose expiration is in `expCols` and whose strike row is in
 * `[lo, hi)`; grid rows are `strikeIndex - lo`, grid columns the position in `expCols`.
 * Contracts with zero open interest are skipped (they add nothing). Missing IVs (NaN or <= 0)
 * are solved from the mid with the engine's batch implied-vol kernel.
 */
export function selectColumns(chain: PositioningChain, expCols: readonly number[], lo: number, hi: number, engine: KernelEngine): SelectedColumns {
  const nAll = chain.expirations.length;
  const colOf = new Int32Array(nAll).fill(-1);
  const tOf = new Float64Array(nAll);
  expCols.forEach((j, c) => {
    const t = tYearsToSettle(chain.asOfMs, chain.expirySettleMs[j]);
    if (t !== null) {
      colOf[j] = c;
      tOf[j] = t;
    }
  });
  const { strikeIndex, expIndex, oi, iv } = chain;
  const n = strikeIndex.length;
  const pick = new Int32Array(n);
  let m = 0;
  let needIv = 0;
  for (let i = 0; i < n; i++) {
    const s = strikeIndex[i];
    if (s < lo || s >= hi || colOf[expIndex[i]] < 0 || !(oi[i] > 0)) continue;
    pick[m++] = i;
    if (!(iv[i] > 0)) needIv++;
  }

  const solved = needIv > 0 ? solveMissing(chain, pick, m, needIv, tOf, engine) : null;

  const strike = new Float64Array(m);
  const tYears = new Float64Array(m);
  const ivCol = new Float64Array(m);
  const oiCol = new Float64Array(m);
  const right = new Uint8Array(m);
  const expIdx = new Int32Array(m);
  const strikeIdx = new Int32Array(m);
  let k = 0;
  let ivSolved = 0;
  let ivMissing = 0;
  let q = 0; // position in the solved batch
  for (let p = 0; p < m; p++) {
    const i = pick[p];
    let v = iv[i];
    if (!(v > 0)) {
      v = solved![q++];
      if (v > 0) ivSolved++;
      else {
        ivMissing++;
        continue;
      }
    }
    const j = expIndex[i];
    strike[k] = chain.strikes[strikeIndex[i]];
    tYears[k] = tOf[j];
    ivCol[k] = v;
    oiCol[k] = oi[i];
    right[k] = chain.right[i];
    expIdx[k] = colOf[j];
    strikeIdx[k] = strikeIndex[i] - lo;
    k++;
  }
  const cut = <T extends Float64Array | Uint8Array | Int32Array>(a: T): T => (k === m ? a : (a.subarray(0, k) as T));
  return {
    columns: {
      strike: cut(strike),
      tYears: cut(tYears),
      iv: cut(ivCol),
      oi: cut(oiCol),
      right: cut(right),
      expIndex: cut(expIdx),
      strikeIndex: cut(strikeIdx),
    },
    selected: m,
    ivSolved,
    ivMissing,
  };
}

/** Implied vols from bid/ask mids for the picked contracts whose IV is missing (NaN where none). */
function solveMissing(chain: PositioningChain, pick: Int32Array, m: number, count: number, tOf: Float64Array, engine: KernelEngine): Float64Array {
  const prices = new Float64Array(count);
  const strike = new Float64Array(count);
  const tYears = new Float64Array(count);
  const right = new Uint8Array(count);
  let q = 0;
  for (let p = 0; p < m; p++) {
    const i = pick[p];
    if (chain.iv[i] > 0) continue;
    const bid = chain.bid[i];
    const ask = chain.ask[i];
    // A one-sided or crossed quote has no meaningful mid; a NaN price yields a NaN vol.
    prices[q] = bid > 0 && ask >= bid ? 0.5 * (bid + ask) : Number.NaN;
    strike[q] = chain.strikes[chain.strikeIndex[i]];
    tYears[q] = tOf[chain.expIndex[i]];
    right[q] = chain.right[i];
    q++;
  }
  const r = engine.impliedVols({
    prices,
    spot: chain.spot,
    strike,
    tYears,
    right,
    rate: chain.rate,
    dividendYield: chain.dividendYield,
  });
  return r.vols;
}

/** The kernel parameters every exposure of a board shares: its market inputs and the dealer sign model. */
export function boardExposureParams(
  chain: PositioningChain,
  signModel: { calls: number; puts: number },
): { spot: number; rate: number; dividendYield: number; callSign: number; putSign: number } {
  return { spot: chain.spot, rate: chain.rate, dividendYield: chain.dividendYield, callSign: signModel.calls, putSign: signModel.puts };
}
