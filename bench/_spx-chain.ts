// A deterministic SPX-like chain in kernel columns, shared by the kernels bench, tests and the
// browser test: 40 expirations (0DTE to 3 years) x 250 strikes x call/put = 20,000 contracts,
// a skewed smile with a term structure, open interest concentrated near the money and at round strikes.
import type { ChainColumns } from "../lib/kernels";
import { mulberry32 } from "./_mulberry32";

/** A generated chain with its market parameters. */
export interface SpxChain extends ChainColumns {
  spot: number;
  rate: number;
  dividendYield: number;
  nStrikes: number;
  nExp: number;
  /** The grid's strikes (row order). */
  strikes: Float64Array;
  /** Expirations in calendar days (column order). */
  expDays: Float64Array;
}

/** Calendar days to each expiration: dailies, weeklies, monthlies, quarterlies and LEAPS. */
const EXP_DAYS = [
  0.25, 1, 2, 3, 4, 7, 8, 9, 10, 11, 14, 15, 16, 17, 18, 21, 22, 23, 24, 25, 28, 35, 42, 49, 56, 63, 77, 91, 119, 147, 182, 210, 245, 273, 364, 455, 546, 728, 910, 1092,
];

/** Strikes: 5-point steps within +-300 of spot (120 strikes), 25-point steps beyond (130). */
function strikeLadder(spot: number): Float64Array {
  const atm = Math.round(spot / 5) * 5;
  const out: number[] = [];
  for (let k = atm - 300; k < atm + 300; k += 5) out.push(k);
  for (let i = 1; i <= 65; i++) {
    out.push(atm - 300 - 25 * i);
    out.push(atm + 275 + 25 * i);
  }
  return Float64Array.from(out.sort((a, b) => a - b));
}

/** Implied vol of a strike and expiry: ATM term structure plus a put skew that flattens with T. */
export function smileIv(spot: number, strike: number, tYears: number): number {
  const atm = 0.13 + 0.04 * Math.sqrt(Math.min(tYears, 3));
  const x = Math.log(strike / spot) / Math.sqrt(Math.max(tYears, 1 / 365));
  const skew = -0.09 * x + 0.035 * x * x;
  return Math.min(1.5, Math.max(0.06, atm * (1 + skew)));
}

/**
 * The SPX-like benchmark chain. Rows come as (put, call) pairs per strike and expiration,
 * expirations outermost, like the market simulator's boards.
 *
 * @example const chain = spxChain(); chain.strike.length // 20000
 */
export function spxChain(seed = 20240614, spot = 5800): SpxChain {
  const random = mulberry32(seed);
  const strikes = strikeLadder(spot);
  const nStrikes = strikes.length;
  const nExp = EXP_DAYS.length;
  const n = nStrikes * nExp * 2;
  const c: SpxChain = {
    spot,
    rate: 0.043,
    dividendYield: 0.013,
    nStrikes,
    nExp,
    strikes,
    expDays: Float64Array.from(EXP_DAYS),
    strike: new Float64Array(n),
    tYears: new Float64Array(n),
    iv: new Float64Array(n),
    oi: new Float64Array(n),
    right: new Uint8Array(n),
    expIndex: new Int32Array(n),
    strikeIndex: new Int32Array(n),
  };
  let i = 0;
  for (let e = 0; e < nExp; e++) {
    const tYears = EXP_DAYS[e] / 365;
    const monthly = EXP_DAYS[e] >= 28 ? 2.5 : 1;
    for (let s = 0; s < nStrikes; s++) {
      const k = strikes[s];
      const iv = smileIv(spot, k, tYears);
      const sd = Math.abs(Math.log(k / spot)) / (iv * Math.sqrt(Math.max(tYears, 7 / 365)));
      const round = k % 100 === 0 ? 3 : k % 50 === 0 ? 1.8 : k % 25 === 0 ? 1.2 : 1;
      for (let r = 0; r < 2; r++) {
        // OTM side carries more open interest; puts more than calls.
        const otm = r === 0 ? k < spot : k > spot;
        const base = 4000 * monthly * round * Math.exp(-0.5 * sd * sd) * (otm ? (r === 0 ? 1.4 : 1) : 0.5);
        c.strike[i] = k;
        c.tYears[i] = tYears;
        c.iv[i] = iv;
        c.oi[i] = Math.floor(base * (0.5 + random()));
        c.right[i] = r;
        c.expIndex[i] = e;
        c.strikeIndex[i] = s;
        i++;
      }
    }
  }
  return c;
}

/** `count` spot levels evenly spaced over spot * [1 - halfWidth, 1 + halfWidth]. */
export function spotLevels(spot: number, count = 100, halfWidth = 0.1): Float64Array {
  const out = new Float64Array(count);
  for (let j = 0; j < count; j++) out[j] = spot * (1 - halfWidth + (2 * halfWidth * j) / (count - 1));
  return out;
}
