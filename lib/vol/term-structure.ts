import type { ChainSnapshot, IsoDate } from "../market/market-data";
import { chainTerms, expirationQuotes, expirationRowRange, type ChainTerms } from "./chain-terms";
import { CURVE_FLAT_REL, MINUTES_PER_DAY, MINUTES_PER_YEAR } from "./defaults";
import type { Smile } from "./smile-quantiles";

/** One row of the term structure (one listed expiration). */
export interface TermRow {
  expiration: IsoDate;
  /** Calendar days to settlement, fractional (minutes / 1,440). */
  dte: number;
  tMinutes: number;
  /** Forward from put-call parity (the VIX term's); `S e^{(r-q)T}` when the term has none. */
  forward: number;
  /** ATM implied vol at `K = forward`, decimal, interpolated in log forward-moneyness. */
  atmIvDecimal: number;
  /** The term's VIX-strip vol, `sqrt(sigma^2)` decimal; null when the strip is unusable. */
  stripIvDecimal: number | null;
}

/**
 * Implied vol at the forward: the out-of-the-money side's IV at each strike (puts below the
 * forward, calls at or above; the other side where one is missing), linear in `k = ln(K/F)`
 * between the two strikes around `F`. Null when `F` is not inside two strikes with IVs.
 *
 * @example atmIvAtForward(Float64Array.of(90, 110), Float64Array.of(0.3, 0.2), Float64Array.of(0.3, 0.2), 100)
 * @see docs/methodology.md#term-structure
 */
export function atmIvAtForward(strike: Float64Array, putIv: Float64Array, callIv: Float64Array, forward: number): number | null {
  let kLo = Number.NaN;
  let vLo = Number.NaN;
  let kHi = Number.NaN;
  let vHi = Number.NaN;
  for (let i = 0; i < strike.length; i++) {
    const k = strike[i];
    const own = k < forward ? putIv[i] : callIv[i];
    const other = k < forward ? callIv[i] : putIv[i];
    const v = own > 0 ? own : other > 0 ? other : Number.NaN;
    if (!(v > 0)) continue;
    if (k <= forward) {
      kLo = k;
      vLo = v;
    } else {
      kHi = k;
      vHi = v;
      break;
    }
  }
  if (!(vLo > 0)) return null;
  if (kLo === forward) return vLo;
  if (!(vHi > 0)) return null;
  const xLo = Math.log(kLo / forward);
  const xHi = Math.log(kHi / forward);
  return vLo + ((vHi - vLo) * (0 - xLo)) / (xHi - xLo);
}

/**
 * The implied-volatility term structure of a board: one row per expiration with at least the
 * minimum time to settlement, nearest first, skipping expirations without an ATM IV.
 *
 * @example termStructure(chain).map((r) => [r.dte, r.atmIvDecimal])
 * @see docs/methodology.md#term-structure
 */
export function termStructure(chain: ChainSnapshot, terms: ChainTerms = chainTerms(chain)): TermRow[] {
  const rows: TermRow[] = [];
  terms.expirations.forEach((e, k) => {
    const term = terms.term(k);
    const tYears = e.tMinutes / MINUTES_PER_YEAR;
    const forward = term?.forward ?? chain.spot * Math.exp((chain.rate - chain.dividendYield) * tYears);
    const { strike, putIv, callIv } = expirationIvs(chain, e.expIndex);
    const atm = atmIvAtForward(strike, putIv, callIv, forward);
    if (atm === null) return;
    rows.push({
      expiration: e.expiration,
      dte: e.tMinutes / MINUTES_PER_DAY,
      tMinutes: e.tMinutes,
      forward,
      atmIvDecimal: atm,
      stripIvDecimal: term ? Math.sqrt(term.varianceAnnual) : null,
    });
  });
  return rows;
}

/**
 * Put and call IVs of one expiration by strike (NaN where missing); `strike`, when the caller has
 * the expiration's quotes already, is their `strike`.
 */
function expirationIvs(
  chain: ChainSnapshot,
  expIndex: number,
  strike = expirationQuotes(chain, expIndex).strike,
): { strike: Float64Array; putIv: Float64Array; callIv: Float64Array } {
  const putIv = new Float64Array(strike.length).fill(Number.NaN);
  const callIv = new Float64Array(strike.length).fill(Number.NaN);
  const [start, end] = expirationRowRange(chain, expIndex);
  let j = -1;
  let last = -1;
  for (let i = start; i < end; i++) {
    if (chain.strikeIndex[i] !== last) {
      last = chain.strikeIndex[i];
      j++;
    }
    if (chain.right[i] === 1) callIv[j] = chain.iv[i];
    else putIv[j] = chain.iv[i];
  }
  return { strike, putIv, callIv };
}

/** Shape of the SVX curve. */
export type CurveState = "contango" | "backwardation" | "humped" | "flat";

/**
 * Curve state from SVX9, SVX30 and SVX3M (vol points; SVX9 may be null): `humped` when SVX30
 * exceeds both ends by more than `CURVE_FLAT_REL` (relative), else `contango` when the long end
 * exceeds the short end by more than it, `backwardation` when it is below by more than it, else
 * `flat`. The short end is SVX9, or SVX30 without it. Null without SVX30 and SVX3M.
 *
 * @example curveState({ svx9: 14, svx30: 15, svx3m: 17 }) // "contango"
 * @see docs/methodology.md#curve-state-and-term-slope
 */
export function curveState(r: { svx9: number | null; svx30: number | null; svx3m: number | null }, flatRel: number = CURVE_FLAT_REL): CurveState | null {
  const { svx9, svx30, svx3m } = r;
  if (!(svx30! > 0 && svx3m! > 0)) return null;
  const mid = svx30!;
  const long = svx3m!;
  const hasShort = svx9 !== null && svx9 > 0;
  const short = hasShort ? svx9! : mid;
  if (hasShort && mid > (1 + flatRel) * Math.max(short, long)) return "humped";
  if (long > (1 + flatRel) * short) return "contango";
  if (long < (1 - flatRel) * short) return "backwardation";
  return "flat";
}

/**
 * Term slope in percent: `100 (SVX3M / SVX30 - 1)`; positive in contango. Null without both.
 *
 * @example termSlopePct(15, 18) // 20
 * @see docs/methodology.md#curve-state-and-term-slope
 */
export function termSlopePct(svx30: number | null, svx3m: number | null): number | null {
  if (!(svx30! > 0 && svx3m! > 0)) return null;
  return 100 * (svx3m! / svx30! - 1);
}

/**
 * Ratio of a reading to the reference (S&P) reading of the same tenor, e.g. `ratio_vix` =
 * SVX30 / SVX30 of `SPXW`. Null without both.
 *
 * @example ratioToReference(30, 15) // 2
 * @see docs/methodology.md#curve-state-and-term-slope
 */
export function ratioToReference(value: number | null, reference: number | null): number | null {
  if (!(value! > 0 && reference! > 0)) return null;
  return value! / reference!;
}

/**
 * One expiration's smile for quantiles: the out-of-the-money IV at each strike (puts below the
 * forward, calls at or above; the other side where one is missing), strikes without either dropped.
 * `strikes`: the expiration's strikes when the caller has its quotes (`ChainTerms.quotes`).
 *
 * @see docs/methodology.md#skew-aware-sides
 */
export function expirationSmile(chain: ChainSnapshot, expIndex: number, forward: number, tYears: number, strikes?: Float64Array): Smile {
  const { strike, putIv, callIv } = expirationIvs(chain, expIndex, strikes);
  const ks: number[] = [];
  const vs: number[] = [];
  for (let i = 0; i < strike.length; i++) {
    const own = strike[i] < forward ? putIv[i] : callIv[i];
    const other = strike[i] < forward ? callIv[i] : putIv[i];
    const v = own > 0 ? own : other > 0 ? other : Number.NaN;
    if (v > 0) {
      ks.push(strike[i]);
      vs.push(v);
    }
  }
  return { strike: Float64Array.from(ks), ivDecimal: Float64Array.from(vs), forward, tYears };
}
