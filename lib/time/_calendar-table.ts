import { daysFromCivil, formatEpochDay, parseIsoDate, weekdayOfDays } from "./_civil";
import { CalendarError } from "./calendar-error";
import { CALENDAR_FIRST_YEAR, CALENDAR_LAST_YEAR, earlyClosesOfYear, holidaysOfYear } from "./holidays";
import type { IsoDate } from "./types";

/**
 * Every calendar day of the covered years, indexed from CALENDAR_FIRST_YEAR-01-01, with the
 * trading-day positions needed for O(1) calendar arithmetic.
 */
export interface CalendarTable {
  /** Epoch day of index 0. */
  firstEpochDay: number;
  /** `YYYY-MM-DD` of each calendar day. */
  dates: readonly IsoDate[];
  indexByDate: ReadonlyMap<string, number>;
  /** Per calendar day: its position in `tradingDays`, or -1. */
  tradingIndex: Int32Array;
  /** Per calendar day: position of the first trading day on or after it (`tradingDays.length` if none). */
  atOrAfter: Int32Array;
  /** Per calendar day: 1 on a 13:00 ET early close. */
  early: Uint8Array;
  /** Per calendar day: the closure's name on a weekday holiday, else null. */
  holidayNames: readonly (string | null)[];
  /** Sorted trading days. */
  tradingDays: readonly IsoDate[];
  /** Epoch day of each trading day. */
  tradingEpochDays: Int32Array;
}

let table: CalendarTable | undefined; // memo of a pure, argument-free computation

function build(): CalendarTable {
  const firstEpochDay = daysFromCivil(CALENDAR_FIRST_YEAR, 1, 1);
  const n = daysFromCivil(CALENDAR_LAST_YEAR + 1, 1, 1) - firstEpochDay;
  const dates: IsoDate[] = new Array(n);
  const indexByDate = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    dates[i] = formatEpochDay(firstEpochDay + i);
    indexByDate.set(dates[i], i);
  }
  const holidayNames: (string | null)[] = new Array(n).fill(null);
  const early = new Uint8Array(n);
  for (let y = CALENDAR_FIRST_YEAR; y <= CALENDAR_LAST_YEAR; y++) {
    for (const h of holidaysOfYear(y)) holidayNames[indexByDate.get(h.date)!] = h.name;
    for (const d of earlyClosesOfYear(y)) early[indexByDate.get(d)!] = 1;
  }
  const tradingIndex = new Int32Array(n).fill(-1);
  const tradingDays: IsoDate[] = [];
  const epochDays: number[] = [];
  for (let i = 0; i < n; i++) {
    const wd = weekdayOfDays(firstEpochDay + i);
    if (wd === 0 || wd === 6 || holidayNames[i] !== null) continue;
    tradingIndex[i] = tradingDays.length;
    tradingDays.push(dates[i]);
    epochDays.push(firstEpochDay + i);
  }
  const atOrAfter = new Int32Array(n);
  let next = tradingDays.length;
  for (let i = n - 1; i >= 0; i--) {
    if (tradingIndex[i] >= 0) next = tradingIndex[i];
    atOrAfter[i] = next;
  }
  return {
    firstEpochDay,
    dates,
    indexByDate,
    tradingIndex,
    atOrAfter,
    early,
    holidayNames,
    tradingDays,
    tradingEpochDays: Int32Array.from(epochDays),
  };
}

/** The lazily built calendar table (built once, about a millisecond). */
export function calendarTable(): CalendarTable {
  table ??= build();
  return table;
}

/** Index of a date in the table; throws `invalid_date` or `out_of_range`. */
export function dayIndexOf(date: IsoDate): number {
  const t = calendarTable();
  const i = t.indexByDate.get(date);
  if (i !== undefined) return i;
  const [y] = parseIsoDate(date); // throws invalid_date for anything malformed
  throw new CalendarError("out_of_range", `${date} (year ${y}) is outside the NYSE calendar (${CALENDAR_FIRST_YEAR}-${CALENDAR_LAST_YEAR})`);
}

/** Index in the table of an epoch day; throws `out_of_range`. */
export function dayIndexOfEpochDay(epochDay: number): number {
  const t = calendarTable();
  const i = epochDay - t.firstEpochDay;
  if (i < 0 || i >= t.dates.length) {
    throw new CalendarError("out_of_range", `${formatEpochDay(epochDay)} is outside the NYSE calendar (${CALENDAR_FIRST_YEAR}-${CALENDAR_LAST_YEAR})`);
  }
  return i;
}

/** The trading day at a position of the sorted list; throws `out_of_range` past either end. */
export function tradingDayAt(position: number, what: string): IsoDate {
  const t = calendarTable();
  if (position < 0 || position >= t.tradingDays.length) {
    throw new CalendarError("out_of_range", `${what} falls outside the NYSE calendar (${CALENDAR_FIRST_YEAR}-${CALENDAR_LAST_YEAR})`);
  }
  return t.tradingDays[position];
}
