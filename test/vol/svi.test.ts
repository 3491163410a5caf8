import { describe, expect, it } from "vitest";
import { etInstant } from "../../lib/time";
import { chainTerms, expirationSmile, fitSvi, sviCalendarGap, sviDurrlemanG, sviTotalVariance, type SviParams, type Smile } from "../../lib/vol";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const smileOf = (p: SviParams, tYears: number, forward = 100): Smile => {
  const strike = Float64Array.from({ length: 61 }, (_, i) => forward * Math.exp(-0.6 + i * 0.02));
  const ivDecimal = strike.map((k) => Math.sqrt(sviTotalVariance(p, Math.log(k / forward)) / tYears));
  return { strike, ivDecimal, forward, tYears };
};

describe("fitSvi", () => {
  it("recovers the parameters of an exact SVI slice", () => {
    const truth: SviParams = { a: 0.01, b: 0.12, rho: -0.55, m: 0.03, sigma: 0.15 };
    const fit = fitSvi(smileOf(truth, 0.5))!;
    for (const key of ["a", "b", "rho", "m", "sigma"] as const) expect(fit.params[key]).toBeCloseTo(truth[key], 5);
    expect(fit.rmseIv).toBeLessThan(1e-8);
    expect(fit.butterflyOk).toBe(true);
  });

  it("flags butterfly arbitrage (Axel Vogt's slice, Gatheral and Jacquier 2014)", () => {
    const vogt: SviParams = { a: -0.041, b: 0.1331, rho: 0.306, m: 0.3586, sigma: 0.4153 };
    expect(Math.min(...Array.from({ length: 101 }, (_, i) => sviDurrlemanG(vogt, -1.5 + 0.03 * i)))).toBeLessThan(0);
    const fit = fitSvi(smileOf(vogt, 1))!;
    expect(fit.rmseIv).toBeLessThan(1e-6);
    expect(fit.minG).toBeLessThan(0);
    expect(fit.butterflyOk).toBe(false);
  });

  it("fits the simulator's SSVI smiles exactly, free of butterfly and calendar arbitrage", () => {
    const market = simulatedMarketAt(42, Date.parse("2026-01-01T00:00:00Z"));
    for (const symbol of ["SPY", "AAPL"]) {
      const chain = market.chainSync(symbol, etInstant("2024-05-01", "10:30"))!;
      const terms = chainTerms(chain);
      let prev: SviParams | null = null;
      let fitted = 0;
      terms.expirations.forEach((e, k) => {
        const term = terms.term(k);
        if (!term || k % 3 !== 0) return;
        const fit = fitSvi(expirationSmile(chain, e.expIndex, term.forward, e.tMinutes / 525_600))!;
        expect(fit.rmseIv, `${symbol} ${e.expiration}`).toBeLessThan(1e-7);
        expect(fit.butterflyOk).toBe(true);
        if (prev) expect(sviCalendarGap(prev, fit.params)).toBeGreaterThan(0);
        prev = fit.params;
        fitted++;
      });
      expect(fitted).toBeGreaterThan(3);
    }
  });

  it("finds calendar arbitrage when a later slice has less variance", () => {
    const early: SviParams = { a: 0.02, b: 0.1, rho: -0.5, m: 0, sigma: 0.1 };
    expect(sviCalendarGap(early, { ...early, a: 0.01 })).toBeLessThan(0);
    expect(fitSvi({ strike: Float64Array.of(1, 2, 3), ivDecimal: Float64Array.of(0.2, 0.2, 0.2), forward: 2, tYears: 1 })).toBeNull();
  });
});
