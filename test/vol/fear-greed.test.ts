import { describe, expect, it } from "vitest";
import { fearGreed, fearGreedLabel, ivPercentile } from "../../lib/vol";
import { rng } from "./_boards";

const N = 253;
const series = (rand: () => number, lo: number, span: number) => Array.from({ length: N }, () => lo + span * rand());
// The percentile of the last value among the 252 before it (strictly below), as the definition says.
const pctLast = (x: number[]) => ivPercentile(x.slice(-253, -1), x[x.length - 1])!;

describe("fear and greed", () => {
  it("averages four one-year percentiles oriented so that high means calm", () => {
    const rand = rng(9);
    for (let t = 0; t < 30; t++) {
      const svx30 = series(rand, 11, 20);
      const svx3m = series(rand, 15, 10);
      const rr = series(rand, -9, 7);
      const close = Array.from({ length: N }, (_, i) => 4000 + 3 * i + 200 * rand());
      const fg = fearGreed({ svx30, svx3m, rr25_30: rr, close });
      const ret = close.map((c, i) => (i >= 20 ? c / close[i - 20] - 1 : Number.NaN));
      const retWindow = ret.slice(-253, -1).filter(Number.isFinite);
      const expected = {
        vol_level: 100 - pctLast(svx30),
        term: 100 - pctLast(svx30.map((v, i) => v / svx3m[i])),
        skew: pctLast(rr),
        momentum: (100 * retWindow.filter((r) => r < ret[N - 1]).length) / retWindow.length,
      };
      expect(fg.components.vol_level).toBeCloseTo(expected.vol_level, 10);
      expect(fg.components.term).toBeCloseTo(expected.term, 10);
      expect(fg.components.skew).toBeCloseTo(expected.skew, 10);
      expect(fg.components.momentum).toBeCloseTo(expected.momentum, 10);
      const score = (expected.vol_level + expected.term + expected.skew + expected.momentum) / 4;
      expect(fg.score).toBeCloseTo(score, 10);
      expect(fg.score!).toBeGreaterThanOrEqual(0);
      expect(fg.score!).toBeLessThanOrEqual(100);
      expect(fg.label).toBe(fearGreedLabel(score));
    }
  });

  it("reads extreme fear in a crash and extreme greed in a calm rally", () => {
    const calm = Array.from({ length: N }, (_, i) => 15 + Math.sin(i / 9));
    const crash = {
      svx30: [...calm.slice(0, -1), 45],
      svx3m: Array.from({ length: N }, (_, i) => (i < N - 1 ? 18 : 30)),
      rr25_30: [...calm.map((v) => -4 - v / 10).slice(0, -1), -12],
      close: Array.from({ length: N }, (_, i) => (i < N - 10 ? 4000 + i : 3400)),
    };
    const fear = fearGreed(crash);
    expect(fear.score).toBe(0);
    expect(fear.label).toBe("extreme_fear");
    const rally = {
      svx30: [...calm.slice(0, -1), 9],
      svx3m: Array.from({ length: N }, () => 18),
      rr25_30: [...calm.map((v) => -4 - v / 10).slice(0, -1), -1],
      close: Array.from({ length: N }, (_, i) => 4000 + i * i * 0.05),
    };
    const greed = fearGreed(rally);
    expect(greed.score).toBeGreaterThan(75);
    expect(greed.label).toBe("extreme_greed");
  });

  it("needs three components with a year of history, and labels by the documented bands", () => {
    const short = Array.from({ length: 100 }, () => 20);
    expect(fearGreed({ svx30: short, svx3m: short, rr25_30: short, close: short }).score).toBeNull();
    expect([0, 24.9, 25, 45, 55, 55.1, 75, 75.1, 100].map(fearGreedLabel)).toEqual([
      "extreme_fear",
      "extreme_fear",
      "fear",
      "neutral",
      "neutral",
      "greed",
      "greed",
      "extreme_greed",
      "extreme_greed",
    ]);
  });
});
