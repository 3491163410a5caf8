import { describe, expect, it } from "vitest";
import { etInstant } from "../../lib/time";
import { atmIvAtForward, curveState, ratioToReference, svxAll, termSlopePct, termStructure } from "../../lib/vol";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const market = simulatedMarketAt(42, Date.parse("2026-01-01T00:00:00Z"));

describe("atmIvAtForward", () => {
  it("recovers a smile linear in log-moneyness exactly", () => {
    const F = 101.3;
    const strike = Float64Array.from({ length: 21 }, (_, i) => 80 + 2 * i);
    const smile = (k: number) => 0.25 - 0.3 * Math.log(k / F);
    const ivs = strike.map(smile);
    expect(atmIvAtForward(strike, ivs, ivs, F)).toBeCloseTo(0.25, 14);
  });

  it("reads puts below the forward and calls above, and falls back to the other side", () => {
    const strike = Float64Array.of(95, 105);
    const put = Float64Array.of(0.3, 9);
    const call = Float64Array.of(9, 0.2);
    expect(atmIvAtForward(strike, put, call, 100)).toBeCloseTo(0.3 + (-0.1 * -Math.log(0.95)) / (Math.log(1.05) - Math.log(0.95)), 12);
    expect(atmIvAtForward(strike, Float64Array.of(Number.NaN, 9), call, 100)).not.toBeNull();
    expect(atmIvAtForward(strike, put, call, 120)).toBeNull();
  });
});

describe("termStructure on a simulated board", () => {
  const chain = market.chainSync("SPXW", etInstant("2024-05-01", "10:30"))!;
  const rows = termStructure(chain);

  it("has one row per expiration, nearest first, forwards at carry", () => {
    expect(rows.length).toBeGreaterThan(30);
    for (let i = 1; i < rows.length; i++) expect(rows[i].dte).toBeGreaterThan(rows[i - 1].dte);
    for (const r of rows) {
      const tYears = r.tMinutes / 525_600;
      // Quotes are on the tick grid (docs/methodology.md#tick-grid): a put-call parity forward from
      // mids is exact to within one $0.10 tick on each of the call and put mids.
      const carry = chain.spot * Math.exp((chain.rate - chain.dividendYield) * tYears);
      expect(Math.abs(r.forward - carry)).toBeLessThanOrEqual(2 * 0.1 * Math.exp(chain.rate * tYears) + 1e-9 * carry);
      expect(r.dte).toBeCloseTo(r.tMinutes / 1440, 12);
    }
  });

  it("puts ATM IV below the strip vol under put skew, and total ATM variance rising with maturity", () => {
    for (const r of rows) expect(r.stripIvDecimal!).toBeGreaterThan(r.atmIvDecimal);
    for (let i = 1; i < rows.length; i++) {
      const w0 = rows[i - 1].atmIvDecimal ** 2 * rows[i - 1].tMinutes;
      const w1 = rows[i].atmIvDecimal ** 2 * rows[i].tMinutes;
      expect(w1).toBeGreaterThan(w0 * 0.999);
    }
  });
});

describe("curve state, slope and ratio", () => {
  it("classifies with the documented 2% threshold", () => {
    expect(curveState({ svx9: 14, svx30: 15, svx3m: 17 })).toBe("contango");
    expect(curveState({ svx9: 30, svx30: 25, svx3m: 22 })).toBe("backwardation");
    expect(curveState({ svx9: 20, svx30: 24, svx3m: 21 })).toBe("humped");
    expect(curveState({ svx9: 20, svx30: 20.1, svx3m: 20.3 })).toBe("flat");
    expect(curveState({ svx9: null, svx30: 20, svx3m: 22 })).toBe("contango");
    expect(curveState({ svx9: 20, svx30: null, svx3m: 22 })).toBeNull();
  });

  it("computes the slope in percent and the ratio to the reference", () => {
    expect(termSlopePct(15, 18)).toBeCloseTo(20, 12);
    expect(termSlopePct(null, 18)).toBeNull();
    expect(ratioToReference(30, 15)).toBe(2);
    expect(ratioToReference(30, 0)).toBeNull();
  });

  it("reads a simulated SPXW board in contango on a calm day", () => {
    const all = svxAll(market.chainSync("SPXW", etInstant("2024-05-01", "10:30"))!);
    const state = curveState({ svx9: all.svx9!.value, svx30: all.svx30!.value, svx3m: all.svx3m!.value });
    expect(state).toBe("contango");
  });
});
