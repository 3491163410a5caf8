// A contract's running premium low through its session and the distance of its mid from it
// (tilt rows' `*_from_low_pct`, the screener's `cheap_from_low_pct`).
// @see docs/methodology.md#premium-low-and-cheap-from-low

/** Mid of a two-sided quote (bid > 0, ask >= bid), else NaN. */
export function twoSidedMid(bid: number, ask: number): number {
  return bid > 0 && ask >= bid ? (bid + ask) / 2 : Number.NaN;
}

/** A running low and the last two-sided mid it saw (NaN when none). */
export interface RunningLow {
  low: number;
  last: number;
}

/**
 * Folds minutes of quotes (`bid[j]`, `ask[j]`, oldest first) onto a running low: the lowest
 * two-sided mid so far, and the last minute's mid (NaN when that minute is not two-sided).
 *
 * @example foldLow({ low: NaN, last: NaN }, [1.0, 0.9], [1.1, 1.0]) // { low: 0.95, last: 0.95 }
 * @see docs/methodology.md#premium-low-and-cheap-from-low
 */
export function foldLow(prev: RunningLow, bid: ArrayLike<number>, ask: ArrayLike<number>): RunningLow {
  let low = prev.low;
  let last = prev.last;
  for (let j = 0; j < bid.length; j++) {
    const m = twoSidedMid(bid[j], ask[j]);
    last = m;
    if (!Number.isNaN(m) && (Number.isNaN(low) || m < low)) low = m;
  }
  return { low, last };
}

/**
 * Distance of `mid` above the running `low`, percent: `100 (mid / low - 1)`; null unless both are
 * positive. 0 when the contract trades at its low.
 *
 * @example fromLowPct(1.2, 1.0) // 20
 * @see docs/methodology.md#premium-low-and-cheap-from-low
 */
export function fromLowPct(mid: number, low: number): number | null {
  return mid > 0 && low > 0 ? 100 * (mid / low - 1) : null;
}
