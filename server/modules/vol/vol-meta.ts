// The volatility `meta` object (spec "Envelope": module, asOf, sessionDate, marketState, frozen,
// publishedAt, cached, attribution) and the wrapper's `missing[]` entries.
import { z } from "zod";
import { isoUtc } from "../../../lib/positioning/iso-utc";
import { marketStateAt, sessionDateAt } from "../../../lib/time";
import { attribution } from "../../attribution";

/** Schema of the volatility `meta`. */
export const VolMetaSchema = z.object({
  module: z.string(),
  asOf: z.string().nullable(),
  sessionDate: z.string(),
  marketState: z.enum(["pre_open", "open", "post_close", "closed"]),
  frozen: z.boolean(),
  publishedAt: z.string().nullable(),
  cached: z.boolean(),
  attribution: z.object({}).loose(),
});
export type VolMeta = z.output<typeof VolMetaSchema>;

/** Why a requested symbol has no entry: not a covered symbol, or covered without a board yet. */
export const VolMissingSchema = z.object({ symbol: z.string(), reason: z.enum(["not_covered", "no_history"]) });
export type VolMissing = z.output<typeof VolMissingSchema>;

/**
 * The `meta` of a volatility response. `asOfMs` is the newest reading in the response (null when
 * there is none); `frozen` is true outside regular hours, when readings are the last close's.
 */
export function volMeta(o: { module: string; nowMs: number; asOfMs: number | null; cached: boolean; simulated: boolean }): VolMeta {
  const marketState = marketStateAt(o.nowMs);
  const asOf = o.asOfMs === null ? null : isoUtc(o.asOfMs);
  return {
    module: o.module,
    asOf,
    sessionDate: o.asOfMs === null ? sessionDateAt(o.nowMs) : sessionDateAt(o.asOfMs),
    marketState,
    frozen: marketState !== "open",
    publishedAt: asOf,
    cached: o.cached,
    attribution: attribution(o.simulated),
  };
}
