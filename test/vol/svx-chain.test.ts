import { describe, expect, it } from "vitest";
import { etInstant, nextTradingDay } from "../../lib/time";
import { SVX_TENORS, SVX_TENOR_MINUTES, chainTerms, constantMaturityVariance, expirationQuotes, svx1d, svxAll, varianceToIndex } from "../../lib/vol";
import { referenceVixTerm } from "./_reference-vix";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const market = simulatedMarketAt(42, Date.parse("2026-01-01T00:00:00Z"));
const day = "2024-05-01";

describe("SVX on a simulated SPXW board", () => {
  const chain = market.chainSync("SPXW", etInstant(day, "10:30"))!;
  const all = svxAll(chain);

  it("reads every tenor, interpolating between bracketing expirations", () => {
    for (const tenor of SVX_TENORS) {
      const r = all[tenor]!;
      expect(r, tenor).not.toBeNull();
      expect(r.value).toBeGreaterThan(5);
      expect(r.value).toBeLessThan(80);
      expect(r.method).toBe("interpolated");
      expect(r.near!.tMinutes).toBeLessThan(SVX_TENOR_MINUTES[tenor]);
      expect(r.next!.tMinutes).toBeGreaterThanOrEqual(SVX_TENOR_MINUTES[tenor]);
    }
  });

  it("agrees with the slow reference term by term", () => {
    for (const tenor of SVX_TENORS) {
      const r = all[tenor]!;
      const ref = (t: { expiration: string; tMinutes: number }) => {
        const j = chain.expirations.indexOf(t.expiration);
        return referenceVixTerm(expirationQuotes(chain, j), t.tMinutes, chain.rate)!;
      };
      const a = ref(r.near!);
      const b = ref(r.next!);
      const read = constantMaturityVariance(
        { tMinutes: r.near!.tMinutes, varianceAnnual: a.variance },
        { tMinutes: r.next!.tMinutes, varianceAnnual: b.variance },
        SVX_TENOR_MINUTES[tenor],
      )!;
      expect(Math.abs(varianceToIndex(read.varianceAnnual) - r.value)).toBeLessThan(1e-9);
      expect(r.near!.k0).toBe(a.k0);
    }
  });

  it("has forwards consistent with spot carry and a put-skewed index above ATM vol", () => {
    const r = all.svx30!;
    const tYears = r.near!.tMinutes / 525_600;
    // Quotes are on the tick grid (docs/methodology.md#tick-grid): a put-call parity forward from
    // mids is exact to within one $0.10 tick on each of the call and put mids.
    const carry = chain.spot * Math.exp((chain.rate - chain.dividendYield) * tYears);
    expect(Math.abs(r.near!.forward - carry)).toBeLessThanOrEqual(2 * 0.1 * Math.exp(chain.rate * tYears) + 1e-9 * carry);
    // With put skew, the variance strip prices more than ATM variance.
    const terms = chainTerms(chain);
    const j = chain.expirations.indexOf(r.near!.expiration);
    const k0Row = Array.from(chain.expIndex).findIndex((e, i) => e === j && chain.strikes[chain.strikeIndex[i]] === r.near!.k0);
    expect(r.near!.varianceAnnual).toBeGreaterThan(chain.iv[k0Row] ** 2);
    expect(terms.expirations.length).toBeGreaterThan(10);
  });
});

describe("one-day SVX", () => {
  it("uses the session's 0DTE and the next day's expiration during the session", () => {
    const chain = market.chainSync("SPXW", etInstant(day, "11:00"))!;
    const r = svx1d(chain)!;
    expect(r.method).toBe("interpolated");
    expect(r.near!.expiration).toBe(day);
    expect(r.next!.expiration).toBe(nextTradingDay(day));
  });

  it("drops the 0DTE in its last minutes and holds the next term's variance rate", () => {
    const chain = market.chainSync("SPXW", etInstant(day, "15:55"))!;
    const r = svx1d(chain)!;
    expect(r.method).toBe("extrapolated");
    expect(r.near).toBeNull();
    expect(r.next!.expiration).toBe(nextTradingDay(day));
    expect(r.value).toBeCloseTo(varianceToIndex(r.next!.varianceAnnual), 12);
  });

  it("is null on a board with no usable term", () => {
    const chain = market.chainSync("SPXW", etInstant(day, "11:00"))!;
    const empty = { ...chain, bid: new Float64Array(chain.bid.length), ask: new Float64Array(chain.ask.length) };
    expect(svx1d(empty)).toBeNull();
  });
});
