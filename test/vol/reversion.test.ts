import { describe, expect, it } from "vitest";
import { ivPercentile, meanReversion } from "../../lib/vol";
import { rng } from "./_boards";

// Reference: quintile from the IV percentile of each reading in the whole series (strictly below),
// samples and reverted counted by brute force.
function ref(x: number[], h: number) {
  const s = [...x].sort((a, b) => a - b);
  const median = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  const q = (v: number) => Math.min(5, 1 + Math.floor(ivPercentile(x, v)! / 20));
  const today = x[x.length - 1];
  const idx = x.map((_, i) => i).filter((i) => i + h < x.length && q(x[i]) === q(today));
  const reverted = idx.filter((i) => Math.abs(x[i + h] - median) < Math.abs(x[i] - median)).length;
  return { median, quintile: q(today), samples: idx.length, odds: idx.length >= 10 ? (100 * reverted) / idx.length : null };
}

describe("mean-reversion odds", () => {
  it("match a brute-force count on random series", () => {
    const rand = rng(5);
    for (let t = 0; t < 50; t++) {
      const n = 30 + Math.floor(rand() * 250);
      const x = Array.from({ length: n }, () => 12 + 25 * rand());
      const h = 1 + Math.floor(rand() * 25);
      const r = meanReversion(x, h)!;
      const e = ref(x, h);
      expect(r.median).toBe(e.median);
      expect(r.quintile).toBe(e.quintile);
      expect(r.samples).toBe(e.samples);
      if (e.odds === null) expect(r.odds_pct).toBeNull();
      else expect(r.odds_pct).toBeCloseTo(e.odds, 12);
      expect(r.direction).toBe(x[n - 1] >= e.median ? "down" : "up");
    }
  });

  it("read 100 on a series that always swings back and 0 on one that keeps trending", () => {
    // Oscillation around 20 with period 42, today at a peak: a top-quintile reading (phase within
    // 36 degrees of a peak) is at most 0.64 of the amplitude away ten sessions (86 degrees) on.
    const wave = Array.from({ length: 253 }, (_, i) => 20 + 8 * Math.sin((2 * Math.PI * (i + 10.5)) / 42));
    const w = meanReversion(wave, 10)!;
    expect(w.quintile).toBe(5);
    expect(w.odds_pct).toBe(100);
    // A steady climb: every top-quintile reading is further above the median a month later.
    const climb = Array.from({ length: 253 }, (_, i) => 10 + 0.1 * i);
    const c = meanReversion(climb, 21)!;
    expect(c.quintile).toBe(5);
    expect(c.direction).toBe("down");
    expect(c.odds_pct).toBe(0);
  });

  it("skips missing sessions and needs a reading today", () => {
    expect(meanReversion([20, 21, Number.NaN])).toBeNull();
    const x = Array.from({ length: 120 }, (_, i) => (i % 9 === 0 ? Number.NaN : 15 + (i % 7)));
    const r = meanReversion(x, 5)!;
    const finite = x.filter(Number.isFinite);
    expect(r.samples).toBeLessThanOrEqual(finite.length);
    expect(r.samples).toBe(
      x
        .map((_, i) => i)
        .filter((i) => i + 5 < x.length && Number.isFinite(x[i]) && Number.isFinite(x[i + 5]) && Math.min(5, 1 + Math.floor(ivPercentile(x, x[i])! / 20)) === r.quintile)
        .length,
    );
  });
});
