// Query-parameter schemas of the price module (atlas.yaml names and bounds).
import { z } from "zod";
import { normalizeResolution, RESOLUTIONS } from "../../../lib/price";
import { boolParam, intParam, TICKER_RE } from "../params";

const INT_RE = /^[+-]?\d{1,15}$/;

/** A required Unix-seconds integer (`from`, `to`). */
export function unixSecondsParam(description: string) {
  const error = "must be an integer (Unix seconds).";
  return z
    .preprocess((v) => (typeof v === "string" && INT_RE.test(v) ? Number(v) : v), z.number({ error }).int({ error }))
    .meta({ description });
}

/** `countback`: an optional integer of at least 1. */
export const countbackParam = z
  .preprocess(
    (v) => (typeof v === "string" && INT_RE.test(v) ? Number(v) : v),
    z
      .number({ error: "must be an integer of at least 1." })
      .int({ error: "must be an integer of at least 1." })
      .min(1, { error: "must be an integer of at least 1." }),
  )
  .optional()
  .meta({ description: "Return exactly this many bars ending at `to` (fewer only when history runs out); overrides `from`." });

/** `resolution`: one of the spec's values; `1D`/`1W` (as charting clients send them) mean `D`/`W`. */
export const resolutionParam = z
  .preprocess(
    (v) => (typeof v === "string" ? (normalizeResolution(v) ?? v) : v),
    z.enum(RESOLUTIONS, { error: `must be one of ${RESOLUTIONS.join(", ")}.` }),
  )
  .meta({ description: "Bar size: minutes (`1` `2` `3` `5` `15` `30` `60` `240` `480`), `D` or `W` (`1D`/`1W` accepted)." });

/** A ticker, trimmed and upper-cased, checked against the ticker grammar (history). */
export const tickerParam = z
  .string()
  .transform((s) => s.trim().toUpperCase())
  .pipe(z.string().regex(TICKER_RE, { error: "expected a ticker such as SPY." }))
  .meta({ description: "Ticker, e.g. `SPY`." });

/** A ticker as given, trimmed and upper-cased; malformed ones are answered by the handler (`/v1/symbols`). */
export const rawSymbolParam = z
  .string()
  .transform((s) => s.trim().toUpperCase())
  .meta({ description: "Ticker, e.g. `SPY`." });

/** `extended`: pre- and post-market bars too. */
export const extendedParam = boolParam(false, "Add pre-market (04:00-09:30 ET) and post-market (16:00-20:00 ET) bars. Intraday only.");

/** `limit` of `/v1/search`. */
export const searchLimitParam = intParam({ min: 1, max: 500, default: 25, description: "Most results (1-500)." });
