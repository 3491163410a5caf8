import * as z from "zod";

/** An ET calendar date written `YYYY-MM-DD` (session dates, expiries). */
export type IsoDate = string;

/** Zod schema of an `IsoDate` at a boundary (shape and calendar validity; not calendar coverage). */
export const IsoDateSchema = z.iso.date();

/**
 * The US equity session state at an instant.
 *
 * `pre_open` 04:00-09:30 ET, `open` 09:30 to the regular close, `post_close` the regular close to the
 * extended close, `closed` otherwise (nights, weekends, holidays).
 * @see docs/methodology.md#market-state
 */
export type MarketState = "closed" | "pre_open" | "open" | "post_close";

/** Start (inclusive) and end (exclusive) of a session, epoch milliseconds. */
export interface SessionBounds {
  openMs: number;
  closeMs: number;
}

/** Which session: the regular 09:30-16:00 ET one (default) or the extended 04:00-20:00 ET one. */
export interface SessionOptions {
  extended?: boolean;
}
