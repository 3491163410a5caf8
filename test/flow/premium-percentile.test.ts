// Premium percentile bands: nearest-rank thresholds checked by hand and against a brute-force rank
// count over random samples.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { premiumBand, premiumBandThresholds, PREMIUM_BANDS } from "../../lib/flow/premium-percentile";

describe("premium percentile bands", () => {
  it("uses nearest rank: 1..100 gives the p-th value", () => {
    const sample = Array.from({ length: 100 }, (_, i) => 100 - i); // unsorted on purpose
    expect(premiumBandThresholds(sample)).toEqual([50, 75, 90, 95, 99]);
    expect(premiumBand(49.9, premiumBandThresholds(sample))).toBe(0);
    expect(premiumBand(50, premiumBandThresholds(sample))).toBe(50);
    expect(premiumBand(94, premiumBandThresholds(sample))).toBe(90);
    expect(premiumBand(1e9, premiumBandThresholds(sample))).toBe(99);
  });

  it("a small sample: [1, 2, 3, 4] -> 2, 3, 4, 4, 4", () => {
    expect(premiumBandThresholds([4, 1, 3, 2])).toEqual([2, 3, 4, 4, 4]);
    expect(premiumBand(3.5, [2, 3, 4, 4, 4])).toBe(75);
  });

  it("no sample, no band", () => {
    expect(premiumBandThresholds([])).toBeNull();
    expect(premiumBand(1000, null)).toBeNull();
  });

  it("a band p means at least p% of the sample is at or below the premium (brute force)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 200 }), fc.integer({ min: 0, max: 1100 }), (sample, premium) => {
        const band = premiumBand(premium, premiumBandThresholds(sample))!;
        const atOrBelow = sample.filter((v) => v <= premium).length;
        if (band > 0) expect(100 * atOrBelow).toBeGreaterThanOrEqual(band * sample.length);
        const next = PREMIUM_BANDS.find((p) => p > band);
        // Not in the next band: fewer than next% of the sample is at or below it (nearest rank).
        if (next !== undefined) expect(Math.ceil((next / 100) * sample.length)).toBeGreaterThan(atOrBelow);
      }),
    );
  });
});
