/** A level where a series crosses zero, interpolated linearly between its bracketing points. */
export interface ZeroCrossing {
  /** Interpolated level, in the x-axis units (strike or spot price). */
  level: number;
  /** `up` when the series goes from negative to positive as x increases, else `down`. */
  direction: "up" | "down";
}

/**
 * Every sign change of `y` over ascending `x`, linearly interpolated.
 *
 * Zeros are not sign changes by themselves: a crossing is reported between two consecutive
 * non-zero points of opposite sign. When they are adjacent the level is interpolated; when exact
 * zeros sit between them the level is the first of those zero points.
 *
 * @param x ascending abscissae (strikes or spot levels)
 * @param y values at `x`
 * @example zeroCrossings([1, 2, 3], [-1, 1, 3]) // [{ level: 1.5, direction: "up" }]
 * @see docs/methodology.md#flip
 */
export function zeroCrossings(x: ArrayLike<number>, y: ArrayLike<number>): ZeroCrossing[] {
  const out: ZeroCrossing[] = [];
  let prev = -1; // index of the last non-zero point
  for (let i = 0; i < x.length; i++) {
    const yi = y[i];
    if (yi === 0 || Number.isNaN(yi)) continue;
    if (prev >= 0 && Math.sign(yi) !== Math.sign(y[prev])) {
      const yp = y[prev];
      const level = i === prev + 1 ? x[prev] + ((x[i] - x[prev]) * yp) / (yp - yi) : x[prev + 1];
      out.push({ level, direction: yi > 0 ? "up" : "down" });
    }
    prev = i;
  }
  return out;
}

/**
 * The crossing nearest `spot` (ties: the lower level), or null when there is none.
 *
 * @example nearestCrossing([{ level: 90, direction: "up" }, { level: 104, direction: "down" }], 100) // level 104
 * @see docs/methodology.md#flip
 */
export function nearestCrossing(crossings: readonly ZeroCrossing[], spot: number): ZeroCrossing | null {
  let best: ZeroCrossing | null = null;
  for (const c of crossings) {
    if (best === null) best = c;
    else {
      const d = Math.abs(c.level - spot);
      const db = Math.abs(best.level - spot);
      if (d < db || (d === db && c.level < best.level)) best = c;
    }
  }
  return best;
}

/**
 * Running sum from the first element (the lowest strike) upward.
 *
 * @example cumulativeSum([1, -3, 4]) // Float64Array [1, -2, 2]
 */
export function cumulativeSum(values: ArrayLike<number>): Float64Array {
  const out = new Float64Array(values.length);
  let s = 0;
  for (let i = 0; i < values.length; i++) out[i] = s += values[i];
  return out;
}
