import { STATS_COMPLETE_AFTER_MS } from "./defaults";
import { isoUtc } from "./iso-utc";

/** One minute frame as the statistics read it. */
export interface StatFrame {
  /** Frame instant, ms since the epoch. */
  asOfMs: number;
  /** The spot the board was computed at. */
  spot: number;
  /** Every cell of the frame (strike x expiration grid cells), dollars of exposure. */
  values: ArrayLike<number>;
}

/** Daily statistics record of the spec (one symbol, one ET session). */
export interface DailyStat {
  /** ET session date `YYYY-MM-DD`. */
  date: string;
  /** One-minute frames inside the session the values come from. */
  frames: number;
  /** False while the session runs and until 30 minutes after it ends. */
  complete: boolean;
  /** First frame instant, ISO-8601 UTC. */
  firstAt: string;
  /** Last frame instant, ISO-8601 UTC. */
  lastAt: string;
  spotOpen: number;
  spotHigh: number;
  spotLow: number;
  spotClose: number;
  /** Smallest single cell in any frame (dollars). */
  minValue: number;
  /** Largest single cell in any frame (dollars). */
  maxValue: number;
  /** Mean over frames of max(|smallest cell|, |largest cell|) (dollars). */
  peakAbsMean: number;
  /** Maximum over frames of the same quantity (dollars). */
  peakAbsMax: number;
}

/** The session window and clock the statistics are computed against. */
export interface StatsWindow {
  /** ET session date. */
  date: string;
  /** First instant of the session (inclusive), ms. */
  openMs: number;
  /** End of the session (exclusive), ms. */
  closeMs: number;
  /** The current instant, ms: decides `complete`. */
  nowMs: number;
}

/**
 * Daily statistics from frames, given the session window explicitly.
 *
 * Frames outside `[openMs, closeMs)` or after `nowMs` are ignored; frames are ordered by time first.
 * A frame without cells counts toward `frames` and spot but contributes a peak of 0 and no
 * min/max. Returns null when no frame is inside the session ("sessions with no data are omitted").
 *
 * @example
 * dailyStatsInWindow(frames, { date: "2025-03-05", openMs, closeMs, nowMs })?.peakAbsMax
 * @see docs/methodology.md#daily-statistics
 */
export function dailyStatsInWindow(frames: readonly StatFrame[], w: StatsWindow): DailyStat | null {
  const inside = frames.filter((f) => f.asOfMs >= w.openMs && f.asOfMs < w.closeMs && f.asOfMs <= w.nowMs);
  if (inside.length === 0) return null;
  inside.sort((a, b) => a.asOfMs - b.asOfMs);
  let spotHigh = -Infinity;
  let spotLow = Infinity;
  let minValue = Infinity;
  let maxValue = -Infinity;
  let peakSum = 0;
  let peakAbsMax = 0;
  for (const f of inside) {
    if (f.spot > spotHigh) spotHigh = f.spot;
    if (f.spot < spotLow) spotLow = f.spot;
    const v = f.values;
    if (v.length === 0) continue;
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    if (lo < minValue) minValue = lo;
    if (hi > maxValue) maxValue = hi;
    const peak = Math.max(Math.abs(lo), Math.abs(hi));
    peakSum += peak;
    if (peak > peakAbsMax) peakAbsMax = peak;
  }
  const first = inside[0];
  const last = inside[inside.length - 1];
  return {
    date: w.date,
    frames: inside.length,
    complete: w.nowMs >= w.closeMs + STATS_COMPLETE_AFTER_MS,
    firstAt: isoUtc(first.asOfMs),
    lastAt: isoUtc(last.asOfMs),
    spotOpen: first.spot,
    spotHigh,
    spotLow,
    spotClose: last.spot,
    // `+ 0` turns -0 into 0: which zero a comparison loop keeps depends on the cells' order.
    minValue: minValue === Infinity ? 0 : minValue + 0,
    maxValue: maxValue === -Infinity ? 0 : maxValue + 0,
    peakAbsMean: peakSum / inside.length,
    peakAbsMax,
  };
}
