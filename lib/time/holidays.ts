import { daysFromCivil, formatEpochDay, weekdayOfDays } from "./_civil";
import { easterSundayEpochDay } from "./_easter";
import { CalendarError } from "./calendar-error";
import type { IsoDate } from "./types";

/** First calendar year the NYSE tables cover. */
export const CALENDAR_FIRST_YEAR = 2020;
/** Last calendar year the NYSE tables cover (inclusive). */
export const CALENDAR_LAST_YEAR = 2030;

/** A full-day NYSE closure on a weekday. */
export interface Holiday {
  date: IsoDate;
  name: string;
}

/**
 * Unscheduled full-day closures inside the covered years, with NYSE's own wording.
 * @see docs/methodology.md#nyse-holidays
 */
const ONE_OFF_CLOSURES: readonly Holiday[] = [{ date: "2025-01-09", name: "National Day of Mourning for President Jimmy Carter" }];

const SATURDAY = 6;
const SUNDAY = 0;
const FRIDAY = 5;

/** Epoch day of the n-th (1-based) given weekday of a month. */
function nthWeekday(year: number, month: number, weekday: number, n: number): number {
  const first = daysFromCivil(year, month, 1);
  return first + ((weekday - weekdayOfDays(first) + 7) % 7) + 7 * (n - 1);
}

/** Epoch day of the last given weekday of a month. */
function lastWeekday(year: number, month: number, weekday: number): number {
  const last = daysFromCivil(year, month + 1, 1) - 1;
  return last - ((weekdayOfDays(last) - weekday + 7) % 7);
}

/**
 * NYSE Rule 7.2 observance: Saturday -> the Friday before, Sunday -> the Monday after.
 * New Year's Day is the exception (a Saturday New Year is not made up on the Friday, which ends a
 * year), handled by the caller.
 */
function observed(epochDay: number): number {
  const wd = weekdayOfDays(epochDay);
  if (wd === SATURDAY) return epochDay - 1;
  if (wd === SUNDAY) return epochDay + 1;
  return epochDay;
}

function assertCovered(year: number): void {
  if (!Number.isInteger(year)) throw new CalendarError("invalid_argument", `year must be an integer, got ${year}`);
  if (year < CALENDAR_FIRST_YEAR || year > CALENDAR_LAST_YEAR) {
    throw new CalendarError("out_of_range", `year ${year} is outside the NYSE calendar (${CALENDAR_FIRST_YEAR}-${CALENDAR_LAST_YEAR})`);
  }
}

function computeHolidays(year: number): readonly Holiday[] {
  const days: Array<[number, string]> = [];
  const newYear = daysFromCivil(year, 1, 1);
  const newYearWd = weekdayOfDays(newYear);
  if (newYearWd !== SATURDAY) days.push([newYearWd === SUNDAY ? newYear + 1 : newYear, "New Year's Day"]);
  days.push([nthWeekday(year, 1, 1, 3), "Martin Luther King, Jr. Day"]);
  days.push([nthWeekday(year, 2, 1, 3), "Washington's Birthday"]);
  days.push([easterSundayEpochDay(year) - 2, "Good Friday"]);
  days.push([lastWeekday(year, 5, 1), "Memorial Day"]);
  if (year >= 2022) days.push([observed(daysFromCivil(year, 6, 19)), "Juneteenth National Independence Day"]);
  days.push([observed(daysFromCivil(year, 7, 4)), "Independence Day"]);
  days.push([nthWeekday(year, 9, 1, 1), "Labor Day"]);
  days.push([nthWeekday(year, 11, 4, 4), "Thanksgiving Day"]);
  days.push([observed(daysFromCivil(year, 12, 25)), "Christmas Day"]);
  const out: Holiday[] = days.map(([d, name]) => ({ date: formatEpochDay(d), name }));
  for (const h of ONE_OFF_CLOSURES) if (h.date.startsWith(`${year}-`)) out.push(h);
  out.sort((a, b) => (a.date < b.date ? -1 : 1));
  return Object.freeze(out.map((h) => Object.freeze(h)));
}

function computeEarlyCloses(year: number): readonly IsoDate[] {
  const out: number[] = [];
  // July 3 closes early only when both it and July 4 are weekdays (Mon-Thu); a Friday July 3 is
  // itself the observed holiday and a weekend July 4 leaves no early close.
  const july3 = daysFromCivil(year, 7, 3);
  const wdJuly3 = weekdayOfDays(july3);
  if (wdJuly3 >= 1 && wdJuly3 <= 4) out.push(july3);
  out.push(nthWeekday(year, 11, 4, 4) + 1); // the day after Thanksgiving
  const dec24 = daysFromCivil(year, 12, 24);
  const wdDec24 = weekdayOfDays(dec24);
  if (wdDec24 >= 1 && wdDec24 < FRIDAY) out.push(dec24); // a Friday Dec 24 is the observed Christmas
  return Object.freeze(out.map(formatEpochDay));
}

// Memo caches of pure functions of the year (allowed: deterministic, never invalidated).
const holidayMemo = new Map<number, readonly Holiday[]>();
const earlyMemo = new Map<number, readonly IsoDate[]>();

/**
 * Full-day NYSE closures (weekdays only) of a covered year, sorted, by rule plus one-off closures.
 *
 * @param year calendar year, `CALENDAR_FIRST_YEAR`..`CALENDAR_LAST_YEAR`
 * @example
 * holidaysOfYear(2025)[1]; // { date: "2025-01-09", name: "National Day of Mourning for President Jimmy Carter" }
 * @see docs/methodology.md#nyse-holidays
 */
export function holidaysOfYear(year: number): readonly Holiday[] {
  assertCovered(year);
  let h = holidayMemo.get(year);
  if (!h) {
    h = computeHolidays(year);
    holidayMemo.set(year, h);
  }
  return h;
}

/**
 * NYSE 13:00 ET early-close dates of a covered year, sorted.
 *
 * @example
 * earlyClosesOfYear(2026); // ["2026-11-27", "2026-12-24"]
 * @see docs/methodology.md#early-closes
 */
export function earlyClosesOfYear(year: number): readonly IsoDate[] {
  assertCovered(year);
  let e = earlyMemo.get(year);
  if (!e) {
    e = computeEarlyCloses(year);
    earlyMemo.set(year, e);
  }
  return e;
}
