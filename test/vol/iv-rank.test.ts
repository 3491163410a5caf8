import { describe, expect, it } from "vitest";
import { ivPercentile, ivRank, ivRankPercentiles } from "../../lib/vol";
import { rng } from "./_boards";

// Slow references: sort and count.
const refPct = (w: number[], x: number) => (100 * w.filter((v) => v < x).length) / w.length;
const refRank = (w: number[], x: number) => {
  const s = [...w, x].sort((a, b) => a - b);
  return (100 * (x - s[0])) / (s[s.length - 1] - s[0]);
};

describe("ivRank and ivPercentile", () => {
  it("match sort-based references on random windows", () => {
    const rand = rng(7);
    for (let t = 0; t < 200; t++) {
      const w = Array.from({ length: 5 + Math.floor(rand() * 300) }, () => 10 + rand() * 40);
      const x = 5 + rand() * 50;
      expect(ivPercentile(w, x)).toBeCloseTo(refPct(w, x), 12);
      expect(ivRank(w, x)).toBeCloseTo(refRank(w, x), 12);
    }
  });

  it("handle the edges", () => {
    expect(ivRank([10, 20, 30], 15)).toBe(25);
    expect(ivRank([20, 20], 20)).toBeNull();
    expect(ivPercentile([], 1)).toBeNull();
    expect(ivPercentile([10, Number.NaN, 30], 20)).toBe(50);
  });
});

describe("ivRankPercentiles", () => {
  const rand = rng(3);
  const series = Array.from({ length: 800 }, () => 12 + rand() * 20);

  it("reports 1y and 3y where the series covers them, not 5y", () => {
    const r = ivRankPercentiles(series);
    const last = series[series.length - 1];
    expect(r.current).toBe(last);
    expect(r.iv_pct).toBeCloseTo(refPct(series.slice(-253, -1), last), 12);
    expect(r.iv_rank).toBeCloseTo(refRank(series.slice(-253, -1), last), 12);
    expect(r.pct_by["3y"]).toBeCloseTo(refPct(series.slice(-757, -1), last), 12);
    expect(r.pct_by["5y"]).toBeNull();
    expect(r.range_1y!.lo).toBe(Math.min(...series.slice(-253)));
  });

  it("needs 90% of a window's sessions", () => {
    const holes = series.slice(-253).map((v, i) => (i % 12 === 0 ? Number.NaN : v));
    holes[holes.length - 1] = 20;
    expect(ivRankPercentiles(holes).iv_pct).not.toBeNull();
    const sparse = holes.map((v, i) => (i % 5 === 0 && i < 252 ? Number.NaN : v));
    expect(ivRankPercentiles(sparse).iv_pct).toBeNull();
    expect(ivRankPercentiles([...series.slice(0, 100)]).iv_rank).toBeNull();
  });
});
