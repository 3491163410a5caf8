import * as z from "zod";
import type { ChainTerms } from "./chain-terms";
import { MINUTE_MS, SVX_TENOR_MINUTES } from "./defaults";
import { reportInstantMs } from "./events";

/** How a report sits in an SVX reading: outside it, spanned by its interpolation, or inside both terms. */
export type EarningsOverlap = "none" | "partial" | "full";

/** `term.earnings_context` / `events.earnings_context` (the reference's fields). */
export const EarningsContextSchema = z.object({
  status: z.enum(["scheduled", "limited", "calendar_unavailable", "no_report", "timing_unknown", "report_passed"]),
  date: z.string().nullable(),
  timing: z.enum(["bmo", "amc"]).nullable(),
  within_9d: z.boolean().nullable(),
  overlap_9d: z.enum(["none", "partial", "full"]).nullable(),
  overlap_30d: z.enum(["none", "partial", "full"]).nullable(),
});
export type EarningsContext = z.output<typeof EarningsContextSchema>;

/**
 * The overlap of a report at `reportMs` with the SVX reading of `tenorMinutes` on a board: `none`
 * when the report is after the reading's horizon, `partial` when inside it but the reading's near
 * term settles before the report, else `full`; null without a reading.
 *
 * @example earningsOverlap(terms, reportMs, 43_200) // "full"
 * @see docs/methodology.md#volatility-server-readings
 */
export function earningsOverlap(terms: Pick<ChainTerms, "asOfMs" | "varianceTo">, reportMs: number, tenorMinutes: number): EarningsOverlap | null {
  const read = terms.varianceTo(tenorMinutes);
  if (!read) return null;
  if (reportMs > terms.asOfMs + tenorMinutes * MINUTE_MS) return "none";
  const nearSettle = read.near?.settleMs ?? null;
  return nearSettle !== null && nearSettle < reportMs ? "partial" : "full";
}

/**
 * Scheduled-earnings exposure of a board's 9- and 30-day readings. `calendar` false (an index: no
 * earnings calendar) gives `calendar_unavailable`; no report ahead gives `no_report` (overlaps
 * `none`); a report gives `scheduled`, or `limited` when a reading is missing (its overlap null).
 * Describes exposure only: no premium is attributed.
 *
 * @example earningsContext(terms, { calendar: true, next: { date: "2024-05-02", timing: "amc" } }).overlap_9d
 * @see docs/methodology.md#volatility-server-readings
 */
export function earningsContext(
  terms: Pick<ChainTerms, "asOfMs" | "varianceTo">,
  o: { calendar: boolean; next: { date: string; timing: "bmo" | "amc" } | null },
): EarningsContext {
  if (!o.calendar) return { status: "calendar_unavailable", date: null, timing: null, within_9d: null, overlap_9d: null, overlap_30d: null };
  if (!o.next) return { status: "no_report", date: null, timing: null, within_9d: null, overlap_9d: "none", overlap_30d: "none" };
  const reportMs = reportInstantMs(o.next);
  const overlap_9d = earningsOverlap(terms, reportMs, SVX_TENOR_MINUTES.svx9);
  const overlap_30d = earningsOverlap(terms, reportMs, SVX_TENOR_MINUTES.svx30);
  return {
    status: overlap_9d === null || overlap_30d === null ? "limited" : "scheduled",
    date: o.next.date,
    timing: o.next.timing,
    within_9d: reportMs <= terms.asOfMs + SVX_TENOR_MINUTES.svx9 * MINUTE_MS,
    overlap_9d,
    overlap_30d,
  };
}
