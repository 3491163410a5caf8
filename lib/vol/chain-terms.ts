import { loadKernelsSync, type KernelEngine } from "../kernels";
import type { ChainSnapshot, IsoDate } from "../market/market-data";
import { constantMaturityVariance, type ConstantMaturityVariance } from "./constant-maturity";
import { MINUTE_MS, SVX_MIN_TERM_MINUTES } from "./defaults";
import { vixTermVariance, type VixTerm, type VixTermQuotes } from "./vix-term";

/** An expiration of a board that can take part in implied-variance reads. */
export interface TermExpiration {
  expiration: IsoDate;
  /** Column in the snapshot's `expirations`. */
  expIndex: number;
  settleMs: number;
  /** Minutes from the board's instant to settlement. */
  tMinutes: number;
}

/** A term chosen for a read, with its VIX intermediates. */
export interface TermRef extends TermExpiration {
  term: VixTerm;
}

/** A constant-maturity read and the terms it used. */
export interface VarianceRead extends ConstantMaturityVariance {
  near: TermRef | null;
  next: TermRef | null;
}

/**
 * The VIX terms of one board, computed on demand and kept: every read of the same board (five SVX
 * tenors, cones, the implied move to a close) shares them.
 */
export interface ChainTerms {
  symbol: string;
  asOfMs: number;
  /** Expirations with at least `minTermMinutes` to settlement, nearest first. */
  expirations: readonly TermExpiration[];
  /** The term of `expirations[k]`, null when its quotes give no forward or strip. */
  term(k: number): VixTerm | null;
  /** The quotes of `expirations[k]` (`expirationQuotes`), kept: the term, tilt and skew share them. */
  quotes(k: number): VixTermQuotes;
  /** Constant-maturity variance to `targetMinutes` from the board's instant; null without a usable term. */
  varianceTo(targetMinutes: number): VarianceRead | null;
}

/** Options of `chainTerms`. */
export interface ChainTermsOptions {
  /** Default `SVX_MIN_TERM_MINUTES`. */
  minTermMinutes?: number;
  /** Engine of the strip sums: default `loadKernelsSync()` (WASM, JS where WebAssembly is missing). */
  engine?: KernelEngine;
}

/**
 * Rows `[start, end)` of one expiration (rows are grouped by expiration, so a binary search).
 *
 * @see docs/methodology.md#svx-on-a-chain-snapshot
 */
export function expirationRowRange(chain: ChainSnapshot, expIndex: number): [number, number] {
  const ex = chain.expIndex;
  const n = ex.length;
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ex[mid] < expIndex) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  hi = n;
  while (end < hi) {
    const mid = (end + hi) >>> 1;
    if (ex[mid] <= expIndex) end = mid + 1;
    else hi = mid;
  }
  return [lo, end];
}

/**
 * `expirationQuotes` of rows `[start, end)` when every strike has a put row then a call row (the
 * simulator's boards): one pass, no side missing, the same values; null otherwise.
 */
function pairedQuotes(chain: ChainSnapshot, start: number, end: number): VixTermQuotes | null {
  const { strikeIndex, right, bid, ask, strikes } = chain;
  if (((end - start) & 1) !== 0) return null;
  const m = (end - start) >> 1;
  const strike = new Float64Array(m);
  const callBid = new Float64Array(m);
  const callAsk = new Float64Array(m);
  const putBid = new Float64Array(m);
  const putAsk = new Float64Array(m);
  let prev = -1;
  for (let j = 0, i = start; j < m; j++, i += 2) {
    const k = strikeIndex[i];
    if (k === prev || strikeIndex[i + 1] !== k || right[i] !== 0 || right[i + 1] !== 1) return null;
    prev = k;
    strike[j] = strikes[k];
    putBid[j] = bid[i];
    putAsk[j] = ask[i];
    callBid[j] = bid[i + 1];
    callAsk[j] = ask[i + 1];
  }
  return { strike, callBid, callAsk, putBid, putAsk };
}

/**
 * The board's expiration quotes arranged for `vixTermVariance` (one row per strike, ascending).
 * Rows of the snapshot are sorted by expiration, then strike, then right.
 *
 * @see docs/methodology.md#svx-on-a-chain-snapshot
 */
export function expirationQuotes(chain: ChainSnapshot, expIndex: number): VixTermQuotes {
  const { strikeIndex, right, bid, ask, strikes } = chain;
  const [start, end] = expirationRowRange(chain, expIndex);
  const paired = pairedQuotes(chain, start, end);
  if (paired) return paired;
  let m = 0;
  let last = -1;
  for (let i = start; i < end; i++) {
    if (strikeIndex[i] !== last) {
      last = strikeIndex[i];
      m++;
    }
  }
  const strike = new Float64Array(m);
  const callBid = new Float64Array(m).fill(Number.NaN);
  const callAsk = new Float64Array(m).fill(Number.NaN);
  const putBid = new Float64Array(m).fill(Number.NaN);
  const putAsk = new Float64Array(m).fill(Number.NaN);
  let j = -1;
  last = -1;
  for (let i = start; i < end; i++) {
    if (strikeIndex[i] !== last) {
      last = strikeIndex[i];
      strike[++j] = strikes[last];
    }
    if (right[i] === 1) {
      callBid[j] = bid[i];
      callAsk[j] = ask[i];
    } else {
      putBid[j] = bid[i];
      putAsk[j] = ask[i];
    }
  }
  return { strike, callBid, callAsk, putBid, putAsk };
}

/**
 * The VIX terms of a board (lazy). Minutes to settlement are `(settleMs - asOfMs) / 60,000`; the
 * rate is the board's continuous `rate`.
 *
 * @example
 * const terms = chainTerms(chain);
 * terms.varianceTo(43_200)?.varianceAnnual; // the 30-day variance (SVX30 = 100 sqrt of it)
 * @see docs/methodology.md#svx-on-a-chain-snapshot
 */
export function chainTerms(chain: ChainSnapshot, options: ChainTermsOptions = {}): ChainTerms {
  const minMinutes = options.minTermMinutes ?? SVX_MIN_TERM_MINUTES;
  const engine = options.engine ?? loadKernelsSync();
  const expirations: TermExpiration[] = [];
  chain.expirations.forEach((expiration, expIndex) => {
    const settleMs = chain.expirySettleMs[expIndex];
    const tMinutes = (settleMs - chain.asOfMs) / MINUTE_MS;
    if (tMinutes >= minMinutes) expirations.push({ expiration, expIndex, settleMs, tMinutes });
  });
  expirations.sort((a, b) => a.tMinutes - b.tMinutes);
  const cache: (VixTerm | null | undefined)[] = new Array(expirations.length);
  const quoteCache: (VixTermQuotes | undefined)[] = new Array(expirations.length);

  const quotes = (k: number): VixTermQuotes => (quoteCache[k] ??= expirationQuotes(chain, expirations[k].expIndex));
  const term = (k: number): VixTerm | null => {
    if (cache[k] === undefined) {
      const e = expirations[k];
      const t = vixTermVariance(quotes(k), { tMinutes: e.tMinutes, rateAnnual: chain.rate }, engine);
      cache[k] = t && t.varianceAnnual > 0 && Number.isFinite(t.varianceAnnual) ? t : null;
    }
    return cache[k]!;
  };
  const ref = (k: number): TermRef => ({ ...expirations[k], term: term(k)! });

  const varianceTo = (targetMinutes: number): VarianceRead | null => {
    // Near: the latest usable term settling before the target; next: the first at or after it.
    let split = 0;
    while (split < expirations.length && expirations[split].tMinutes < targetMinutes) split++;
    let near: TermRef | null = null;
    for (let k = split - 1; k >= 0 && !near; k--) if (term(k)) near = ref(k);
    let next: TermRef | null = null;
    for (let k = split; k < expirations.length && !next; k++) if (term(k)) next = ref(k);
    if (next && next.tMinutes === targetMinutes) near = null;
    const read = constantMaturityVariance(near?.term ?? null, next?.term ?? null, targetMinutes);
    return read ? { ...read, near, next } : null;
  };

  return { symbol: chain.symbol, asOfMs: chain.asOfMs, expirations, term, quotes, varianceTo };
}
