// The volatility `meta` object (spec "Envelope": module, asOf, sessionDate, marketState, frozen,
// publishedAt, cached, attribution); its schema and the wrapper's `missing[]` are in lib/api/vol.ts.
import { isoUtc } from "../../../lib/positioning/iso-utc";
import { marketStateAt, sessionDateAt } from "../../../lib/time";
import { attribution } from "../../attribution";
import type { VolMeta } from "../../../lib/api/vol";

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
