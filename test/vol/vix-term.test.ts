import { describe, expect, it } from "vitest";
import { constantMaturityVariance, vixTermVariance } from "../../lib/vol";
import { referenceVixTerm } from "./_reference-vix";
import { rng, syntheticTerm } from "./_boards";

describe("vixTermVariance against the slow reference", () => {
  it("agrees on 300 random boards with zero bids, gaps and spreads", () => {
    const rand = rng(15);
    let compared = 0;
    for (let trial = 0; trial < 300; trial++) {
      const spot = 50 + rand() * 5000;
      const tYears = (1 + rand() * 200) / 365;
      const step = spot * (0.002 + rand() * 0.02);
      const strikes: number[] = [];
      for (let k = spot * 0.5; k < spot * 1.6; k += step * (rand() < 0.2 ? 3 : 1)) strikes.push(Math.round(k * 100) / 100);
      const base = 0.1 + rand() * 0.6;
      const quotes = syntheticTerm({
        spot,
        tYears,
        rate: rand() * 0.06,
        dividendYield: rand() * 0.03,
        strikes,
        vol: (k) => base * (1 + 0.4 * Math.max(0, Math.log(spot / k))),
        halfSpread: (p) => 0.01 + 0.02 * p,
        minBid: spot * 1e-4 * rand(),
      });
      // Random holes: some zero bids anywhere.
      for (let i = 0; i < strikes.length; i++) {
        if (rand() < 0.08) quotes.putBid[i] = 0;
        if (rand() < 0.08) quotes.callBid[i] = 0;
      }
      const tMinutes = tYears * 525_600;
      const rate = rand() * 0.06;
      const got = vixTermVariance(quotes, { tMinutes, rateAnnual: rate });
      const want = referenceVixTerm(quotes, tMinutes, rate);
      expect(got === null, `trial ${trial}`).toBe(want === null);
      if (!got || !want) continue;
      compared++;
      expect(got.forward).toBeCloseTo(want.forward, 9);
      expect(got.k0).toBe(want.k0);
      expect(Array.from(got.strip.strike)).toEqual(want.strikes);
      expect(Math.abs(got.varianceAnnual - want.variance)).toBeLessThan(1e-12 * Math.max(1, Math.abs(want.variance)));
    }
    expect(compared).toBeGreaterThan(250);
  });
});

describe("vixTermVariance identities", () => {
  it("recovers a flat Black-Scholes vol (the log-contract identity) on a dense strip", () => {
    for (const [vol, days] of [
      [0.15, 30],
      [0.4, 9],
      [0.25, 93],
      [0.8, 1],
    ] as const) {
      const tYears = days / 365;
      const spot = 4000;
      const width = Math.exp(7 * vol * Math.sqrt(tYears));
      const strikes: number[] = [];
      for (let k = Math.floor(spot / width); k <= spot * width; k += 0.5) strikes.push(k);
      const quotes = syntheticTerm({ spot, tYears, rate: 0.04, dividendYield: 0.015, strikes, vol: () => vol });
      const term = vixTermVariance(quotes, { tMinutes: days * 1440, rateAnnual: 0.04 })!;
      expect(term.forward).toBeCloseTo(spot * Math.exp((0.04 - 0.015) * tYears), 6);
      expect(Math.abs(term.varianceAnnual / (vol * vol) - 1)).toBeLessThan(2e-4);
    }
  });

  it("prices put-call parity: the forward does not depend on which strike is nearest", () => {
    const spot = 100;
    const strikes = Array.from({ length: 81 }, (_, i) => 60 + i);
    const quotes = syntheticTerm({ spot, tYears: 0.25, rate: 0.05, dividendYield: 0.02, strikes, vol: (k) => 0.3 - 0.1 * Math.log(k / spot) });
    const term = vixTermVariance(quotes, { tMinutes: 0.25 * 525_600, rateAnnual: 0.05 })!;
    expect(term.forward).toBeCloseTo(spot * Math.exp(0.03 * 0.25), 10);
  });

  it("returns null without a two-sided call and put", () => {
    const z = new Float64Array(3);
    const quotes = { strike: Float64Array.of(1, 2, 3), callBid: z, callAsk: z, putBid: z, putAsk: z };
    expect(vixTermVariance(quotes, { tMinutes: 100, rateAnnual: 0 })).toBeNull();
  });
});

describe("constantMaturityVariance", () => {
  const a = { tMinutes: 10_000, varianceAnnual: 0.04 };
  const b = { tMinutes: 50_000, varianceAnnual: 0.09 };

  it("is each term at its own maturity and linear in total variance between", () => {
    expect(constantMaturityVariance(a, b, 10_000)!.varianceAnnual).toBeCloseTo(0.04, 14);
    expect(constantMaturityVariance(a, b, 50_000)!.varianceAnnual).toBeCloseTo(0.09, 14);
    const mid = constantMaturityVariance(a, b, 30_000)!;
    const wa = (0.04 * 10_000) / 525_600;
    const wb = (0.09 * 50_000) / 525_600;
    expect(mid.totalVariance).toBeCloseTo((wa + wb) / 2, 14);
    expect(mid.weightNear + mid.weightNext).toBeCloseTo(1, 14);
  });

  it("holds a single term's variance rate flat", () => {
    const one = constantMaturityVariance(null, b, 1_440)!;
    expect(one.method).toBe("extrapolated");
    expect(one.varianceAnnual).toBe(0.09);
    expect(constantMaturityVariance(a, null, 1e6)!.varianceAnnual).toBe(0.04);
    expect(constantMaturityVariance(null, null, 1)).toBeNull();
  });
});
