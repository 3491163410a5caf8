// The scale-out bench merges its per-instance wrk runs into one latency distribution
// (bench/_merged-quantiles.ts): checked against the quantiles of the pooled raw samples.
import { describe, expect, it } from "vitest";
import { mergedQuantile, type RunQuantiles } from "../../bench/_merged-quantiles";
import { mulberry32 } from "../../bench/_mulberry32";

/** The k/1000 quantiles (k = 1..1000) of `samples`, as wrk's `percentile` gives them (nearest rank). */
function quantilesOf(samples: number[]): number[] {
  const s = [...samples].sort((a, b) => a - b);
  return Array.from({ length: 1000 }, (_, k) => s[Math.max(0, Math.ceil(((k + 1) / 1000) * s.length) - 1)]!);
}

function pooledQuantile(samples: number[], percent: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil((percent / 100) * s.length) - 1)]!;
}

describe("merged latency quantiles of several runs", () => {
  it("equals the pooled samples' quantile within one 0.1% step, for unequal runs and tails", () => {
    const rand = mulberry32(7);
    // Three instances: two alike, one slower with a heavier tail, with different request counts.
    const runs = [
      Array.from({ length: 9000 }, () => 10 + 8 * -Math.log(1 - rand())),
      Array.from({ length: 11000 }, () => 10 + 8 * -Math.log(1 - rand())),
      Array.from({ length: 6000 }, () => 12 + 20 * -Math.log(1 - rand())),
    ];
    const pooled = runs.flat();
    const given: RunQuantiles[] = runs.map((r) => ({ count: r.length, quantilesMs: quantilesOf(r) }));
    for (const p of [50, 90, 99]) {
      const merged = mergedQuantile(given, p);
      // Bracketed by the pooled quantiles 0.1% either side.
      expect(merged).toBeGreaterThanOrEqual(pooledQuantile(pooled, p - 0.1));
      expect(merged).toBeLessThanOrEqual(pooledQuantile(pooled, p + 0.1));
    }
    // The worst run's p99 (what the bench reported before) overstates the merged one here.
    const worst = Math.max(...given.map((g) => g.quantilesMs[989]!));
    expect(mergedQuantile(given, 99)).toBeLessThan(worst);
  });

  it("one run is its own quantiles; runs without requests weigh nothing", () => {
    const q = Array.from({ length: 1000 }, (_, k) => k + 1);
    expect(mergedQuantile([{ count: 500, quantilesMs: q }], 99)).toBe(990);
    expect(
      mergedQuantile(
        [
          { count: 500, quantilesMs: q },
          { count: 0, quantilesMs: q.map((x) => x * 100) },
        ],
        50,
      ),
    ).toBe(500);
    expect(mergedQuantile([], 99)).toBeNaN();
  });
});
