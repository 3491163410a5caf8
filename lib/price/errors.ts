import { CodedError } from "../coded-error";

/** Stable codes of price-module errors; the server maps them to the API's codes. */
export type PriceErrorCode = "range_too_large" | "invalid_window";

/**
 * The one error type of `lib/price`. For `range_too_large`, `requestedDays` and `maxDays` are the
 * two numbers a client needs to page (the 400 body's `requested_days` and `max_days`).
 *
 * @example
 * try { planHistory(req, nowMs) }
 * catch (e) { if (e instanceof PriceError && e.code === "range_too_large") e.maxDays; }
 * @see docs/methodology.md#trading-day-caps
 */
export class PriceError extends CodedError {
  override readonly name = "PriceError";
  declare readonly code: PriceErrorCode;
  constructor(
    code: PriceErrorCode,
    message: string,
    readonly requestedDays?: number,
    readonly maxDays?: number,
  ) {
    super(code, message, requestedDays === undefined ? {} : { requested_days: requestedDays, max_days: maxDays });
  }
}
