import { describe, expect, it } from "vitest";
import { dispersionReading } from "../../lib/vol";
import { rng } from "./_boards";

// Reference: the basket's variance with every pairwise correlation rho, solved for rho by
// bisection (independent of the closed form).
function basketVariance(vols: number[], rho: number): number {
  const w = 1 / vols.length;
  let v = 0;
  for (let i = 0; i < vols.length; i++) for (let j = 0; j < vols.length; j++) v += w * w * vols[i] * vols[j] * (i === j ? 1 : rho);
  return v;
}
function rhoByBisection(index: number, vols: number[]): number {
  let lo = -5;
  let hi = 5;
  for (let k = 0; k < 200; k++) {
    const mid = (lo + hi) / 2;
    if (basketVariance(vols, mid) < index * index) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

describe("dispersion", () => {
  it("implied correlation prices the index's variance as an equal-weight basket", () => {
    const rand = rng(3);
    for (let t = 0; t < 100; t++) {
      const vols = Array.from({ length: 5 + Math.floor(rand() * 3) }, () => 20 + 40 * rand());
      const index = 12 + 20 * rand();
      const d = dispersionReading(index, vols);
      const mean = vols.reduce((a, b) => a + b) / vols.length;
      expect(d.n).toBe(vols.length);
      expect(d.members_svx30).toBeCloseTo(mean, 10);
      expect(d.spread).toBeCloseTo(mean - index, 10);
      expect(d.ratio).toBeCloseTo(mean / index, 12);
      expect(d.implied_corr).toBeCloseTo(
        rhoByBisection(
          index / 100,
          vols.map((v) => v / 100),
        ),
        9,
      );
    }
  });

  it("is 1 when the index is the basket at perfect correlation and 0 at none", () => {
    const vols = [30, 25, 40, 35, 50, 28, 45];
    const mean = vols.reduce((a, b) => a + b) / vols.length;
    expect(dispersionReading(mean, vols).implied_corr).toBeCloseTo(1, 12);
    const uncorrelated = 100 * Math.sqrt(vols.reduce((a, v) => a + (v / 100 / 7) ** 2, 0));
    expect(dispersionReading(uncorrelated, vols).implied_corr).toBeCloseTo(0, 12);
  });

  it("needs five members and the index; unread members are left out of the weights", () => {
    expect(dispersionReading(20, [30, 31, null, Number.NaN, 33, 35]).implied_corr).toBeNull();
    expect(dispersionReading(20, [30, 31, null, Number.NaN, 33, 35]).n).toBe(4);
    expect(dispersionReading(null, [30, 31, 32, 33, 35]).spread).toBeNull();
    const d = dispersionReading(20, [30, 31, null, 32, 33, 35]);
    expect(d.n).toBe(5);
    expect(d.members_svx30).toBeCloseTo(32.2, 12);
  });
});
