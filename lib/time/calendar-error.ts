import { CodedError } from "../coded-error";

/**
 * Why a calendar or ET-time function refused its input.
 *
 * - `invalid_date`: not a real `YYYY-MM-DD` calendar date.
 * - `invalid_time`: not a real `HH:MM` / `HH:MM:SS` wall time, or an instant that is not a finite number.
 * - `invalid_argument`: another argument is wrong (for example a non-integer day count).
 * - `out_of_range`: a valid date or instant outside the years the calendar covers.
 * - `no_session`: the date is valid and covered but the exchange has no session on it.
 */
export type CalendarErrorCode = "invalid_date" | "invalid_time" | "invalid_argument" | "out_of_range" | "no_session";

/**
 * The one error type of `lib/time`; `code` is stable, `message` names the offending value.
 *
 * @example
 * try { isTradingDay("2024-02-30"); } catch (e) { (e as CalendarError).code; } // "invalid_date"
 * @see docs/methodology.md#calendar-errors
 */
export class CalendarError extends CodedError {
  /** Stable machine-readable reason. */
  declare readonly code: CalendarErrorCode;

  constructor(code: CalendarErrorCode, message: string) {
    super(code, message);
    this.name = "CalendarError";
  }
}
