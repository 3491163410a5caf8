// Every NYSE session of the covered years as sorted columns, so the window rules can binary-search
// instants instead of walking dates. A memo of a pure, argument-free computation (lib/time's tables).
import { CALENDAR_FIRST_YEAR, CALENDAR_LAST_YEAR, sessionBounds, tradingDaysBetween, type IsoDate } from "../time";

export const DAY_MS = 86_400_000;
export const MINUTE_MS = 60_000;

/** Sorted sessions; index i is the i-th trading day of the calendar. */
export interface SessionIndex {
  dates: readonly IsoDate[];
  /** 00:00 UTC of the session date (the UDF daily bar time), ms. */
  midnightMs: Float64Array;
  regOpenMs: Float64Array;
  regCloseMs: Float64Array;
  extOpenMs: Float64Array;
  extCloseMs: Float64Array;
  /** Monday-based week number (epoch day + 3) / 7, floored: equal within one Mon-Sun week. */
  week: Int32Array;
  /** Epoch day of 00:00 UTC of the first calendar day covered. */
  firstEpochDay: number;
  /** Epoch day after the last calendar day covered. */
  endEpochDay: number;
}

let memo: SessionIndex | undefined;

/** The session table (built once, about 2,770 sessions). */
export function sessionIndex(): SessionIndex {
  if (memo) return memo;
  const dates = tradingDaysBetween(`${CALENDAR_FIRST_YEAR}-01-01`, `${CALENDAR_LAST_YEAR}-12-31`);
  const n = dates.length;
  const idx: SessionIndex = {
    dates,
    midnightMs: new Float64Array(n),
    regOpenMs: new Float64Array(n),
    regCloseMs: new Float64Array(n),
    extOpenMs: new Float64Array(n),
    extCloseMs: new Float64Array(n),
    week: new Int32Array(n),
    firstEpochDay: Date.UTC(CALENDAR_FIRST_YEAR, 0, 1) / DAY_MS,
    endEpochDay: Date.UTC(CALENDAR_LAST_YEAR + 1, 0, 1) / DAY_MS,
  };
  for (let i = 0; i < n; i++) {
    const d = dates[i];
    const mid = Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10)));
    const reg = sessionBounds(d);
    const ext = sessionBounds(d, { extended: true });
    idx.midnightMs[i] = mid;
    idx.regOpenMs[i] = reg.openMs;
    idx.regCloseMs[i] = reg.closeMs;
    idx.extOpenMs[i] = ext.openMs;
    idx.extCloseMs[i] = ext.closeMs;
    idx.week[i] = Math.floor((mid / DAY_MS + 3) / 7);
  }
  memo = idx;
  return idx;
}

/** First index i with `a[i] > x` (a sorted ascending); `a.length` when none. */
export function upperBound(a: Float64Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** First index i with `a[i] >= x` (a sorted ascending); `a.length` when none. */
export function lowerBound(a: Float64Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] >= x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Monday-to-Friday days among epoch days `[a, b)` (the cap's stand-in outside the calendar). */
export function weekdaysBetween(a: number, b: number): number {
  if (b <= a) return 0;
  // Epoch day 0 (1970-01-01) was a Thursday; (d + 3) mod 7 is 0 on Mondays.
  const full = Math.floor((b - a) / 7);
  let count = full * 5;
  for (let d = a + full * 7; d < b; d++) {
    const wd = (((d + 3) % 7) + 7) % 7;
    if (wd < 5) count++;
  }
  return count;
}
