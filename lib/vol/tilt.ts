import type { ChainSnapshot } from "../market/market-data";
import { bsmPrice } from "../math/black-scholes";
import { chainTerms, type ChainTerms } from "./chain-terms";
import { MINUTES_PER_DAY, MINUTES_PER_YEAR, TILT_HEADLINE_DAYS, TILT_ROWS, TILT_Z_MIN_READINGS } from "./defaults";
import { atmIvAtForward, expirationSmile } from "./term-structure";

/** Call/put premium tilt of one expiration. */
export interface TiltRow {
  expiration: string;
  dte: number;
  /** The first listed strike above the forward (call) and below it (put). */
  call_strike: number;
  put_strike: number;
  /** Full spread over mid, percent. */
  call_spread_pct: number;
  put_spread_pct: number;
  /** Call mid over put mid. */
  ratio_raw: number;
  /** Each mid over its price at the ATM vol, call over put. */
  ratio_fwd: number;
  /** `100 ln(ratio_fwd)`: positive when calls are rich against puts. */
  tilt: number;
  /** The cheap side: `put` when calls are rich, `call` when puts are rich. */
  cheap: "call" | "put";
}

/**
 * Tilt of one expiration (index `k` of `terms.expirations`): the one-strike-OTM call (first
 * strike above the forward) against the one-strike-OTM put (first strike below), both two-sided.
 * `ratio_fwd` removes moneyness and carry: each mid is divided by its Black-Scholes-Merton price at
 * the expiration's ATM IV. Null without both contracts or an ATM IV.
 *
 * @see docs/methodology.md#tilt
 */
export function tiltRow(chain: ChainSnapshot, terms: ChainTerms, k: number): TiltRow | null {
  const e = terms.expirations[k];
  const tYears = e.tMinutes / MINUTES_PER_YEAR;
  const forward = terms.term(k)?.forward ?? chain.spot * Math.exp((chain.rate - chain.dividendYield) * tYears);
  const q = terms.quotes(k);
  let ic = -1;
  let ip = -1;
  for (let i = 0; i < q.strike.length; i++) {
    if (q.strike[i] < forward) ip = i;
    else if (q.strike[i] > forward && ic < 0) ic = i;
  }
  if (ic < 0 || ip < 0) return null;
  if (!(q.callBid[ic] > 0 && q.callAsk[ic] >= q.callBid[ic] && q.putBid[ip] > 0 && q.putAsk[ip] >= q.putBid[ip])) return null;
  const smile = expirationSmile(chain, e.expIndex, forward, tYears, q.strike);
  const atm = smile.strike.length >= 2 ? atmIvAtForward(smile.strike, smile.ivDecimal, smile.ivDecimal, forward) : null;
  if (atm === null) return null;
  const cMid = (q.callBid[ic] + q.callAsk[ic]) / 2;
  const pMid = (q.putBid[ip] + q.putAsk[ip]) / 2;
  const at = (strike: number, right: "C" | "P") => bsmPrice({ spot: chain.spot, strike, tYears, vol: atm, rate: chain.rate, dividendYield: chain.dividendYield, right });
  const ratioFwd = cMid / at(q.strike[ic], "C") / (pMid / at(q.strike[ip], "P"));
  const tilt = 100 * Math.log(ratioFwd);
  return {
    expiration: e.expiration,
    dte: e.tMinutes / MINUTES_PER_DAY,
    call_strike: q.strike[ic],
    put_strike: q.strike[ip],
    call_spread_pct: (100 * (q.callAsk[ic] - q.callBid[ic])) / cMid,
    put_spread_pct: (100 * (q.putAsk[ip] - q.putBid[ip])) / pMid,
    ratio_raw: cMid / pMid,
    ratio_fwd: ratioFwd,
    tilt,
    cheap: tilt >= 0 ? "put" : "call",
  };
}

/** The tilt readings of a board. */
export interface TiltReading {
  /** Tilt at the headline expiry (the first with at least 21 days to settle); null without one. */
  tilt_21: number | null;
  headline: TiltRow | null;
  /** The nearest expirations' rows (up to 6, from one day out). */
  rows: TiltRow[];
}

/**
 * Call/put premium tilt: `tilt_21` at the headline expiry (the first expiration with at least
 * `TILT_HEADLINE_DAYS` = 21 days to settlement whose tilt can be read) and a row per nearby
 * expiration.
 *
 * @example tilt(chain).tilt_21
 * @see docs/methodology.md#tilt
 */
export function tilt(chain: ChainSnapshot, terms: ChainTerms = chainTerms(chain)): TiltReading {
  const rows: TiltRow[] = [];
  let headline: TiltRow | null = null;
  terms.expirations.forEach((e, k) => {
    const wantRow = e.tMinutes >= MINUTES_PER_DAY && rows.length < TILT_ROWS;
    const wantHead = !headline && e.tMinutes >= TILT_HEADLINE_DAYS * MINUTES_PER_DAY;
    if (!wantRow && !wantHead) return;
    const r = tiltRow(chain, terms, k);
    if (!r) return;
    if (wantRow) rows.push(r);
    if (wantHead) headline = r;
  });
  const h = headline as TiltRow | null;
  return { tilt_21: h ? h.tilt : null, headline: h, rows };
}

/**
 * `tilt(chain, terms).tilt_21` alone: the tilt of the first expiration with at least
 * `TILT_HEADLINE_DAYS` days to settlement whose tilt can be read, without the nearby rows.
 *
 * @example tilt21(chain, chainTerms(chain)) === tilt(chain).tilt_21 // true
 * @see docs/methodology.md#tilt
 */
export function tilt21(chain: ChainSnapshot, terms: ChainTerms): number | null {
  const exps = terms.expirations;
  for (let k = 0; k < exps.length; k++) {
    if (exps[k].tMinutes < TILT_HEADLINE_DAYS * MINUTES_PER_DAY) continue;
    const r = tiltRow(chain, terms, k);
    if (r) return r.tilt;
  }
  return null;
}

/**
 * z-score of `current` against a trailing window of daily readings: `(x - mean) / sd` with the
 * sample standard deviation; null with fewer than 20 finite readings or no dispersion.
 *
 * @example zScore([1, 2, 3, ...], 4)
 * @see docs/methodology.md#tilt
 */
export function zScore(window: ArrayLike<number>, current: number): number | null {
  let n = 0;
  let sum = 0;
  for (let i = 0; i < window.length; i++) {
    if (!Number.isFinite(window[i])) continue;
    n++;
    sum += window[i];
  }
  if (n < TILT_Z_MIN_READINGS) return null;
  const mean = sum / n;
  let ss = 0;
  for (let i = 0; i < window.length; i++) if (Number.isFinite(window[i])) ss += (window[i] - mean) ** 2;
  const sd = Math.sqrt(ss / (n - 1));
  return sd > 0 ? (current - mean) / sd : null;
}
