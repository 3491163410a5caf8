import { VELOCITY_FLOOR_FRACTION } from "./defaults";
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
