// The VIX strip sum on both kernel engines: the WASM kernel (assembly/vix-strip.ts) against the
// JS engine (the oracle) on random strips, property-tested to 1e-12 relative; whole terms on
// both engines against the slow reference VIX term; boundary checks alike on both engines.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsKernels, KernelError, loadKernelsSync, type KernelEngine } from "../../lib/kernels";
import { etInstant } from "../../lib/time";
import { chainTerms, svxAll, vixTermVariance } from "../../lib/vol";
import { referenceVixTerm } from "./_reference-vix";
import { rng, syntheticTerm } from "./_boards";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const wasm = loadKernelsSync({ engine: "wasm" });
const relErr = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(b), Number.MIN_VALUE);

/** A strip as vixTermVariance builds it: ascending strikes, dK from the neighbours, mids >= 0. */
const stripArb = fc
  .record({
    n: fc.integer({ min: 2, max: 600 }),
    k0: fc.double({ min: 0.5, max: 20_000, noNaN: true }),
    step: fc.double({ min: 0.01, max: 250, noNaN: true }),
    seed: fc.integer(),
    rate: fc.double({ min: -0.02, max: 0.12, noNaN: true }),
    tYears: fc.double({ min: 1 / 525_600, max: 3, noNaN: true }),
  })
  .map(({ n, k0, step, seed, rate, tYears }) => {
    const r = rng(seed);
    const strike = new Float64Array(n);
    let k = k0;
    for (let i = 0; i < n; i++) {
      strike[i] = k;
      k += step * (0.5 + 3 * r()); // uneven spacing, as skipped zero bids make it
    }
    const dK = new Float64Array(n);
    dK[0] = strike[1] - strike[0];
    dK[n - 1] = strike[n - 1] - strike[n - 2];
    for (let i = 1; i < n - 1; i++) dK[i] = (strike[i + 1] - strike[i - 1]) / 2;
    // Mids from a penny to deep in the money, a few exact zeros.
    const q = Float64Array.from({ length: n }, () => (r() < 0.02 ? 0 : 10 ** (-2 + 6 * r())));
    return { strip: { strike, dK, q }, growth: Math.exp(rate * tYears) };
  });

describe("VIX strip sum: WASM kernel against the JS engine", () => {
  it("runs on the WASM engine", () => {
    expect(wasm.name).toBe("wasm");
  });

  it("random strips agree to 1e-12 relative, sum and every contribution", () => {
    fc.assert(
      fc.property(stripArb, ({ strip, growth }) => {
        const n = strip.strike.length;
        const cw = new Float64Array(n);
        const cj = new Float64Array(n);
        const sw = wasm.vixStripSum(strip, growth, cw);
        const sj = jsKernels.vixStripSum(strip, growth, cj);
        expect(relErr(sw, sj)).toBeLessThanOrEqual(1e-12);
        for (let i = 0; i < n; i++) {
          if (cj[i] === 0) expect(cw[i]).toBe(0);
          else expect(relErr(cw[i], cj[i])).toBeLessThanOrEqual(1e-12);
        }
        // The total is the sum of the contributions written.
        let s = 0;
        for (let i = 0; i < n; i++) s += cj[i];
        expect(sj).toBe(s);
      }),
      { numRuns: 300, seed: 15 },
    );
  });

  it("a strip larger than the module's memory grows it and still agrees", () => {
    const n = 200_000;
    const strike = Float64Array.from({ length: n }, (_, i) => 100 + i * 0.5);
    const dK = new Float64Array(n).fill(0.5);
    const q = Float64Array.from({ length: n }, (_, i) => 1 + (i % 97));
    const cw = new Float64Array(n);
    const cj = new Float64Array(n);
    expect(relErr(wasm.vixStripSum({ strike, dK, q }, 1.001, cw), jsKernels.vixStripSum({ strike, dK, q }, 1.001, cj))).toBeLessThanOrEqual(1e-12);
    expect(relErr(cw[n - 1], cj[n - 1])).toBeLessThanOrEqual(1e-12);
  });

  it.each([
    ["wasm", wasm],
    ["js", jsKernels],
  ] as [string, KernelEngine][])("the %s engine refuses unequal columns and a non-finite growth with KernelError", (_name, engine) => {
    const a = new Float64Array(3).fill(1);
    const short = new Float64Array(2).fill(1);
    expect(() => engine.vixStripSum({ strike: a, dK: short, q: a }, 1, new Float64Array(3))).toThrow(KernelError);
    expect(() => engine.vixStripSum({ strike: a, dK: a, q: a }, 1, new Float64Array(2))).toThrow(/contribution/);
    expect(() => engine.vixStripSum({ strike: a, dK: a, q: a }, Number.NaN, new Float64Array(3))).toThrow(/growth/);
  });
});

describe("whole VIX terms on both engines", () => {
  it("random BSM terms: both engines equal the slow reference's variance", () => {
    const r = rng(7);
    let read = 0;
    for (let trial = 0; trial < 40; trial++) {
      const spot = 50 + 5_000 * r();
      const tYears = (1 + 700 * r()) / 365;
      const step = spot * (0.002 + 0.02 * r());
      const count = 40 + Math.floor(160 * r());
      const strikes = Array.from({ length: count }, (_, i) => spot + (i - count / 2) * step);
      const atm = 0.1 + 0.6 * r();
      const quotes = syntheticTerm({
        spot,
        tYears,
        rate: 0.05 * r(),
        dividendYield: 0.02 * r(),
        strikes: strikes.filter((k) => k > 0),
        vol: (k) => atm * (1 - 0.3 * Math.log(k / spot)),
        halfSpread: (p) => 0.01 + 0.02 * p,
        minBid: 0.05,
      });
      const tMinutes = Math.round(tYears * 525_600);
      const rate = 0.04;
      const ref = referenceVixTerm(quotes, tMinutes, rate);
      const w = vixTermVariance(quotes, { tMinutes, rateAnnual: rate }, wasm);
      const j = vixTermVariance(quotes, { tMinutes, rateAnnual: rate }, jsKernels);
      if (!ref) {
        expect(w).toBeNull();
        continue;
      }
      expect(relErr(w!.varianceAnnual, ref.variance), `trial ${trial}`).toBeLessThanOrEqual(1e-12);
      expect(relErr(j!.varianceAnnual, w!.varianceAnnual)).toBeLessThanOrEqual(1e-12);
      read++;
    }
    expect(read).toBeGreaterThanOrEqual(30);
  });

  it("SVX on a whole SPXW board: the engines agree to 1e-12 on every tenor", () => {
    const market = simulatedMarketAt(42, Date.parse("2026-01-01T00:00:00Z"));
    const board = market.chainSync("SPXW", etInstant("2024-05-01", "10:30"))!;
    const a = svxAll(chainTerms(board, { engine: wasm }));
    const b = svxAll(chainTerms(board, { engine: jsKernels }));
    for (const t of ["svx1d", "svx9", "svx30", "svx3m", "svx6m"] as const) {
      expect(relErr(a[t]!.value, b[t]!.value), t).toBeLessThanOrEqual(1e-12);
    }
  });
});
