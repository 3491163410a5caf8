import type { DailyStat } from "./daily-stats";

/** Frame-weighted digest of several sessions' daily statistics. */
export interface AverageDailyStats {
  /** Sessions averaged. */
  days: number;
  /** Total one-minute frames over those sessions. */
  frames: number;
  /** Mean of `peakAbsMean` weighted by each day's `frames` (dollars of exposure). */
  peakAbsMean: number;
  /** Largest `peakAbsMax` of the sessions. */
  peakAbsMax: number;
  /** Smallest `minValue` of the sessions. */
  minValue: number;
  /** Largest `maxValue` of the sessions. */
  maxValue: number;
}

/**
 * Average daily statistics across sessions the way the spec recommends: `peakAbsMean` weighted by
 * `frames`, so an early-close day counts for fewer minutes. Returns null for no days.
 *
 * @example
 * averageDailyStats([dayA, dayB]).peakAbsMean // (dayA.frames*dayA.peakAbsMean + ...) / (dayA.frames + dayB.frames)
 * @see docs/methodology.md#daily-statistics
 */
export function averageDailyStats(days: readonly DailyStat[]): AverageDailyStats | null {
  if (days.length === 0) return null;
  let frames = 0;
  let weighted = 0;
  let peakAbsMax = -Infinity;
  let minValue = Infinity;
  let maxValue = -Infinity;
  for (const d of days) {
    frames += d.frames;
    weighted += d.frames * d.peakAbsMean;
    peakAbsMax = Math.max(peakAbsMax, d.peakAbsMax);
    minValue = Math.min(minValue, d.minValue);
    maxValue = Math.max(maxValue, d.maxValue);
  }
  return {
    days: days.length,
    frames,
    peakAbsMean: frames > 0 ? weighted / frames : 0,
    peakAbsMax,
    minValue,
    maxValue,
  };
}
