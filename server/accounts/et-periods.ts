/**
 * ET calendar periods for caps and grants: the ET day, the ET month, and the next ET midnight.
 * Billing periods follow America/New_York wall time, DST included (a day is 23 or 25 hours on
 * transition days). See docs/api.md#credits-and-ledger.
 */
// The library's ET conversion (docs/methodology.md#et-instants), not date-fns-tz: that import loaded
// all of date-fns, about 0.3 s of CPU at every server, CLI and worker start, for two calls.
import { etDateOf, etInstant } from "../../lib/time";

export interface EtPeriods {
  /** ET calendar date, `YYYY-MM-DD`. */
  day: string;
  /** ET calendar month, `YYYY-MM`. */
  month: string;
  /** Unix ms of the ET midnight that starts `day`. */
  dayStartMs: number;
  /** Unix ms of the next ET midnight (the end of `day`). */
  nextMidnightMs: number;
}

/** Cache of the last computed day (the ET conversion is the costly part on the debit path). */
let last: EtPeriods | null = null;

/**
 * The ET day/month containing `tsMs` and the bounds of that day.
 * @example etPeriods(Date.UTC(2024, 2, 10, 12)).day // "2024-03-10"
 * @see docs/api.md#credits-and-ledger
 */
export function etPeriods(tsMs: number): EtPeriods {
  if (last && tsMs >= last.dayStartMs && tsMs < last.nextMidnightMs) return last;
  const day = etDateOf(tsMs);
  // ET midnight always exists and is never repeated (New York changes its clocks at 02:00).
  const dayStartMs = etInstant(day, "00:00");
  const [y, m, d] = day.split("-").map(Number);
  const nextCivil = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  const nextMidnightMs = etInstant(nextCivil, "00:00");
  const result: EtPeriods = { day, month: day.slice(0, 7), dayStartMs, nextMidnightMs };
  last = result;
  return result;
}

/**
 * Whole seconds from `tsMs` until the next ET midnight (at least 1), for `Retry-After`.
 * @example secondsUntilEtMidnight(Date.parse("2024-06-03T23:59:30-04:00")) // 30
 */
export function secondsUntilEtMidnight(tsMs: number): number {
  return Math.max(1, Math.ceil((etPeriods(tsMs).nextMidnightMs - tsMs) / 1000));
}
