import type { ChainSnapshot } from "../market/market-data";
import { normCdf } from "../math/normal";
import { chainTerms, type ChainTerms } from "./chain-terms";
import { MINUTES_PER_YEAR, SKEW_DELTA, SKEW_TENOR_MINUTES } from "./defaults";
import { smileIv, type Smile } from "./smile-quantiles";
import { expirationSmile } from "./term-structure";

/** IVs of one expiration at the 25-delta call, the 25-delta put and the forward. */
export interface DeltaIvs {
  expiration: string;
  tMinutes: number;
  /** Decimal IVs. */
  call25: number;
  put25: number;
  atm: number;
}

/** 30-day skew readings in vol points. */
export interface SkewReading {
  /** `call25 - put25` at 30 days (negative under put skew). */
  rr25_30: number;
  /** `(call25 + put25)/2 - atm` at 30 days. */
  bf25_30: number;
  /** ATM IV at 30 days. */
  atm_30: number;
  near: DeltaIvs;
  next: DeltaIvs | null;
}

/** Forward (undiscounted) call delta `N(d1)` with the smile's IV at the strike. */
function callDelta(s: Smile, k: number): number {
  const v = smileIv(s, k);
  const sd = v * Math.sqrt(s.tYears);
  return normCdf((-Math.log(k / s.forward) + (sd * sd) / 2) / sd);
}

/**
 * The strike whose forward call delta `N(d1)` (IV read on the smile at that strike) equals
 * `delta`, by bisection over the quoted strikes; null when the quoted strikes do not reach it.
 *
 * @see docs/methodology.md#skew
 */
export function strikeAtCallDelta(s: Smile, delta: number): number | null {
  let lo = s.strike[0];
  let hi = s.strike[s.strike.length - 1];
  if (!(callDelta(s, lo) >= delta && callDelta(s, hi) <= delta)) return null;
  for (let i = 0; i < 60 && hi - lo > 1e-7 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (callDelta(s, mid) > delta) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The 25-delta call and put IVs and the ATM IV of a smile (put delta `N(d1) - 1 = -0.25`, i.e.
 * call delta 0.75). Null when a 25-delta strike is outside the quoted strikes.
 *
 * @see docs/methodology.md#skew
 */
export function deltaIvs(s: Smile, delta: number = SKEW_DELTA): { call25: number; put25: number; atm: number } | null {
  if (s.strike.length < 3) return null;
  const kc = strikeAtCallDelta(s, delta);
  const kp = strikeAtCallDelta(s, 1 - delta);
  if (kc === null || kp === null) return null;
  return { call25: smileIv(s, kc), put25: smileIv(s, kp), atm: smileIv(s, s.forward) };
}

/**
 * 30-day 25-delta risk reversal, butterfly and ATM vol (vol points): each IV read on the smiles of
 * the two expirations around 30 days and interpolated to 30 days linearly in total variance
 * (`iv^2 T`), as SVX interpolates; the nearest one alone when only one side exists.
 *
 * @example skew30(chain)?.rr25_30 // about -5 on an index
 * @see docs/methodology.md#skew
 */
export function skew30(chain: ChainSnapshot, terms: ChainTerms = chainTerms(chain)): SkewReading | null {
  const target = SKEW_TENOR_MINUTES;
  const read = (k: number): DeltaIvs | null => {
    const e = terms.expirations[k];
    const tYears = e.tMinutes / MINUTES_PER_YEAR;
    const forward = terms.term(k)?.forward ?? chain.spot * Math.exp((chain.rate - chain.dividendYield) * tYears);
    const d = deltaIvs(expirationSmile(chain, e.expIndex, forward, tYears, terms.quotes(k).strike));
    return d && { expiration: e.expiration, tMinutes: e.tMinutes, ...d };
  };
  const exps = terms.expirations;
  let split = 0;
  while (split < exps.length && exps[split].tMinutes < target) split++;
  let near: DeltaIvs | null = null;
  for (let k = split - 1; k >= 0 && !near; k--) near = read(k);
  let next: DeltaIvs | null = null;
  for (let k = split; k < exps.length && !next; k++) next = read(k);
  if (!near && !next) return null;
  const at = (pick: (d: DeltaIvs) => number): number => {
    if (near && next) {
      const w = (next.tMinutes - target) / (next.tMinutes - near.tMinutes);
      const tv = w * pick(near) ** 2 * near.tMinutes + (1 - w) * pick(next) ** 2 * next.tMinutes;
      return Math.sqrt(tv / target);
    }
    return pick((near ?? next)!);
  };
  const c = at((d) => d.call25);
  const p = at((d) => d.put25);
  const atm = at((d) => d.atm);
  return {
    rr25_30: 100 * (c - p),
    bf25_30: 100 * ((c + p) / 2 - atm),
    atm_30: 100 * atm,
    near: (near ?? next)!,
    next: near ? next : null,
  };
}
