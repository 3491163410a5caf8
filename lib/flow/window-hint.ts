/**
 * When a client splits a time window instead of paging with the cursor: the recent windows one
 * account sent for the same contract and filters, and how many of them overlap a new one.
 * @see docs/methodology.md#flow-paging-hint
 */

/** How far back windows count, ms of wall time. */
export const HINT_RECENT_MS = 10_000;
/** Overlapping earlier windows (distinct from the new one) that make the hint. */
export const HINT_MIN_OVERLAPS = 2;
/** Windows kept per key (the oldest go first). */
export const HINT_MAX_KEPT = 16;

/** One window a client asked for, `[fromMs, toMs)`, sent at wall time `atMs`. */
export interface SentWindow {
  fromMs: number;
  toMs: number;
  atMs: number;
}

/**
 * The windows to keep after `next` (the recent ones plus `next`, at most {@link HINT_MAX_KEPT})
 * and whether to hint: at least {@link HINT_MIN_OVERLAPS} distinct recent windows overlap `next`
 * without being the same window (a repeated poll of one window is not a split).
 * @example noteWindow([{ fromMs: 0, toMs: 10, atMs: 0 }, { fromMs: 5, toMs: 10, atMs: 1 }], { fromMs: 0, toMs: 6, atMs: 2 }).hint // true
 * @see docs/methodology.md#flow-paging-hint
 */
export function noteWindow(previous: readonly SentWindow[], next: SentWindow): { kept: SentWindow[]; hint: boolean } {
  const recent = previous.filter((w) => next.atMs - w.atMs <= HINT_RECENT_MS && w.atMs <= next.atMs);
  const overlapping = new Set<string>();
  for (const w of recent) {
    if (w.fromMs < next.toMs && next.fromMs < w.toMs && !(w.fromMs === next.fromMs && w.toMs === next.toMs)) overlapping.add(`${w.fromMs}|${w.toMs}`);
  }
  const overlaps = overlapping.size;
  return { kept: [...recent, next].slice(-HINT_MAX_KEPT), hint: overlaps >= HINT_MIN_OVERLAPS };
}

/**
 * A window as the client sent it: an absent start or end stays open (-Infinity, +Infinity) rather
 * than being resolved against the clock, so polling "from the open until now" is one window, not
 * a new overlapping one each second.
 * @example sentBounds(undefined, 5) // { fromMs: -Infinity, toMs: 5 }
 * @see docs/methodology.md#flow-paging-hint
 */
export function sentBounds(startMs: number | undefined, endMs: number | undefined): { fromMs: number; toMs: number } {
  return { fromMs: startMs ?? -Infinity, toMs: endMs ?? Infinity };
}
