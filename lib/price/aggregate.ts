/**
 * Aggregation of one-minute bars into session-aligned intraday bars, daily bars and weekly bars.
 * Pure functions over columnar arrays, one pass each.
 * @see docs/methodology.md#aggregation
 */
import { allocateBars, hasSidedVolume, sliceBars, type MinuteBarColumns, type PriceBars } from "./bars";
import { resolutionMinutes, type Resolution } from "./resolution";
import { DAY_MS, MINUTE_MS, sessionIndex, upperBound } from "./_sessions";

/** Options of the aggregation functions. */
export interface AggregateOptions {
  /** Use the extended session (04:00-20:00 ET) for intraday bars; default false (09:30-16:00 ET). */
  extended?: boolean;
}

/**
 * Folds minute j of `m` into bar k of `out` (`start` true opens the bar). Sided columns are
 * summed when `sided`.
 */
function fold(out: PriceBars, k: number, m: MinuteBarColumns, j: number, start: boolean, sided: boolean): void {
  if (start) {
    out.o[k] = m.o[j];
    out.h[k] = m.h[j];
    out.l[k] = m.l[j];
    out.c[k] = m.c[j];
    out.v[k] = m.v[j];
    if (sided) {
      out.bv![k] = m.bv![j];
      out.sv![k] = m.sv![j];
      out.uv![k] = m.uv![j];
    }
    return;
  }
  if (m.h[j] > out.h[k]) out.h[k] = m.h[j];
  if (m.l[j] < out.l[k]) out.l[k] = m.l[j];
  out.c[k] = m.c[j];
  out.v[k] += m.v[j];
  if (sided) {
    out.bv![k] += m.bv![j];
    out.sv![k] += m.sv![j];
    out.uv![k] += m.uv![j];
  }
}

/**
 * Intraday bars of `minutesPerBar` minutes, anchored at each session's open (09:30 ET, or 04:00 ET
 * extended): a 60-minute regular bar starts 09:30, 10:30, ... 15:30 (the last one 30 minutes long).
 * Minutes outside the session are dropped; on an early close the last bar ends at the close.
 * `t` of each bar is its slot start in ms, even when the slot's first minute is missing.
 *
 * @param minutes one-minute bars sorted by `t` ascending
 * @param minutesPerBar bar length, minutes (1 returns the session's minutes unchanged)
 * @example
 * aggregateIntraday(minutes, 60).t.map((t) => new Date(t).toISOString().slice(11, 16))
 * // ["13:30", "14:30", ..., "19:30"] for a regular EDT session
 * @see docs/methodology.md#intraday-bars
 */
export function aggregateIntraday(minutes: MinuteBarColumns, minutesPerBar: number, options: AggregateOptions = {}): PriceBars {
  const idx = sessionIndex();
  const open = options.extended ? idx.extOpenMs : idx.regOpenMs;
  const close = options.extended ? idx.extCloseMs : idx.regCloseMs;
  const n = minutes.t.length;
  const sided = hasSidedVolume(minutes);
  const out = allocateBars(n, sided);
  const resMs = minutesPerBar * MINUTE_MS;
  let k = -1;
  let slot = Number.NaN;
  let s = n > 0 ? upperBound(close, minutes.t[0]) : 0;
  for (let j = 0; j < n; j++) {
    const t = minutes.t[j];
    while (s < close.length && close[s] <= t) s++;
    if (s >= close.length || t < open[s]) continue;
    const start = open[s] + Math.floor((t - open[s]) / resMs) * resMs;
    const isNew = start !== slot;
    if (isNew) {
      k++;
      slot = start;
      out.t[k] = start;
    }
    fold(out, k, minutes, j, isNew, sided);
  }
  return sliceBars(out, 0, k + 1);
}

/**
 * Daily bars from the regular session (09:30-16:00 ET, 13:00 on early closes) whatever the
 * minutes cover: pre- and post-market minutes are dropped. `t` is 00:00 UTC of the session date
 * (the UDF convention: `1748304000` is the 2025-05-27 bar).
 *
 * @param minutes one-minute bars sorted by `t` ascending
 * @example aggregateDaily(minutesOf("2024-11-29")).t[0] === Date.UTC(2024, 10, 29) // true
 * @see docs/methodology.md#daily-and-weekly-bars
 */
export function aggregateDaily(minutes: MinuteBarColumns): PriceBars {
  const idx = sessionIndex();
  const n = minutes.t.length;
  const sided = hasSidedVolume(minutes);
  const out = allocateBars(Math.min(n, idx.dates.length), sided);
  let k = -1;
  let day = -1;
  let s = n > 0 ? upperBound(idx.regCloseMs, minutes.t[0]) : 0;
  for (let j = 0; j < n; j++) {
    const t = minutes.t[j];
    while (s < idx.regCloseMs.length && idx.regCloseMs[s] <= t) s++;
    if (s >= idx.regCloseMs.length || t < idx.regOpenMs[s]) continue;
    const isNew = s !== day;
    if (isNew) {
      k++;
      day = s;
      out.t[k] = idx.midnightMs[s];
    }
    fold(out, k, minutes, j, isNew, sided);
  }
  return sliceBars(out, 0, k + 1);
}

/**
 * Weekly bars from daily bars: one bar per Monday-to-Sunday week holding sessions, `t` = 00:00
 * UTC of the week's first daily bar (a Tuesday after a Monday holiday), open of its first day,
 * close of its last, high/low the extremes, volumes summed.
 *
 * @param daily daily bars (from {@link aggregateDaily}) sorted by `t` ascending
 * @example aggregateWeekly(daily).t // one entry per week, e.g. Date.UTC(2024, 0, 16) after MLK day
 * @see docs/methodology.md#daily-and-weekly-bars
 */
export function aggregateWeekly(daily: PriceBars): PriceBars {
  const n = daily.t.length;
  const sided = !!(daily.bv && daily.sv && daily.uv);
  const out = allocateBars(n, sided);
  let k = -1;
  let week = Number.NaN;
  for (let j = 0; j < n; j++) {
    const w = Math.floor((daily.t[j] / DAY_MS + 3) / 7);
    const isNew = w !== week;
    if (isNew) {
      k++;
      week = w;
      out.t[k] = daily.t[j];
    }
    fold(out, k, daily, j, isNew, sided);
  }
  return sliceBars(out, 0, k + 1);
}

/**
 * Bars of any resolution from one-minute bars: intraday resolutions session-aligned (regular or
 * extended), `D` and `W` from the regular session only.
 *
 * @example aggregateBars(minutes, "5", { extended: true }) // 192 bars for a full extended session
 * @see docs/methodology.md#aggregation
 */
export function aggregateBars(minutes: MinuteBarColumns, resolution: Resolution, options: AggregateOptions = {}): PriceBars {
  if (resolution === "D") return aggregateDaily(minutes);
  if (resolution === "W") return aggregateWeekly(aggregateDaily(minutes));
  return aggregateIntraday(minutes, resolutionMinutes(resolution)!, options);
}
