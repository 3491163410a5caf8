import { IV_WINDOWS, IV_WINDOW_MIN_COVERAGE } from "./defaults";

/** A trailing window name. */
export type IvWindow = keyof typeof IV_WINDOWS;

/** IV rank and percentiles of the latest value of a daily series. */
export interface IvRankPercentiles {
  /** The latest value (the last entry of the series). */
  current: number | null;
  /** 1-year IV rank, 0-100. */
  iv_rank: number | null;
  /** 1-year IV percentile, 0-100. */
  iv_pct: number | null;
  /** Percentile per trailing window (null where history does not cover it). */
  pct_by: Record<IvWindow, number | null>;
  /** Lowest and highest value of the 1-year window. */
  range_1y: { lo: number; hi: number } | null;
}

/**
 * IV rank of `current` among `window` (finite values; the current value included):
 * `100 (x - min) / (max - min)`; null when the window has no range.
 *
 * @example ivRank([10, 20, 30], 15) // 25
 * @see docs/methodology.md#iv-rank-and-percentile
 */
export function ivRank(window: ArrayLike<number>, current: number): number | null {
  let lo = current;
  let hi = current;
  for (let i = 0; i < window.length; i++) {
    const v = window[i];
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (!(hi > lo)) return null;
  return (100 * (current - lo)) / (hi - lo);
}

/**
 * IV percentile of `current`: the share (percent) of the window's finite values strictly below it.
 * Null for an empty window.
 *
 * @example ivPercentile([10, 20, 30, 40], 25) // 50
 * @see docs/methodology.md#iv-rank-and-percentile
 */
export function ivPercentile(window: ArrayLike<number>, current: number): number | null {
  let n = 0;
  let below = 0;
  for (let i = 0; i < window.length; i++) {
    const v = window[i];
    if (!Number.isFinite(v)) continue;
    n++;
    if (v < current) below++;
  }
  return n === 0 ? null : (100 * below) / n;
}

/**
 * IV rank and 1y/3y/5y percentiles of the last value of a daily series (one entry per session,
 * oldest first, `NaN` for a missing session). A window of `N` sessions (252, 756, 1,260) is the
 * `N` entries before the last one; it is reported only when the series has them all and at least
 * 90% are finite ("where history allows").
 *
 * @example ivRankPercentiles(svx30Daily).iv_pct
 * @see docs/methodology.md#iv-rank-and-percentile
 */
export function ivRankPercentiles(values: ArrayLike<number>): IvRankPercentiles {
  const n = values.length;
  const last = n > 0 ? values[n - 1] : Number.NaN;
  const pct_by = { "1y": null, "3y": null, "5y": null } as Record<IvWindow, number | null>;
  const out: IvRankPercentiles = { current: Number.isFinite(last) ? last : null, iv_rank: null, iv_pct: null, pct_by, range_1y: null };
  if (!Number.isFinite(last)) return out;
  const windowOf = (size: number): number[] | null => {
    if (n - 1 < size) return null;
    const w: number[] = [];
    for (let i = n - 1 - size; i < n - 1; i++) if (Number.isFinite(values[i])) w.push(values[i]);
    return w.length >= IV_WINDOW_MIN_COVERAGE * size ? w : null;
  };
  for (const name of Object.keys(IV_WINDOWS) as IvWindow[]) {
    const w = windowOf(IV_WINDOWS[name]);
    pct_by[name] = w ? ivPercentile(w, last) : null;
    if (name === "1y" && w) {
      out.iv_pct = pct_by[name];
      out.iv_rank = ivRank(w, last);
      out.range_1y = { lo: Math.min(last, ...w), hi: Math.max(last, ...w) };
    }
  }
  return out;
}
