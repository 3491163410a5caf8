// Historical mean-reversion odds of a daily vol series (`reversion` of the `iv` module).
// @see docs/methodology.md#mean-reversion-odds
import { REVERSION_HORIZON_SESSIONS, REVERSION_MIN_SAMPLES } from "./defaults";

/** How often readings like today's moved back toward the median. */
export interface Reversion {
  /** Sessions ahead each past reading is compared with. */
  horizon_sessions: number;
  /** Median of the series (today included), vol points. */
  median: number;
  /** `down` when today is above the median (reverting means falling), `up` below it. */
  direction: "down" | "up";
  /** Quintile of today's reading in the series, 1 (lowest) .. 5. */
  quintile: number;
  /** Share of the past readings in that quintile that were closer to the median `horizon_sessions` later, percent. */
  odds_pct: number | null;
  /** Past readings in the quintile with a reading `horizon_sessions` later. */
  samples: number;
}

const quintileOf = (sorted: readonly number[], x: number): number => {
  let below = 0;
  for (const v of sorted) if (v < x) below++;
  return Math.min(5, 1 + Math.floor((5 * below) / sorted.length));
};

/**
 * Mean-reversion odds of the last value of `values` (daily, oldest first, NaN where missing):
 * past readings `i` in the same quintile of the series whose reading `i + h` exists count as
 * samples; `odds_pct` is the share with `|x[i+h] - median| < |x[i] - median|`. Null without a
 * finite last value; `odds_pct` null under `REVERSION_MIN_SAMPLES` samples.
 *
 * @example meanReversion(svx30Daily)?.odds_pct // 71: seven in ten such readings reverted within a month
 * @see docs/methodology.md#mean-reversion-odds
 */
export function meanReversion(values: ArrayLike<number>, h: number = REVERSION_HORIZON_SESSIONS): Reversion | null {
  const n = values.length;
  const today = n > 0 ? values[n - 1] : Number.NaN;
  if (!Number.isFinite(today)) return null;
  const sorted = Array.from(values)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const q = quintileOf(sorted, today);
  let samples = 0;
  let reverted = 0;
  for (let i = 0; i + h <= n - 1; i++) {
    const a = values[i];
    const b = values[i + h];
    if (!Number.isFinite(a) || !Number.isFinite(b) || quintileOf(sorted, a) !== q) continue;
    samples++;
    if (Math.abs(b - median) < Math.abs(a - median)) reverted++;
  }
  return {
    horizon_sessions: h,
    median,
    direction: today >= median ? "down" : "up",
    quintile: q,
    odds_pct: samples >= REVERSION_MIN_SAMPLES ? (100 * reverted) / samples : null,
    samples,
  };
}
