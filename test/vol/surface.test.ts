import { describe, expect, it } from "vitest";
import { etInstant } from "../../lib/time";
import { chainTerms, deltaIvs, expirationSmile, skew30, surface, sviIvAtDelta } from "../../lib/vol";
import { surfaceSteps } from "../../lib/vol/surface";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const market = simulatedMarketAt(42, Date.parse("2026-01-01T00:00:00Z"));
const chain = market.chainSync("SPY", etInstant("2024-05-01", "10:30"))!;

describe("sviIvAtDelta", () => {
  it("is the flat vol on a flat slice", () => {
    const w = 0.04 * 0.5;
    const flat = { a: w, b: 0, rho: 0, m: 0, sigma: 0.1 };
    for (const d of [0.1, 0.25, 0.75, 0.9]) expect(sviIvAtDelta(flat, 0.5, d)).toBeCloseTo(0.2, 12);
  });
});

describe("surface", () => {
  const s = surface(chain);

  it("orders the delta buckets under index put skew and passes the fit checks", () => {
    expect(s.expiries.length).toBeGreaterThan(20);
    for (const e of s.expiries) {
      expect(e.iv_10p!).toBeGreaterThan(e.iv_25p!);
      expect(e.iv_25p!).toBeGreaterThan(e.atm_iv);
      expect(e.atm_iv).toBeGreaterThan(e.iv_25c!);
      expect(e.iv_25c!).toBeGreaterThan(e.iv_10c!);
      expect(e.fit.butterfly_ok).toBe(true);
      expect(e.fit.calendar_ok).not.toBe(false);
      expect(e.dte).toBeGreaterThanOrEqual(1);
    }
  });

  it("in steps, pauses after each fitted expiration and ends with the same module", () => {
    // The server runs the steps with the loop's other work between fits (module-objects.ts).
    const steps = surfaceSteps(chain);
    let pauses = 0;
    let r = steps.next();
    while (!r.done) {
      pauses++;
      r = steps.next();
    }
    expect(pauses).toBeGreaterThanOrEqual(s.expiries.length);
    expect(r.value).toEqual(s);
  });

  it("agrees with the 25-delta IVs read directly on the quoted smile", () => {
    const terms = chainTerms(chain);
    for (const e of s.expiries.slice(0, 10)) {
      const k = terms.expirations.findIndex((x) => x.expiration === e.expiration);
      const x = terms.expirations[k];
      const smile = expirationSmile(chain, x.expIndex, terms.term(k)!.forward, x.tMinutes / 525_600);
      const d = deltaIvs(smile)!;
      expect(Math.abs(100 * d.call25 - e.iv_25c!)).toBeLessThan(0.05);
      expect(Math.abs(100 * d.put25 - e.iv_25p!)).toBeLessThan(0.05);
    }
    expect(s.rr25_30).toBe(skew30(chain)!.rr25_30);
  });
});
