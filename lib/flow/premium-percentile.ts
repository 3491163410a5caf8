/**
 * Premium percentile bands of a ticker (the live stream's `premiumPercentile` and `min_percentile`):
 * a print's premium against the nearest-rank quantiles of the ticker's previous session.
 * @see docs/methodology.md#flow-premium-percentile-bands
 */

/** The bands above 0 (0 = below the median), ascending. */
export const PREMIUM_BANDS = [50, 75, 90, 95, 99] as const;

/** A band: 0, 50, 75, 90, 95 or 99. */
export type PremiumBand = 0 | (typeof PREMIUM_BANDS)[number];

/**
 * The premium (USD) at each of {@link PREMIUM_BANDS} by nearest rank over `premiums`: the value at
 * ascending index `ceil(p / 100 * n) - 1`. Null for an empty sample (no band can be computed).
 * @example premiumBandThresholds([1, 2, 3, 4]) // [2, 3, 4, 4, 4]
 */
export function premiumBandThresholds(premiums: readonly number[]): number[] | null {
  const n = premiums.length;
  if (n === 0) return null;
  const sorted = Float64Array.from(premiums).sort();
  return PREMIUM_BANDS.map((p) => sorted[Math.max(0, Math.ceil((p / 100) * n) - 1)]);
}

/**
 * The highest band whose threshold the premium reaches (0 when below the median), or null when
 * there are no thresholds.
 * @example premiumBand(3.5, [2, 3, 4, 4, 4]) // 75
 */
export function premiumBand(premiumUsd: number, thresholds: readonly number[] | null): PremiumBand | null {
  if (!thresholds) return null;
  for (let i = PREMIUM_BANDS.length - 1; i >= 0; i--) if (premiumUsd >= thresholds[i]) return PREMIUM_BANDS[i];
  return 0;
}
