// Issue 37: exposure by days-to-expiry bucket (boundaries, sums equal the grid total) and the spot
// curve (its crossing is the zero-gamma level of the key levels) on a small hand-made board.
import { describe, expect, it } from "vitest";
import { jsKernels } from "../../lib/kernels";
import { exposureGrid, expiryBuckets, keyLevels, spotCurve } from "../../lib/positioning";
import { etInstant } from "../../lib/time";
import { buildChain, type Row } from "./_chain";

// Wednesday 2025-03-05, 10:00 ET. Expirations at 0, 7, 8, 30, 31, 90 and 91 calendar days: each
// bucket's first and last day.
const AS_OF = etInstant("2025-03-05", "10:00");
const EXPIRIES = ["2025-03-05", "2025-03-12", "2025-03-13", "2025-04-04", "2025-04-05", "2025-06-03", "2025-06-04"];
const settleMs = Object.fromEntries(EXPIRIES.map((e) => [e, etInstant(e, "16:00")]));
const rows: Row[] = [];
for (const expiry of EXPIRIES) {
  for (const strike of [90, 95, 100, 105, 110]) {
    // More puts below spot, more calls above: a profile that changes sign near spot.
    rows.push({ expiry, strike, right: "C", oi: 100 + 20 * (strike - 90), iv: 0.2 + 0.001 * (110 - strike) });
    rows.push({ expiry, strike, right: "P", oi: 500 - 20 * (strike - 90), iv: 0.22 + 0.002 * (110 - strike) });
  }
}
const chain = buildChain({ asOfMs: AS_OF, spot: 100, settleMs }, rows);

describe("expiryBuckets", () => {
  it("puts each expiration in its bucket by calendar days from the board's ET date (0 | 1-7 | 8-30 | 31-90 | beyond)", () => {
    const b = expiryBuckets(chain, {}, jsKernels);
    expect(b.sessionDate).toBe("2025-03-05");
    expect(b.buckets.map((x) => [x.bucket, x.expirations])).toEqual([
      ["0dte", ["2025-03-05"]],
      ["1-7", ["2025-03-12"]],
      ["8-30", ["2025-03-13", "2025-04-04"]],
      ["31-90", ["2025-04-05", "2025-06-03"]],
      ["beyond", ["2025-06-04"]],
    ]);
  });

  it.each(["gamma", "vanna", "delta", "charm", "vomma"] as const)("%s: the buckets add up to the total, which is the whole board's grid total", (metric) => {
    const b = expiryBuckets(chain, { metric }, jsKernels);
    const sum = b.buckets.reduce((s, x) => s + x.value, 0);
    expect(Math.abs(sum - b.total)).toBeLessThanOrEqual(1e-12 * Math.max(...b.buckets.map((x) => Math.abs(x.value))));
    const whole = exposureGrid(chain, { metric, maxStrikes: "all", maxExpirations: "all", includeEmpty: true }, jsKernels);
    expect(b.total).toBe(whole.total);
    // A bucket is exactly its expirations' columns: the 0DTE bucket alone equals a grid of that date.
    const zero = exposureGrid(chain, { metric, maxStrikes: "all", expirations: ["2025-03-05"], includeEmpty: true }, jsKernels);
    expect(b.buckets[0].value).toBeCloseTo(zero.total, 6);
    expect(b.meta.metric).toBe(metric);
  });
});

describe("spotCurve", () => {
  it("with the default grid, crosses zero where the key levels put zero gamma", () => {
    const curve = spotCurve(chain, { maxExpirations: "all" }, jsKernels);
    const levels = keyLevels(chain, { maxExpirations: "all" }, jsKernels);
    expect(levels.summary.zeroGamma.level).not.toBeNull();
    expect(curve.zero.level).toBe(levels.summary.zeroGamma.level);
    expect(curve.zero.crossings).toEqual(levels.summary.zeroGamma.crossings);
    // Independently of zeroGammaOf: the sign change of the points brackets the level.
    const pts = curve.points;
    const i = pts.findIndex((p, k) => k > 0 && Math.sign(p.value) !== Math.sign(pts[k - 1].value) && Math.abs(pts[k - 1].spot - 100) < 10);
    expect(i).toBeGreaterThan(0);
    const { spot: a, value: va } = pts[i - 1];
    const { spot: b, value: vb } = pts[i];
    expect(curve.zero.level!).toBeCloseTo(a + ((b - a) * va) / (va - vb), 9);
    expect(pts).toHaveLength(201);
    expect(pts[100].spot).toBe(100);
  });

  it("at spot equals the exposure grid's total over every strike; a custom grid has 2 * range / step + 1 points", () => {
    const curve = spotCurve(chain, { maxExpirations: "all", metric: "vanna", rangePct: 5, stepPct: 0.5 }, jsKernels);
    expect(curve.points).toHaveLength(21);
    const whole = exposureGrid(chain, { metric: "vanna", maxStrikes: "all", maxExpirations: "all", includeEmpty: true }, jsKernels);
    expect(curve.points[10].value).toBeCloseTo(whole.total, 4);
    expect(curve.unit).toBe("usd_per_vol_point");
  });
});
