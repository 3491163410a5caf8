// Schemas of the remaining per-ticker and per-contract reference flow paths (flowseeker.yaml):
// aggregate across timeframes, trades, vol/OI, moneyness, trade score, historical compare and
// charts. Names and shapes follow the reference; bounds, messages and formulas are ours.
// @see docs/methodology.md#flow-reference-paths-2
import { z } from "zod";
import {
  AGGREGATE_TIMEFRAMES,
  MoneynessAggregateSchema,
  TimeframeAggregateSchema,
  TrendAnalysisSchema,
  type AggregateTimeframe,
} from "../flow/timeframe-aggregate";
import { boolParam, dateParam, enumParam, intParam } from "./params";

/** Most timeframes one `/v1/aggregate/{ticker}` call may ask for (reference: at most 8). */
export const AGGREGATE_MAX_TIMEFRAMES = 8;

const TIMEFRAME_ATOMS = Object.keys(AGGREGATE_TIMEFRAMES) as AggregateTimeframe[];

/** `timeframes`: comma-separated atoms or `all`, de-duplicated in order. */
function timeframesParam() {
  return z
    .string()
    .default("1d")
    .transform((raw, ctx) => {
      const out: AggregateTimeframe[] = [];
      const parts = raw.split(",").map((p) => p.trim().toLowerCase()).filter((p) => p !== "");
      if (parts.length > AGGREGATE_MAX_TIMEFRAMES) {
        ctx.addIssue({ code: "custom", message: `at most ${AGGREGATE_MAX_TIMEFRAMES} entries (got ${parts.length}).` });
        return z.NEVER;
      }
      for (const p of parts) {
        const atoms = p === "all" ? TIMEFRAME_ATOMS : [p];
        for (const a of atoms) {
          if (!(a in AGGREGATE_TIMEFRAMES)) {
            ctx.addIssue({ code: "custom", message: `"${a.slice(0, 16)}" is not a timeframe: use ${TIMEFRAME_ATOMS.join(", ")} or all.` });
            return z.NEVER;
          }
          if (!out.includes(a as AggregateTimeframe)) out.push(a as AggregateTimeframe);
        }
      }
      if (out.length === 0) {
        ctx.addIssue({ code: "custom", message: `give at least one of ${TIMEFRAME_ATOMS.join(", ")} or all.` });
        return z.NEVER;
      }
      return out;
    })
    .meta({ description: `Comma-separated timeframes (${TIMEFRAME_ATOMS.join(", ")}) or \`all\`; at most ${AGGREGATE_MAX_TIMEFRAMES} entries.`, examples: ["1d,7d,30d"] });
}

/** Expiration buckets of `expiration_filter`, by days to expiration (inclusive bounds). */
export const EXPIRATION_BUCKETS = {
  "0dte": { minDte: 0, maxDte: 0 },
  weekly: { minDte: 1, maxDte: 7 },
  monthly: { minDte: 8, maxDte: 364 },
  leaps: { minDte: 365, maxDte: Number.POSITIVE_INFINITY },
} as const;

/** Query of `/v1/aggregate/{ticker}` (reference `getAggregate`). */
export const AggregateQuerySchema = z.object({
  timeframes: timeframesParam(),
  include_breakdown: boolParam(true, "Attach each timeframe's VWF, SDF, FIR and premium split (`components`)."),
  include_moneyness: boolParam(false, "Attach `byMoneyness` (deep ITM to deep OTM) over the first timeframe listed."),
  moneyness_filter: enumParam(["deep_itm", "itm", "atm", "otm", "deep_otm", "all"], "all", "Keep one moneyness category."),
  expiration_filter: enumParam(["0dte", "weekly", "monthly", "leaps", "all"], "all", "Keep one expiration bucket (0dte: 0 days, weekly: 1-7, monthly: 8-364, leaps: 365 or more)."),
  time_decay: boolParam(false, "Weight premium in VWF, SDF and FIR by exponential decay with age."),
  time_decay_half_life: intParam({ min: 1, max: 100_000, default: 30, description: "Half-life of the decay in minutes (only with `time_decay=true`)." }),
  date: dateParam("Trading date YYYY-MM-DD the timeframes end on; default the current trading date."),
});

/** `data` of `/v1/aggregate/{ticker}`. */
export const AggregateDataSchema = z.object({
  ticker: z.string(),
  generatedAt: z.string(),
  byTimeframe: z.record(z.string(), TimeframeAggregateSchema),
  trend: TrendAnalysisSchema,
  byMoneyness: z.array(MoneynessAggregateSchema).optional(),
});

/** Calendar length of a timeframe for pricing: intraday ones and `1d` count one day. */
export function timeframeDays(t: AggregateTimeframe): number {
  return AGGREGATE_TIMEFRAMES[t].sessions;
}

/** Credits of `/v1/aggregate/{ticker}`: 3 per started 30 days of summed window length (reference). */
export function aggregateCost(timeframes: readonly AggregateTimeframe[]): number {
  const days = timeframes.reduce((s, t) => s + timeframeDays(t), 0);
  return 3 * Math.max(1, Math.ceil(days / 30));
}
