// The SKEW-style index against closed forms: on a lognormal board (one BSM vol) the strip's
// moments are those of a normal log return, N(-s^2 T/2, s^2 T), and the skewness is 0 (SKEW 100);
// on a two-lognormal mixture board (prices = weighted BSM prices, each component with the same
// forward) the log return is a normal mixture with closed-form moments and a negative skewness.
import { describe, expect, it } from "vitest";
import { bsmPrice } from "../../lib/math";
import { etInstant } from "../../lib/time";
import { chainTerms, vixTermVariance, type VixTermQuotes } from "../../lib/vol";
import { skewIndex, skewTermMoments } from "../../lib/vol/skew-index";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const T_MIN = 30 * 1440;
const T = T_MIN / 525_600;
const SPOT = 100;
const RATE = 0.03;
const DIV = 0.01;

/** Quotes (bid = ask = price, prices under 1e-10 quoted as zero bids) of a mixture of lognormals. */
function mixtureQuotes(components: { weight: number; vol: number }[]): VixTermQuotes {
  const strikes: number[] = [];
  for (let k = 30; k <= 250 + 1e-9; k += 0.05) strikes.push(Math.round(k * 100) / 100);
  const n = strikes.length;
  const q: VixTermQuotes = {
    strike: Float64Array.from(strikes),
    callBid: new Float64Array(n),
    callAsk: new Float64Array(n),
    putBid: new Float64Array(n),
    putAsk: new Float64Array(n),
  };
  strikes.forEach((strike, i) => {
    let c = 0;
    let p = 0;
    for (const m of components) {
      const base = { spot: SPOT, strike, tYears: T, vol: m.vol, rate: RATE, dividendYield: DIV };
      c += m.weight * bsmPrice({ ...base, right: "C" });
      p += m.weight * bsmPrice({ ...base, right: "P" });
    }
    q.callBid[i] = c >= 1e-10 ? c : 0;
    q.callAsk[i] = c;
    q.putBid[i] = p >= 1e-10 ? p : 0;
    q.putAsk[i] = p;
  });
  return q;
}

/** Raw moments of ln(S_T/F) for the mixture: each component is N(-v/2, v), v = vol^2 T. */
function mixtureMoments(components: { weight: number; vol: number }[]) {
  let p1 = 0;
  let p2 = 0;
  let p3 = 0;
  for (const { weight, vol } of components) {
    const v = vol * vol * T;
    const m = -v / 2;
    p1 += weight * m;
    p2 += weight * (v + m * m);
    p3 += weight * (m * m * m + 3 * m * v);
  }
  return { p1, p2, p3, skewness: (p3 - 3 * p1 * p2 + 2 * p1 ** 3) / (p2 - p1 * p1) ** 1.5 };
}

const termOf = (quotes: VixTermQuotes) => vixTermVariance(quotes, { tMinutes: T_MIN, rateAnnual: RATE })!;

describe("skewTermMoments", () => {
  it("a lognormal board: the moments of N(-s^2 T/2, s^2 T) and a skewness of 0 (SKEW 100)", () => {
    const comps = [{ weight: 1, vol: 0.2 }];
    const m = skewTermMoments(termOf(mixtureQuotes(comps)))!;
    const want = mixtureMoments(comps);
    expect(Math.abs(m.p1 / want.p1 - 1)).toBeLessThan(1e-4);
    expect(Math.abs(m.p2 / want.p2 - 1)).toBeLessThan(1e-4);
    expect(Math.abs(m.p3 / want.p3 - 1)).toBeLessThan(1e-3);
    expect(Math.abs(m.skewness)).toBeLessThan(2e-3);
    expect(Math.abs(100 - 10 * m.skewness - 100)).toBeLessThan(0.02);
  });

  it("a two-lognormal mixture: the normal mixture's closed-form moments and skewness", () => {
    const comps = [
      { weight: 0.8, vol: 0.12 },
      { weight: 0.2, vol: 0.45 },
    ];
    const m = skewTermMoments(termOf(mixtureQuotes(comps)))!;
    const want = mixtureMoments(comps);
    expect(want.skewness).toBeLessThan(-0.1);
    expect(Math.abs(m.p1 / want.p1 - 1)).toBeLessThan(1e-4);
    expect(Math.abs(m.p2 / want.p2 - 1)).toBeLessThan(1e-4);
    expect(Math.abs(m.p3 / want.p3 - 1)).toBeLessThan(1e-3);
    expect(Math.abs(m.skewness - want.skewness)).toBeLessThan(2e-3);
  });
});

describe("skewIndex on a simulated SPXW board", () => {
  const market = simulatedMarketAt(42, Date.parse("2026-01-01T00:00:00Z"));
  const board = market.chainSync("SPXW", etInstant("2024-05-01", "10:30"))!;
  const terms = chainTerms(board);
  const r = skewIndex(terms)!;

  it("interpolates the two SVX30 terms' skewness linearly in minutes to 30 days", () => {
    expect(r.near && r.next).toBeTruthy();
    const read = terms.varianceTo(T_MIN)!;
    expect(r.near!.expiration).toBe(read.near!.expiration);
    expect(r.next!.expiration).toBe(read.next!.expiration);
    const w = (r.next!.tMinutes - T_MIN) / (r.next!.tMinutes - r.near!.tMinutes);
    expect(r.weightNear).toBeCloseTo(w, 12);
    expect(r.value).toBeCloseTo(100 - 10 * (w * r.near!.skewness + (1 - w) * r.next!.skewness), 10);
  });

  it("index put skew prices a left-skewed return: SKEW above 100, in the index's usual range", () => {
    expect(r.near!.skewness).toBeLessThan(0);
    expect(r.next!.skewness).toBeLessThan(0);
    expect(r.value).toBeGreaterThan(105);
    expect(r.value).toBeLessThan(180);
  });
});
