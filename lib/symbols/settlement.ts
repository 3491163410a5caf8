import { daysFromCivil, formatCivil, parseIsoDate, weekdayOfDays } from "../time/_civil";
import { CalendarError } from "../time/calendar-error";
import { sessionBounds } from "../time/session";
import { isTradingDay, previousTradingDay } from "../time/trading-days";
import type { IsoDate } from "../time/types";
import { optionRoot } from "./option-roots";

/** The trading day a contract expiring on `expiry` settles on: itself, or the trading day before. */
function settlementDate(expiry: IsoDate): IsoDate {
  return isTradingDay(expiry) ? expiry : previousTradingDay(expiry);
}

/**
 * The instant a contract settles: the regular open (09:30 ET) of the settlement date for AM-settled
 * roots, the regular close (16:00 ET, 13:00 on early closes) for PM-settled ones. An expiry that is
 * not a trading day settles on the trading day before it.
 *
 * @param root option root (`SPXW`, `SPX`, an equity ticker, ...)
 * @param expiry expiration date from the symbol
 * @returns epoch milliseconds
 * @throws OptionSymbolError `malformed` (root); CalendarError `invalid_date`, `out_of_range`
 * @example
 * settlementInstantMs("SPX", "2025-06-20"); // Date.UTC(2025, 5, 20, 13, 30)  (09:30 EDT)
 * settlementInstantMs("SPXW", "2025-06-20"); // Date.UTC(2025, 5, 20, 20, 0)  (16:00 EDT)
 * @see docs/methodology.md#settlement-instants
 */
export function settlementInstantMs(root: string, expiry: IsoDate): number {
  const info = optionRoot(root);
  const bounds = sessionBounds(settlementDate(expiry));
  return info.settlement === "AM" ? bounds.openMs : bounds.closeMs;
}

/**
 * The standard monthly expiration of a month: its third Friday, or the trading day before it when
 * that Friday is an exchange holiday.
 *
 * @param month 1-12
 * @throws CalendarError `invalid_argument`, `out_of_range`
 * @example
 * monthlyExpiration(2025, 4); // "2025-04-17" (Good Friday is the third Friday)
 * @see docs/methodology.md#monthly-expirations
 */
export function monthlyExpiration(year: number, month: number): IsoDate {
  if (!Number.isInteger(year) || !Number.isInteger(month) || month < 1 || month > 12) {
    throw new CalendarError("invalid_argument", `expected an integer year and a month 1-12, got ${year}-${month}`);
  }
  const first = daysFromCivil(year, month, 1);
  const firstFriday = 1 + ((5 - weekdayOfDays(first) + 7) % 7);
  return settlementDate(formatCivil(year, month, firstFriday + 14));
}

/**
 * True when the date is its month's standard monthly expiration (see `monthlyExpiration`).
 *
 * @throws CalendarError `invalid_date`, `out_of_range`
 * @example
 * isMonthlyExpiration("2025-04-17"); // true
 * @see docs/methodology.md#monthly-expirations
 */
export function isMonthlyExpiration(date: IsoDate): boolean {
  const [y, m] = parseIsoDate(date);
  return monthlyExpiration(y, m) === date;
}
