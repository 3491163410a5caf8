// Synthetic boards for the vol tests: BSM prices from lib/math (the tests' closed forms).
import { bsmPrice } from "../../lib/math";
import type { VixTermQuotes } from "../../lib/vol";

export interface SyntheticTermSpec {
  spot: number;
  tYears: number;
  rate: number;
  dividendYield: number;
  strikes: number[];
  /** Vol at a strike (a flat smile when constant). */
  vol: (strike: number) => number;
  /** Half-spread at a price (0 for exact mids). */
  halfSpread?: (price: number) => number;
  /** Bids below this are quoted as zero. */
  minBid?: number;
}

/** One expiration's quotes from BSM prices. */
export function syntheticTerm(spec: SyntheticTermSpec): VixTermQuotes {
  const n = spec.strikes.length;
  const q: VixTermQuotes = {
    strike: Float64Array.from(spec.strikes),
    callBid: new Float64Array(n),
    callAsk: new Float64Array(n),
    putBid: new Float64Array(n),
    putAsk: new Float64Array(n),
  };
  const h = spec.halfSpread ?? (() => 0);
  const minBid = spec.minBid ?? 0;
  spec.strikes.forEach((strike, i) => {
    const base = { spot: spec.spot, strike, tYears: spec.tYears, vol: spec.vol(strike), rate: spec.rate, dividendYield: spec.dividendYield };
    const c = bsmPrice({ ...base, right: "C" });
    const p = bsmPrice({ ...base, right: "P" });
    const cb = c - h(c);
    const pb = p - h(p);
    q.callBid[i] = cb >= minBid ? cb : 0;
    q.callAsk[i] = c + h(c);
    q.putBid[i] = pb >= minBid ? pb : 0;
    q.putAsk[i] = p + h(p);
  });
  return q;
}

/** A small deterministic PRNG (the benches' mulberry32). */
export { mulberry32 as rng } from "../../bench/_mulberry32";
