import { MINUTE_MS, MINUTES_PER_YEAR } from "./defaults";

/**
 * Time from `asOfMs` to the settlement instant in years of 365 days, counted in minutes and
 * floored at one minute; null once the contract has settled (`settleMs <= asOfMs`).
 *
 * @param asOfMs snapshot instant, ms
 * @param settleMs settlement instant, ms (16:00 ET PM-settled, 09:30 ET AM-settled)
 * @returns `tYears`, or null when expired
 * @example tYearsToSettle(0, 60 * 60_000) // 60 / 525600
 * @see docs/methodology.md#time-to-expiry
 */
export function tYearsToSettle(asOfMs: number, settleMs: number): number | null {
  const dMs = settleMs - asOfMs;
  if (!(dMs > 0)) return null;
  return Math.max(dMs / MINUTE_MS, 1) / MINUTES_PER_YEAR;
}
