import { VELOCITY_FLOOR_FRACTION, VELOCITY_LOOKBACK_MINUTES } from "./defaults";
import type { StrikeValue } from "./classify-nodes";

/**
 * Percent change of each cell against the same strike in an earlier frame, guarded near zero.
 *
 * `velocityPct = 100 * (now - then) / max(|then|, VELOCITY_FLOOR_FRACTION * M)`, where M is the
 * current frame's largest |value|. A strike missing from the earlier frame counts as `then = 0`.
 * When the denominator is 0 (both frames all-zero) the change is 0. Without an earlier frame every
 * cell reads 0.
 *
 * @param current the frame's cells (strike, value in dollars of exposure)
 * @param earlier the same symbol's cells a fixed number of frames earlier, or null/undefined
 * @returns percent changes aligned with `current`
 * @example
 * velocityPct([{ strike: 100, value: 110 }], [{ strike: 100, value: 100 }]) // [10]
 * @see docs/methodology.md#velocity
 */
export function velocityPct(
  current: readonly StrikeValue[],
  earlier: readonly StrikeValue[] | null | undefined,
  floorFraction: number = VELOCITY_FLOOR_FRACTION,
): number[] {
  const out = new Array<number>(current.length).fill(0);
  if (!earlier) return out;
  let m = 0;
  for (const c of current) m = Math.max(m, Math.abs(c.value));
  const floor = floorFraction * m;
  const then = new Map<number, number>();
  for (const c of earlier) then.set(c.strike, c.value);
  for (let i = 0; i < current.length; i++) {
    const now = current[i].value;
    const old = then.get(current[i].strike) ?? 0;
    const den = Math.max(Math.abs(old), floor);
    out[i] = den > 0 ? (100 * (now - old)) / den : 0;
  }
  return out;
}

/**
 * The frame velocity compares against: the newest of `history` stamped at or before
 * `asOfMs - lookbackMinutes` (default {@link VELOCITY_LOOKBACK_MINUTES}), or null when none is old enough.
 *
 * @param history earlier frames of one symbol, any order (`asOf` ISO-8601)
 * @param asOfMs the current frame's instant, ms
 * @example velocityReference(lastFrames, Date.parse(frame.asOf)) // the frame from 5 minutes before
 * @see docs/methodology.md#velocity
 */
export function velocityReference<F extends { asOf: string }>(history: readonly F[], asOfMs: number, lookbackMinutes: number = VELOCITY_LOOKBACK_MINUTES): F | null {
  const cutoff = asOfMs - lookbackMinutes * 60_000;
  let best: F | null = null;
  let bestMs = -Infinity;
  for (const f of history) {
    const t = Date.parse(f.asOf);
    if (t <= cutoff && t > bestMs) {
      best = f;
      bestMs = t;
    }
  }
  return best;
}
