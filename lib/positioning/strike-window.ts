/**
 * The window of the `maxStrikes` strikes nearest spot, as a half-open index range `[lo, hi)` into
 * the ascending `strikes`. Equal distances go to the lower strike. The nearest N of points on a
 * line around one point are contiguous, so a range describes them.
 *
 * @param strikes unique strikes, ascending
 * @param spot underlying price
 * @param maxStrikes how many strikes, or `all`
 * @example strikeWindow([90, 95, 100, 105, 110], 101, 3) // { lo: 1, hi: 4 } (95, 100, 105)
 * @see docs/methodology.md#window
 */
export function strikeWindow(strikes: ArrayLike<number>, spot: number, maxStrikes: number | "all"): { lo: number; hi: number } {
  const n = strikes.length;
  if (maxStrikes === "all" || maxStrikes >= n) return { lo: 0, hi: n };
  const want = Math.max(1, Math.floor(maxStrikes));
  // First index with strike >= spot (binary search).
  let a = 0;
  let b = n;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (strikes[mid] < spot) a = mid + 1;
    else b = mid;
  }
  let lo = a; // window is [lo, hi)
  let hi = a;
  while (hi - lo < want) {
    if (lo === 0) hi++;
    else if (hi === n) lo--;
    else if (spot - strikes[lo - 1] <= strikes[hi] - spot) lo--;
    else hi++;
  }
  return { lo, hi };
}
