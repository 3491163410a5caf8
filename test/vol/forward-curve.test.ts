// The futures-style SVX curve: VX-style settlement dates against Cboe's published VIX futures
// settlements, and forward 30-day vols against the forward-variance formula on hand-made term
// structures (a stub ChainTerms whose total variance is known in closed form).
import { describe, expect, it } from "vitest";
import { etInstant } from "../../lib/time";
import { chainTerms, svxAll, type ChainTerms } from "../../lib/vol";
import { forwardSvxCurve, vxSettlementDate } from "../../lib/vol/forward-curve";
import { simulatedMarketAt } from "../_helpers/simulated-market";

describe("vxSettlementDate", () => {
  it.each([
    [2024, 3, "2024-03-20"],
    [2024, 4, "2024-04-17"],
    [2024, 5, "2024-05-22"],
    // 2024-06-19 (30 days before 2024-07-19) is Juneteenth: the Tuesday before.
    [2024, 6, "2024-06-18"],
    // April 2025's standard is Thursday 2025-04-17 (Good Friday): 30 days before the Friday.
    [2025, 3, "2025-03-19"],
    [2024, 12, "2024-12-18"],
  ])("%i-%i settles %s", (y, m, want) => {
    expect(vxSettlementDate(y, m)).toBe(want);
  });
});

/** A stub board whose annualised variance at N minutes is vol(N)^2. */
function stubTerms(asOfMs: number, vol: (minutes: number) => number, lastDays = 400): Pick<ChainTerms, "asOfMs" | "varianceTo" | "expirations"> {
  return {
    asOfMs,
    expirations: [{ expiration: "x", expIndex: 0, settleMs: asOfMs + lastDays * 86_400_000, tMinutes: lastDays * 1440 }],
    varianceTo: (n: number) => ({ totalVariance: (vol(n) ** 2 * n) / 525_600 }) as never,
  };
}

describe("forwardSvxCurve", () => {
  const asOfMs = Date.parse("2024-03-06T15:00:00Z"); // Wed 10:00 ET

  it("each point is the forward 30-day vol between its settlement and 30 days later", () => {
    const vol = (n: number) => 0.14 + 0.06 * Math.sqrt(n / 525_600);
    const c = forwardSvxCurve(stubTerms(asOfMs, vol), 15);
    expect(c.points.map((p) => p.settle)).toEqual(["2024-03-20", "2024-04-17", "2024-05-22", "2024-06-18", "2024-07-17", "2024-08-21"]);
    for (const p of c.points) {
      // 09:30 ET of the settlement day.
      expect(p.minutes).toBe((etInstant(p.settle, "09:30") - asOfMs) / 60_000);
      const n1 = p.minutes;
      const n2 = n1 + 43_200;
      const fwdVar = (vol(n2) ** 2 * n2 - vol(n1) ** 2 * n1) / 43_200;
      expect(p.forwardSvx).toBeCloseTo(100 * Math.sqrt(fwdVar), 10);
    }
    const [m1, m2] = c.points;
    expect(c.vx_curve_state).toBe(m2.forwardSvx > 1.02 * m1.forwardSvx ? "contango" : "flat");
    expect(c.vx_roll_pct).toBeCloseTo(100 * (m2.forwardSvx / m1.forwardSvx - 1), 12);
    expect(c.vx_m1_vs_vix_pct).toBeCloseTo(100 * (m1.forwardSvx / 15 - 1), 12);
  });

  it("a flat term structure has a flat curve at the spot reading; an inverted one is in backwardation", () => {
    const flat = forwardSvxCurve(
      stubTerms(asOfMs, () => 0.2),
      20,
    );
    for (const p of flat.points) expect(p.forwardSvx).toBeCloseTo(20, 10);
    expect(flat.vx_curve_state).toBe("flat");
    expect(flat.vx_roll_pct).toBeCloseTo(0, 10);
    expect(flat.vx_m1_vs_vix_pct).toBeCloseTo(0, 10);
    // Stress: 40% now decaying toward 20% (the forward variances fall with the settlement).
    const inverted = forwardSvxCurve(
      stubTerms(asOfMs, (n) => 0.2 + 0.2 * Math.exp(-n / 43_200)),
      35,
    );
    expect(inverted.vx_curve_state).toBe("backwardation");
    expect(inverted.vx_roll_pct!).toBeLessThan(0);
  });

  it("stops where the board's terms end (no extrapolation)", () => {
    const c = forwardSvxCurve(
      stubTerms(asOfMs, () => 0.2, 100),
      20,
    );
    // Terms to 2024-06-14 10:00: the May point would need them to 2024-06-21 09:30.
    expect(c.points.map((p) => p.settle)).toEqual(["2024-03-20", "2024-04-17"]);
  });

  it("on a simulated SPXW board: six positive forwards near the spot 30-day reading", () => {
    const market = simulatedMarketAt(42, Date.parse("2026-01-01T00:00:00Z"));
    const terms = chainTerms(market.chainSync("SPXW", etInstant("2024-05-01", "10:30"))!);
    const svx30 = svxAll(terms).svx30!.value;
    const c = forwardSvxCurve(terms, svx30);
    expect(c.points).toHaveLength(6);
    for (const p of c.points) {
      expect(p.forwardSvx).toBeGreaterThan(0.5 * svx30);
      expect(p.forwardSvx).toBeLessThan(2 * svx30);
    }
    expect(c.vx_curve_state).not.toBeNull();
  });
});
