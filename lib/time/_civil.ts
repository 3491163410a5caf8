import { CalendarError } from "./calendar-error";

/** Milliseconds in a civil day (no leap seconds in epoch time). */
export const DAY_MS = 86_400_000;

/**
 * Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant, "chrono-Compatible Low-Level
 * Date Algorithms"); pure arithmetic so it does not depend on the process time zone.
 */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = month > 2 ? month - 3 : month + 9;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** Inverse of `daysFromCivil`: `[year, month 1-12, day 1-31]`. */
function civilFromDays(epochDay: number): [number, number, number] {
  const z = epochDay + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

/** Day of the week of an epoch day, 0 = Sunday ... 6 = Saturday (1970-01-01 was a Thursday). */
export function weekdayOfDays(epochDay: number): number {
  return (((epochDay + 4) % 7) + 7) % 7;
}

/** Days in a month of the Gregorian calendar. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}

/** `YYYY-MM-DD` of a civil date (years 1000-9999). */
export function formatCivil(year: number, month: number, day: number): string {
  return `${year}-${pad2(month)}-${pad2(day)}`;
}

/** `YYYY-MM-DD` of an epoch day. */
export function formatEpochDay(epochDay: number): string {
  const [y, m, d] = civilFromDays(epochDay);
  return formatCivil(y, m, d);
}

function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
}

/** Reads `count` ASCII digits at `at`, or -1 when any is not a digit. */
export function readDigits(s: string, at: number, count: number): number {
  let v = 0;
  for (let i = at; i < at + count; i++) {
    const c = digit(s, i);
    if (c < 0) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** Parses a strict `YYYY-MM-DD` to `[year, month, day]`, throwing `CalendarError("invalid_date")`. */
export function parseIsoDate(date: unknown): [number, number, number] {
  if (typeof date !== "string" || date.length !== 10 || date[4] !== "-" || date[7] !== "-") {
    throw new CalendarError("invalid_date", `expected a YYYY-MM-DD date, got ${JSON.stringify(date)}`);
  }
  const y = readDigits(date, 0, 4);
  const m = readDigits(date, 5, 2);
  const d = readDigits(date, 8, 2);
  if (y < 0 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) {
    throw new CalendarError("invalid_date", `${JSON.stringify(date)} is not a calendar date`);
  }
  return [y, m, d];
}
