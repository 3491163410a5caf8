// Weekend-adjusted readings (`*_adj`): the weekly calendar pattern of a daily series removed by
// ratio-to-moving-average weekday factors. @see docs/methodology.md#weekend-adjusted-readings
import { ADJ_MIN_PER_WEEKDAY, ADJ_WINDOW_SESSIONS } from "./defaults";

/** Weekday (1 Monday .. 5 Friday; 0/6 for weekend dates) of an ISO date. */
export function weekdayOf(date: string): number {
  return new Date(`${date}T12:00:00Z`).getUTCDay();
}

/**
 * Multiplicative weekday factors (index 1..5, Monday..Friday, averaging 1) of a daily series
 * (`values[i]` read on `dates[i]`, oldest first, NaN where missing), from its last
 * `ADJ_WINDOW_SESSIONS` entries: each value over the mean of the five sessions centred on it,
 * averaged per weekday, then scaled so the five average 1. Null unless every weekday has at least
 * `ADJ_MIN_PER_WEEKDAY` ratios.
 *
 * @example weekdayFactors(dates, svx1d)?.[5] // Friday's factor, below 1 when Fridays read low
 * @see docs/methodology.md#weekend-adjusted-readings
 */
export function weekdayFactors(dates: readonly string[], values: ArrayLike<number>): number[] | null {
  const from = Math.max(0, values.length - ADJ_WINDOW_SESSIONS);
  const sum = [0, 0, 0, 0, 0, 0, 0];
  const count = [0, 0, 0, 0, 0, 0, 0];
  for (let i = from + 2; i < values.length - 2; i++) {
    let s = 0;
    let ok = true;
    for (let j = i - 2; j <= i + 2; j++) {
      if (!(Number.isFinite(values[j]) && values[j] > 0)) ok = false;
      s += values[j];
    }
    if (!ok) continue;
    const w = weekdayOf(dates[i]);
    sum[w] += values[i] / (s / 5);
    count[w]++;
  }
  const raw: number[] = [];
  for (let w = 1; w <= 5; w++) {
    if (count[w] < ADJ_MIN_PER_WEEKDAY) return null;
    raw.push(sum[w] / count[w]);
  }
  const mean = raw.reduce((a, b) => a + b, 0) / 5;
  return [Number.NaN, ...raw.map((f) => f / mean), Number.NaN];
}

/**
 * The weekend-adjusted value of `value` read on `date`: `value / factor[weekday]`, with factors
 * from the readings before it (`dates`, `history`, oldest first). Null without factors or value.
 *
 * @example weekendAdjusted(dates, svx1dHistory, "2024-05-03", 14.2)
 * @see docs/methodology.md#weekend-adjusted-readings
 */
export function weekendAdjusted(dates: readonly string[], history: ArrayLike<number>, date: string, value: number | null): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  const f = weekdayFactors(dates, history);
  const w = weekdayOf(date);
  return f && w >= 1 && w <= 5 ? value / f[w] : null;
}
