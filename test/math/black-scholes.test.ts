import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type BsmInput, BsmInputSchema, bsmGreeks, bsmPrice } from "../../lib/math/black-scholes";
import { MathInputError } from "../../lib/math/errors";
import { normalisedBlackCall, normalisedVega } from "../../lib/math/normalised-black";
import { bigNormalisedBlackCall } from "./_big-normal";

const EPS = Number.EPSILON;

describe("bsmPrice: textbook values", () => {
  it("Hull, Options, Futures and Other Derivatives, Example 15.6: c = 4.76, p = 0.81", () => {
    const base = { spot: 42, strike: 40, tYears: 0.5, vol: 0.2, rate: 0.1, dividendYield: 0 };
    expect(bsmPrice({ ...base, right: "C" })).toBeCloseTo(4.76, 2);
    expect(bsmPrice({ ...base, right: "P" })).toBeCloseTo(0.81, 2);
  });

  it("Haug, The Complete Guide to Option Pricing Formulas (2007), 1.1.6 generalized BSM: put 4.0870", () => {
    // S = 75, X = 70, T = 0.5, r = 10%, cost of carry b = 5% (q = r - b), sigma = 35%
    const p = bsmPrice({ spot: 75, strike: 70, tYears: 0.5, vol: 0.35, rate: 0.1, dividendYield: 0.05, right: "P" });
    expect(Math.abs(p - 4.087)).toBeLessThan(5e-5);
  });

  it("Haug 1.1.2 Merton (1973) with dividend yield: put 2.4648", () => {
    const p = bsmPrice({ spot: 100, strike: 95, tYears: 0.5, vol: 0.2, rate: 0.1, dividendYield: 0.05, right: "P" });
    expect(Math.abs(p - 2.4648)).toBeLessThan(5e-5);
  });

  it("Haug 1.1.3 Black (1976) on a future (q = r): call = put = 1.7011", () => {
    const base = { spot: 19, strike: 19, tYears: 0.75, vol: 0.28, rate: 0.1, dividendYield: 0.1 };
    expect(Math.abs(bsmPrice({ ...base, right: "C" }) - 1.7011)).toBeLessThan(5e-5);
    expect(Math.abs(bsmPrice({ ...base, right: "P" }) - 1.7011)).toBeLessThan(5e-5);
  });
});

describe("bsmGreeks: textbook values", () => {
  it("Hull, Examples 19.1-19.6 (S=49, K=50, r=5%, sigma=20%, 20 weeks): price 2.40, delta 0.522, gamma 0.066, vega 12.1, theta -4.31/yr", () => {
    const g = bsmGreeks({ spot: 49, strike: 50, tYears: 20 / 52, vol: 0.2, rate: 0.05, dividendYield: 0, right: "C" });
    expect(g.price).toBeCloseTo(2.4, 2);
    expect(g.delta).toBeCloseTo(0.522, 3);
    expect(g.gamma).toBeCloseTo(0.066, 3);
    expect(g.vega).toBeCloseTo(12.1, 1);
    expect(g.theta).toBeCloseTo(-4.31, 2);
  });

  it("Haug 2.1.1 delta (S=105, X=100, T=0.5, r=10%, b=0, sigma=36%): call 0.5946, put -0.3566", () => {
    const base = { spot: 105, strike: 100, tYears: 0.5, vol: 0.36, rate: 0.1, dividendYield: 0.1 };
    expect(Math.abs(bsmGreeks({ ...base, right: "C" }).delta - 0.5946)).toBeLessThan(5e-5);
    expect(Math.abs(bsmGreeks({ ...base, right: "P" }).delta + 0.3566)).toBeLessThan(5e-5);
  });

  it("Haug 2.3.1 gamma (S=55, X=60, T=0.75, r=b=10%, sigma=30%): 0.0278", () => {
    const g = bsmGreeks({ spot: 55, strike: 60, tYears: 0.75, vol: 0.3, rate: 0.1, dividendYield: 0, right: "C" });
    expect(Math.abs(g.gamma - 0.0278)).toBeLessThan(5e-5);
  });

  it("Haug 2.5.1 theta (S=430, X=405, T=0.0833, r=7%, b=2%, sigma=20%): put -31.1924 per year", () => {
    const g = bsmGreeks({ spot: 430, strike: 405, tYears: 0.0833, vol: 0.2, rate: 0.07, dividendYield: 0.05, right: "P" });
    expect(Math.abs(g.theta + 31.1924)).toBeLessThan(5e-5);
  });
});

const inputArb = fc.record({
  spot: fc.double({ min: 50, max: 150, noNaN: true }),
  strike: fc.double({ min: 50, max: 150, noNaN: true }),
  tYears: fc.double({ min: 0.05, max: 3, noNaN: true }),
  vol: fc.double({ min: 0.05, max: 1, noNaN: true }),
  rate: fc.double({ min: -0.01, max: 0.08, noNaN: true }),
  dividendYield: fc.double({ min: 0, max: 0.05, noNaN: true }),
  right: fc.constantFrom<"C" | "P">("C", "P"),
});

describe("identities", () => {
  it("put-call parity C - P = S exp(-qT) - K exp(-rT)", () => {
    fc.assert(
      fc.property(inputArb, (inp) => {
        const c = bsmPrice({ ...inp, right: "C" });
        const p = bsmPrice({ ...inp, right: "P" });
        const fwd = inp.spot * Math.exp(-inp.dividendYield * inp.tYears) - inp.strike * Math.exp(-inp.rate * inp.tYears);
        expect(Math.abs(c - p - fwd)).toBeLessThanOrEqual(1e-13 * (inp.spot + inp.strike));
      }),
      { numRuns: 1000 },
    );
  });

  it("greeks match central finite differences of the price (relative 1e-6)", () => {
    const close = (a: number, b: number, scale: number) => Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(b), scale);
    fc.assert(
      fc.property(inputArb, (inp) => {
        const g = bsmGreeks(inp);
        const px = (o: Partial<BsmInput>) => bsmPrice({ ...inp, ...o });
        const gx = (o: Partial<BsmInput>) => bsmGreeks({ ...inp, ...o });
        // Bumps scaled to each variable's natural width keep truncation error ~1e-8 relative.
        const hS = 1e-4 * inp.spot * inp.vol * Math.sqrt(inp.tYears);
        const hV = 1e-5 * inp.vol;
        const hT = 1e-5 * inp.tYears;
        const delta = (px({ spot: inp.spot + hS }) - px({ spot: inp.spot - hS })) / (2 * hS);
        const gamma = (gx({ spot: inp.spot + hS }).delta - gx({ spot: inp.spot - hS }).delta) / (2 * hS);
        const vega = (px({ vol: inp.vol + hV }) - px({ vol: inp.vol - hV })) / (2 * hV);
        const theta = -(px({ tYears: inp.tYears + hT }) - px({ tYears: inp.tYears - hT })) / (2 * hT);
        const vanna = (gx({ vol: inp.vol + hV }).delta - gx({ vol: inp.vol - hV }).delta) / (2 * hV);
        const charm = -(gx({ tYears: inp.tYears + hT }).delta - gx({ tYears: inp.tYears - hT }).delta) / (2 * hT);
        const vomma = (gx({ vol: inp.vol + hV }).vega - gx({ vol: inp.vol - hV }).vega) / (2 * hV);
        // Scales: the size of each greek at the money, so tiny values are compared absolutely.
        const S = inp.spot;
        expect(close(g.delta, delta, 1e-3), `delta ${g.delta} ${delta}`).toBe(true);
        expect(close(g.gamma, gamma, 1e-3 / S), `gamma ${g.gamma} ${gamma}`).toBe(true);
        expect(close(g.vega, vega, 1e-2 * S), `vega ${g.vega} ${vega}`).toBe(true);
        expect(close(g.theta, theta, 1e-2 * S), `theta ${g.theta} ${theta}`).toBe(true);
        expect(close(g.vanna, vanna, 1e-2), `vanna ${g.vanna} ${vanna}`).toBe(true);
        expect(close(g.charm, charm, 1e-2), `charm ${g.charm} ${charm}`).toBe(true);
        expect(close(g.vomma, vomma, 1e-1 * S), `vomma ${g.vomma} ${vomma}`).toBe(true);
        expect(g.price).toBe(bsmPrice(inp));
      }),
      { numRuns: 300 },
    );
  });
});

describe("deep out of the money", () => {
  it("normalisedBlackCall keeps full relative precision against a 2600-bit reference", () => {
    const cases: Array<[number, number]> = [
      [-0.5, 0.05], // asymptotic expansion region, b ~ 4e-26
      [-0.7, 0.02], // b ~ 6e-272
      [-0.69, 0.045], // b ~ 1e-100
      [-0.1, 0.3], // Cody region
      [-0.0001, 0.0001], // small-s expansion
      [-0.3, 0.35], // small-s expansion at its edge
      [-1e-12, 2.5],
      [-2, 6],
      [0.4, 0.3], // in the money
    ];
    for (const [x, s] of cases) {
      const ref = bigNormalisedBlackCall(x, s);
      // Conditioning of b in s (Jäckel's accuracy factor) bounds what any double evaluation can do.
      const accuracy = 1 + Math.abs((s * normalisedVega(x, s)) / ref);
      expect(ref).toBeGreaterThan(0);
      expect(Math.abs(normalisedBlackCall(x, s) - ref) / ref, `x=${x} s=${s}`).toBeLessThanOrEqual(16 * EPS * accuracy);
    }
  });

  it("a 1e-100 call price is represented, not rounded to zero", () => {
    const inp = { spot: 100, strike: 200, tYears: 0.25, vol: 0.0645, rate: 0, dividendYield: 0, right: "C" as const };
    const p = bsmPrice(inp);
    const x = Math.log(100 / 200);
    const ref = Math.sqrt(100) * Math.sqrt(200) * bigNormalisedBlackCall(x, 0.0645 * Math.sqrt(0.25));
    expect(ref).toBeLessThan(1e-95);
    expect(ref).toBeGreaterThan(1e-105);
    expect(Math.abs(p - ref) / ref).toBeLessThan(1e-12);
  });

  it("in the money = discounted intrinsic + out-of-the-money value (no cancellation)", () => {
    const base = { spot: 100, strike: 50, tYears: 1 / 525600, vol: 0.2, rate: 0.05, dividendYield: 0.01 };
    const c = bsmPrice({ ...base, right: "C" });
    const fwd = 100 * Math.exp(-0.01 * base.tYears) - 50 * Math.exp(-0.05 * base.tYears);
    expect(Math.abs(c - fwd)).toBeLessThanOrEqual(2 * EPS * 100);
    expect(bsmPrice({ ...base, right: "P" })).toBe(0); // true value ~ exp(-1e9): underflows
  });
});

describe("limits and validation", () => {
  it("zero vol or zero time gives the (discounted) intrinsic value and its greeks", () => {
    const c = bsmGreeks({ spot: 110, strike: 100, tYears: 1, vol: 0, rate: 0.05, dividendYield: 0.02, right: "C" });
    expect(c.price).toBeCloseTo(110 * Math.exp(-0.02) - 100 * Math.exp(-0.05), 12);
    expect(c.delta).toBeCloseTo(Math.exp(-0.02), 15);
    expect(c.gamma).toBe(0);
    expect(c.vega).toBe(0);
    const p = bsmGreeks({ spot: 110, strike: 100, tYears: 0, vol: 0.3, rate: 0.05, dividendYield: 0.02, right: "P" });
    expect(p.price).toBe(0);
    expect(p.delta).toBe(0);
  });

  it("throws MathInputError with the offending field", () => {
    const ok = { spot: 100, strike: 100, tYears: 1, vol: 0.2, rate: 0, dividendYield: 0, right: "C" as const };
    for (const [field, value] of [
      ["spot", 0],
      ["strike", -1],
      ["tYears", -1],
      ["vol", Number.NaN],
      ["rate", Infinity],
      ["right", "X"],
    ] as const) {
      let err: unknown;
      try {
        bsmPrice({ ...ok, [field]: value } as BsmInput);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(MathInputError);
      expect((err as MathInputError).code).toBe("invalid_input");
      expect((err as MathInputError).field).toBe(field);
    }
  });

  it("BsmInputSchema accepts valid input and rejects a negative vol", () => {
    const ok = { spot: 100, strike: 100, tYears: 1, vol: 0.2, rate: 0, dividendYield: 0, right: "C" };
    expect(BsmInputSchema.safeParse(ok).success).toBe(true);
    expect(BsmInputSchema.safeParse({ ...ok, vol: -0.1 }).success).toBe(false);
  });
});
