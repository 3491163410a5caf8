import { DAY_MS, daysFromCivil, formatEpochDay, parseIsoDate, readDigits } from "./_civil";
import { calendarTable } from "./_calendar-table";
import { etLocalToUtcMs, etOffsetMsAt } from "./_et-offset";
import { CalendarError } from "./calendar-error";
import type { IsoDate } from "./types";

/** Days since 1970-01-01 of the ET calendar date of an instant. */
export function etEpochDayOf(ms: number): number {
  return Math.floor((ms + etOffsetMsAt(ms)) / DAY_MS);
}

/**
 * ET calendar date of an instant.
 *
 * @param ms epoch milliseconds (UTC)
 * @throws CalendarError `invalid_time` (non-finite), `out_of_range` (outside 1971-2199)
 * @example
 * etDateOf(Date.UTC(2024, 6, 2, 3, 0)); // "2024-07-01" (23:00 EDT)
 * @see docs/methodology.md#et-instants
 */
export function etDateOf(ms: number): IsoDate {
  const day = etEpochDayOf(ms);
  const t = calendarTable();
  const i = day - t.firstEpochDay;
  return i >= 0 && i < t.dates.length ? t.dates[i] : formatEpochDay(day);
}

/**
 * Minutes since ET midnight of an instant (0-1439; wall-clock minutes, so a DST day still runs 0-1439).
 *
 * @example
 * etMinutesOfDay(Date.UTC(2024, 0, 2, 14, 30)); // 570 (09:30 EST)
 * @see docs/methodology.md#et-instants
 */
export function etMinutesOfDay(ms: number): number {
  const local = ms + etOffsetMsAt(ms);
  return Math.floor((local - Math.floor(local / DAY_MS) * DAY_MS) / 60_000);
}

/** Seconds after midnight of "HH:MM" or "HH:MM:SS" (00:00 to 23:59:59). */
function parseWallTime(time: unknown): number {
  if (typeof time === "string" && (time.length === 5 || (time.length === 8 && time[5] === ":")) && time[2] === ":") {
    const h = readDigits(time, 0, 2);
    const m = readDigits(time, 3, 2);
    const s = time.length === 8 ? readDigits(time, 6, 2) : 0;
    if (h >= 0 && h <= 23 && m >= 0 && m <= 59 && s >= 0 && s <= 59) return h * 3600 + m * 60 + s;
  }
  throw new CalendarError("invalid_time", `expected an HH:MM wall time, got ${JSON.stringify(time)}`);
}

/**
 * The instant of an ET wall-clock time on an ET date. Nonexistent spring-forward times move forward
 * by the gap; repeated fall-back times resolve to the first (EDT) occurrence.
 *
 * @param date ET calendar date `YYYY-MM-DD`
 * @param time `"HH:MM"` or `"HH:MM:SS"`, 24-hour
 * @returns epoch milliseconds
 * @throws CalendarError `invalid_date`, `invalid_time`, `out_of_range`
 * @example
 * etInstant("2024-07-01", "09:30"); // Date.UTC(2024, 6, 1, 13, 30)
 * @see docs/methodology.md#et-instants
 */
export function etInstant(date: IsoDate, time: string): number {
  const t = calendarTable();
  const i = t.indexByDate.get(date);
  let day: number;
  if (i !== undefined) day = t.firstEpochDay + i;
  else {
    const [y, m, d] = parseIsoDate(date);
    day = daysFromCivil(y, m, d);
  }
  return etLocalToUtcMs(day * DAY_MS + parseWallTime(time) * 1000);
}
