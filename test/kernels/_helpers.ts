// Shared helpers of the kernels tests: the engines under test, a slow readable reference, and
// the "relative with a scale" comparison used for parity.
import { bsmGreeks } from "../../lib/math";
import type { ChainColumns, ExposureResult, GridParams } from "../../lib/kernels";

/**
 * Largest |a - b| / max(|a|, |b|, scale) over two arrays: a relative error that stays meaningful
 * near zero, where `scale` (the reference's largest magnitude) sets the floor.
 */
export function maxRelError(a: ArrayLike<number>, b: ArrayLike<number>, scale = maxAbs(b)): number {
  if (a.length !== b.length) throw new Error(`length ${a.length} vs ${b.length}`);
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    if (Object.is(a[i], b[i])) continue;
    const denom = Math.max(Math.abs(a[i]), Math.abs(b[i]), scale);
    const err = denom === 0 ? Math.abs(a[i] - b[i]) : Math.abs(a[i] - b[i]) / denom;
    if (!(err <= worst)) worst = Number.isNaN(err) ? Infinity : err;
  }
  return worst;
}

/** Largest absolute value in an array. */
export function maxAbs(a: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]));
  return m;
}

/** Relative error of two scalars with a floor `scale`. */
export function relError(a: number, b: number, scale = 0): number {
  return maxRelError([a], [b], scale);
}

/**
 * Slow readable reference: per-contract BSM gamma and vanna from lib/math's bsmGreeks, dealer
 * exposure per DESIGN section 8, accumulated into plain nested arrays.
 */
export function referenceExposure(c: ChainColumns, p: GridParams): ExposureResult {
  const callSign = p.callSign ?? 1;
  const putSign = p.putSign ?? -1;
  const rate = p.rate ?? 0;
  const q = p.dividendYield ?? 0;
  const gammaGrid = new Float64Array(p.nStrikes * p.nExp);
  const vannaGrid = new Float64Array(p.nStrikes * p.nExp);
  let contributing = 0;
  for (let i = 0; i < c.strike.length; i++) {
    const ok = c.strike[i] > 0 && c.tYears[i] > 0 && c.iv[i] > 0 && c.oi[i] > 0;
    if (!ok) continue;
    const g = bsmGreeks({
      spot: p.spot,
      strike: c.strike[i],
      tYears: c.tYears[i],
      vol: c.iv[i],
      rate,
      dividendYield: q,
      right: c.right[i] === 1 ? "C" : "P",
    });
    const sign = c.right[i] === 1 ? callSign : putSign;
    const cell = c.strikeIndex[i] * p.nExp + c.expIndex[i];
    gammaGrid[cell] += sign * g.gamma * c.oi[i] * 100 * p.spot * p.spot * 0.01;
    vannaGrid[cell] += sign * g.vanna * c.oi[i] * 100 * p.spot * 0.01;
    contributing++;
  }
  const gammaByStrike = new Float64Array(p.nStrikes);
  const vannaByStrike = new Float64Array(p.nStrikes);
  for (let r = 0; r < p.nStrikes; r++) {
    for (let e = 0; e < p.nExp; e++) {
      gammaByStrike[r] += gammaGrid[r * p.nExp + e];
      vannaByStrike[r] += vannaGrid[r * p.nExp + e];
    }
  }
  return {
    nStrikes: p.nStrikes,
    nExp: p.nExp,
    gammaGrid,
    vannaGrid,
    gammaByStrike,
    vannaByStrike,
    gammaTotal: gammaByStrike.reduce((s, v) => s + v, 0),
    vannaTotal: vannaByStrike.reduce((s, v) => s + v, 0),
    contributing,
  };
}

/** Builds columns from row objects (tests read better with rows). */
export interface Row {
  strike: number;
  tYears: number;
  iv: number;
  oi: number;
  right: "C" | "P";
  expIndex?: number;
  strikeIndex?: number;
}

/** Rows to kernel columns. */
export function columns(rows: Row[]): ChainColumns {
  return {
    strike: Float64Array.from(rows, (r) => r.strike),
    tYears: Float64Array.from(rows, (r) => r.tYears),
    iv: Float64Array.from(rows, (r) => r.iv),
    oi: Float64Array.from(rows, (r) => r.oi),
    right: Uint8Array.from(rows, (r) => (r.right === "C" ? 1 : 0)),
    expIndex: Int32Array.from(rows, (r) => r.expIndex ?? 0),
    strikeIndex: Int32Array.from(rows, (r) => r.strikeIndex ?? 0),
  };
}
