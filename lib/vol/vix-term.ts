import * as z from "zod";
import { MINUTES_PER_YEAR, VIX_ZERO_BID_STOP } from "./defaults";
import { loadKernelsSync, type KernelEngine } from "../kernels";

/**
 * Quotes of one expiration, one row per strike, strikes strictly ascending; all columns have the
 * same length. A missing quote is `NaN` (a missing or zero bid counts as a zero bid).
 */
export interface VixTermQuotes {
  strike: Float64Array;
  callBid: Float64Array;
  callAsk: Float64Array;
  putBid: Float64Array;
  putAsk: Float64Array;
}

/** Which option a strip strike uses: 0 put, 1 call, 2 both averaged (K0). */
export const STRIP_PUT = 0;
export const STRIP_CALL = 1;
export const STRIP_K0 = 2;

/** The selected strikes of a term, ascending, with their `dK`, `Q(K)` and contribution. */
export interface VixStrip {
  strike: Float64Array;
  /** `STRIP_PUT`, `STRIP_CALL` or `STRIP_K0`. */
  side: Uint8Array;
  dK: Float64Array;
  /** Mid price used, `Q(K)` (the put and call mids averaged at K0). */
  q: Float64Array;
  /** `dK / K^2 * e^{RT} * Q(K)`. */
  contribution: Float64Array;
}

/** One term of the VIX calculation, every intermediate the Cboe white paper prints. */
export interface VixTerm {
  /** Minutes to settlement (the Cboe `N`). */
  tMinutes: number;
  /** `N / 525,600`. */
  tYears: number;
  /** Continuous risk-free rate to the expiration, decimal per year (the Cboe `R`). */
  rateAnnual: number;
  /** Strike with the smallest absolute difference between call and put mids. */
  parityStrike: number;
  parityCallMid: number;
  parityPutMid: number;
  /** Forward index level, `K + e^{RT}(C - P)` at `parityStrike`. */
  forward: number;
  /** The strike equal to or immediately below the forward. */
  k0: number;
  strip: VixStrip;
  /** `sum dK/K^2 e^{RT} Q(K)`. */
  contributionSum: number;
  /** `(2/T) contributionSum`, annualised. */
  strikeTermAnnual: number;
  /** `(1/T)(F/K0 - 1)^2`, annualised. */
  correctionAnnual: number;
  /** `sigma^2 = strikeTermAnnual - correctionAnnual`, annualised variance (decimal^2 per year). */
  varianceAnnual: number;
  /** `sigma^2 T`, total variance to settlement. */
  totalVariance: number;
}

/** Arguments of `vixTermVariance` besides the quotes. */
export const VixTermParamsSchema = z.object({
  /** Minutes to settlement, > 0. */
  tMinutes: z.number().positive(),
  /** Continuous risk-free rate, decimal per year. */
  rateAnnual: z.number().finite(),
});
export type VixTermParams = z.output<typeof VixTermParamsSchema>;

// biome-ignore lint/complexity/useMathMinMax: a NaN bid reads as 0; Math.max would propagate it
const bidOf = (x: number): number => (x > 0 ? x : 0);

/**
 * One term of the Cboe VIX calculation on one expiration's quotes: forward and K0 from put-call
 * parity, strike selection with the two-consecutive-zero-bid rule, and
 * `sigma^2 = (2/T) sum dK/K^2 e^{RT} Q(K) - (1/T)(F/K0 - 1)^2` with `T` in minutes / 525,600.
 * Returns null when no strike has a two-sided call and put (no forward), or when fewer than two
 * strikes survive the selection. The strip sum runs on `engine` (WASM by default, the JS engine
 * as its oracle; docs/methodology.md#vix-strip-sum-kernel).
 *
 * @example
 * const term = vixTermVariance(quotes, { tMinutes: 35_924, rateAnnual: 0.000305 });
 * term?.forward; // 1962.89996 on the white paper's near term
 * @see docs/methodology.md#forward-and-k0
 * @see docs/methodology.md#strike-selection
 * @see docs/methodology.md#variance-per-term
 */
export function vixTermVariance(quotes: VixTermQuotes, params: VixTermParams, engine: KernelEngine = loadKernelsSync()): VixTerm | null {
  const { strike, callBid, callAsk, putBid, putAsk } = quotes;
  const n = strike.length;
  const tMinutes = params.tMinutes;
  const tYears = tMinutes / MINUTES_PER_YEAR;
  const growth = Math.exp(params.rateAnnual * tYears);

  // Forward: the strike where |C mid - P mid| is smallest among two-sided calls and puts
  // (lowest strike on a tie).
  let atm = -1;
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    if (!(callBid[i] > 0 && putBid[i] > 0 && callAsk[i] >= callBid[i] && putAsk[i] >= putBid[i])) continue;
    const d = Math.abs((callBid[i] + callAsk[i]) / 2 - (putBid[i] + putAsk[i]) / 2);
    if (d < best) {
      best = d;
      atm = i;
    }
  }
  if (atm < 0) return null;
  const parityCallMid = (callBid[atm] + callAsk[atm]) / 2;
  const parityPutMid = (putBid[atm] + putAsk[atm]) / 2;
  const forward = strike[atm] + growth * (parityCallMid - parityPutMid);

  // K0: the strike equal to or immediately below F.
  let i0 = -1;
  for (let i = 0; i < n && strike[i] <= forward; i++) i0 = i;
  if (i0 < 0) return null;

  // Selection: walk away from K0, skipping zero bids, stopping after two in a row.
  const pick = new Int32Array(n);
  let nPut = 0;
  for (let i = i0 - 1, zeros = 0; i >= 0; i--) {
    if (bidOf(putBid[i]) > 0 && putAsk[i] >= putBid[i]) {
      pick[nPut++] = i;
      zeros = 0;
    } else if (++zeros >= VIX_ZERO_BID_STOP) break;
  }
  const m0 = nPut;
  let m = nPut + 1;
  for (let i = i0 + 1, zeros = 0; i < n; i++) {
    if (bidOf(callBid[i]) > 0 && callAsk[i] >= callBid[i]) {
      pick[m++] = i;
      zeros = 0;
    } else if (++zeros >= VIX_ZERO_BID_STOP) break;
  }
  if (m < 2) return null;

  const sStrike = new Float64Array(m);
  const side = new Uint8Array(m);
  const q = new Float64Array(m);
  for (let j = 0; j < m0; j++) {
    const i = pick[m0 - 1 - j];
    sStrike[j] = strike[i];
    side[j] = STRIP_PUT;
    q[j] = (putBid[i] + putAsk[i]) / 2;
  }
  sStrike[m0] = strike[i0];
  side[m0] = STRIP_K0;
  q[m0] = k0Mid(callBid[i0], callAsk[i0], putBid[i0], putAsk[i0]);
  for (let j = m0 + 1; j < m; j++) {
    const i = pick[j];
    sStrike[j] = strike[i];
    side[j] = STRIP_CALL;
    q[j] = (callBid[i] + callAsk[i]) / 2;
  }

  // dK: half the distance between the neighbours in the strip; the one neighbour at each end.
  const dK = new Float64Array(m);
  dK[0] = sStrike[1] - sStrike[0];
  dK[m - 1] = sStrike[m - 1] - sStrike[m - 2];
  for (let j = 1; j < m - 1; j++) dK[j] = (sStrike[j + 1] - sStrike[j - 1]) / 2;

  const contribution = new Float64Array(m);
  const contributionSum = engine.vixStripSum({ strike: sStrike, dK, q }, growth, contribution);
  const k0 = strike[i0];
  const strikeTermAnnual = (2 / tYears) * contributionSum;
  const rel = forward / k0 - 1;
  const correctionAnnual = (rel * rel) / tYears;
  const varianceAnnual = strikeTermAnnual - correctionAnnual;
  return {
    tMinutes,
    tYears,
    rateAnnual: params.rateAnnual,
    parityStrike: strike[atm],
    parityCallMid,
    parityPutMid,
    forward,
    k0,
    strip: { strike: sStrike, side, dK, q, contribution },
    contributionSum,
    strikeTermAnnual,
    correctionAnnual,
    varianceAnnual,
    totalVariance: varianceAnnual * tYears,
  };
}

/** Q(K0): the average of the put and call mids (one side alone when the other is unquoted). */
function k0Mid(cb: number, ca: number, pb: number, pa: number): number {
  const c = (cb + ca) / 2;
  const p = (pb + pa) / 2;
  if (Number.isFinite(c) && Number.isFinite(p)) return (c + p) / 2;
  return Number.isFinite(c) ? c : p;
}
