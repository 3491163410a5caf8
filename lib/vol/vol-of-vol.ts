/** Daily SVX30 changes a vol-of-vol reading spans (about the 30 calendar days VVIX looks ahead). */
export const VOL_OF_VOL_SESSIONS = 21;
/** Fewest usable daily changes for a reading. */
export const VOL_OF_VOL_MIN = 15;

/**
 * Vol of vol, a VVIX proxy where no options on the vol index exist: the annualised realized vol of
 * daily log changes of a vol series (SVX30 at each session's close, then today's), over its last
 * `sessions` changes: `100 sqrt(252 mean(ln(v_i / v_{i-1})^2))` (zero mean, as the realized vol of
 * prices). A change is usable when both readings are positive and finite; null with fewer than
 * `VOL_OF_VOL_MIN` usable changes.
 *
 * @example volOfVolPct([15, 16, 14.5, ...]) // about 90 in a normal month
 * @see docs/methodology.md#vol-of-vol
 */
export function volOfVolPct(series: readonly number[], sessions: number = VOL_OF_VOL_SESSIONS): number | null {
  const tail = series.slice(-(sessions + 1));
  let sum = 0;
  let n = 0;
  for (let i = 1; i < tail.length; i++) {
    const a = tail[i - 1];
    const b = tail[i];
    if (!(a > 0 && b > 0 && Number.isFinite(a) && Number.isFinite(b))) continue;
    const r = Math.log(b / a);
    sum += r * r;
    n++;
  }
  return n >= VOL_OF_VOL_MIN ? 100 * Math.sqrt((252 * sum) / n) : null;
}
