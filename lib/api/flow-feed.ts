// Schemas of the per-ticker flow paths the spec leaves to the reference (flowseeker.yaml): the
// window aggregate, strikes, baseline, the aggregate across timeframes, both trade feeds, the trade
// score and the historical compare; shared by the server's routes (server/modules/flow/feed/) and
// the typed client. Names and shapes follow the reference; bounds, messages and formulas are ours.
// @see docs/methodology.md#flow-window-aggregate, docs/methodology.md#flow-reference-paths-2
import * as z from "zod";
import { BaselineBucketSchema } from "../flow/bull-bear";
import { HistoricalCompareSchema } from "../flow/historical-compare";
import { StrikeBreakdownSchema, StrikesConcentrationSchema } from "../flow/strikes";
import { AGGREGATE_TIMEFRAMES, MoneynessAggregateSchema, TimeframeAggregateSchema, TrendAnalysisSchema, type AggregateTimeframe } from "../flow/timeframe-aggregate";
import { OptionTradeRowSchema } from "../flow/trade-rows";
import { boolParam, dateParam, enumParam, intParam, numberParam, optionalEnumParam, optionalIntParam } from "./params";

const int = z.number().int();

/** `{ticker}` path parameter of the reference flow paths. */
export const FlowRefTickerParamsSchema = z.object({
  ticker: z.string().min(1).max(16).meta({ description: "Underlying ticker or option root (SPXW, AAPL)." }),
});

/** An instant as RFC 3339 or Unix seconds, required, output as epoch ms. */
function requiredInstantOrSeconds(description: string) {
  return z
    .string({ error: "is required: an RFC 3339 instant or Unix seconds." })
    .transform((raw, ctx) => {
      if (/^\d{1,12}(\.\d+)?$/.test(raw)) return Math.floor(Number(raw) * 1000);
      if (!z.iso.datetime({ offset: true }).safeParse(raw).success) {
        ctx.addIssue({ code: "custom", message: "must be an RFC 3339 instant (2024-03-05T15:01:00Z) or Unix seconds." });
        return z.NEVER;
      }
      return Date.parse(raw);
    })
    .meta({ description });
}

/** Query of `/v1/flow/{ticker}/aggregate` (reference `getFlowAggregate`). */
export const FlowAggregateQuerySchema = z.object({
  start_time: requiredInstantOrSeconds("Start of the window, inclusive (RFC 3339 or Unix seconds); its ET date is the session unless `date` is given."),
  end_time: requiredInstantOrSeconds("End of the window, exclusive (RFC 3339 or Unix seconds); clipped to now and the close."),
  option_type: enumParam(["call", "put", "all"], "all", "Calls, puts or both."),
  min_premium: numberParam({ min: 0, description: "Leave out trades below this premium, USD." }),
  exclude_multi_leg: boolParam(false, "Leave out trades printed as part of a multi-leg package."),
  min_dte: optionalIntParam({ min: 0, description: "Minimum days to expiration." }),
  max_dte: optionalIntParam({ min: 0, description: "Maximum days to expiration." }),
  date: dateParam("Trading date YYYY-MM-DD; default the ET date of `start_time`."),
});

/** `data` of `/v1/flow/{ticker}/aggregate`. */
export const FlowAggregateDataSchema = z.object({
  ticker: z.string(),
  date: z.string(),
  startTime: z.string().meta({ description: "Start of the window actually read (clipped to the open)." }),
  endTime: z.string().meta({ description: "End of the window actually read, exclusive (clipped to now and the close)." }),
  tradeCount: int,
  sweepCount: int,
  totalPremium: z.number(),
  aggregate: z.object({ vwf: z.number(), sdf: z.number(), fir: z.number(), composite: z.number() }),
  premiumSplit: z.object({
    bullishPremium: z.number(),
    bearishPremium: z.number(),
    neutralPremium: z.number(),
    netPremium: z.number(),
    bullishCount: int,
    bearishCount: int,
    neutralCount: int,
    sweepPremium: z.number(),
  }),
  interpretation: z.object({
    bias: z.enum(["STRONG_BULLISH", "BULLISH", "NEUTRAL", "BEARISH", "STRONG_BEARISH"]),
    signalStrength: z.enum(["strong", "moderate", "weak", "neutral"]),
  }),
  queryTimeMs: int,
});

/** Query of `/v1/flow/{ticker}/strikes` (reference `getFlowStrikes`; the session is the ET date of `start_time`). */
export const FlowStrikesQuerySchema = z.object({
  start_time: requiredInstantOrSeconds("Start of the window, inclusive (RFC 3339 or Unix seconds); its ET date is the session."),
  end_time: requiredInstantOrSeconds("End of the window, exclusive (RFC 3339 or Unix seconds); clipped to now and the close."),
  top_n: intParam({ min: 1, max: 100, default: 20, description: "Number of strike rows to return." }),
  right: optionalEnumParam(["call", "put"], "Only calls or only puts."),
  min_premium: numberParam({ min: 0, description: "Leave out trades below this premium, USD." }),
  order_by: enumParam(["net_premium", "total_premium", "volume"], "net_premium", "Row order, largest first (`net_premium` by absolute value)."),
  min_dte: optionalIntParam({ min: 0, description: "Minimum days to expiration." }),
  max_dte: optionalIntParam({ min: 0, description: "Maximum days to expiration." }),
});

/** `data` of `/v1/flow/{ticker}/strikes`. */
export const FlowStrikesDataSchema = z.object({
  ticker: z.string(),
  date: z.string(),
  startTime: z.string().meta({ description: "Start of the window actually read (clipped to the open)." }),
  endTime: z.string().meta({ description: "End of the window actually read, exclusive (clipped to now and the close)." }),
  byStrike: z.array(StrikeBreakdownSchema),
  concentration: StrikesConcentrationSchema,
});

/** A regular-session time of day `HH:MM` (ET), 09:30 to 16:00, output as minutes after midnight. */
function timeOfDay(def: string, description: string) {
  return z
    .string()
    .default(def)
    .transform((raw, ctx) => {
      const m = /^(\d{2}):(\d{2})$/.exec(raw);
      const min = m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
      if (!m || Number(m[2]) > 59 || min < 570 || min > 960) {
        ctx.addIssue({ code: "custom", message: "must be a time of day HH:MM (ET) from 09:30 to 16:00." });
        return z.NEVER;
      }
      return min;
    })
    .meta({ description });
}

/** Baseline bucket sizes, in minutes. */
export const FLOW_BASELINE_BUCKET_MINUTES = { "1min": 1, "5min": 5, "15min": 15, "30min": 30, "1h": 60 } as const;

/** Query of `/v1/flow/{ticker}/baseline` (reference `getFlowBaseline`). */
export const FlowBaselineQuerySchema = z.object({
  bucket: enumParam(["1min", "5min", "15min", "30min", "1h"], "5min", "Bucket size."),
  lookback_days: intParam({ min: 1, max: 30, default: 20, description: "Sessions (trading days) before the current one to average over." }),
  start_time_of_day: timeOfDay("09:30", "First bucket's start, HH:MM ET."),
  end_time_of_day: timeOfDay("16:00", "End of the last bucket, HH:MM ET."),
  min_dte: optionalIntParam({ min: 0, description: "Minimum days to expiration." }),
  max_dte: optionalIntParam({ min: 0, description: "Maximum days to expiration." }),
});

/** `data` of `/v1/flow/{ticker}/baseline`. */
export const FlowBaselineDataSchema = z.object({
  ticker: z.string(),
  bucket: z.string(),
  lookbackDays: int,
  startTimeOfDay: z.string(),
  endTimeOfDay: z.string(),
  buckets: z.array(BaselineBucketSchema),
  queryTimeMs: int,
});

/** Most timeframes one `/v1/aggregate/{ticker}` call may ask for (reference: at most 8). */
const AGGREGATE_MAX_TIMEFRAMES = 8;

const TIMEFRAME_ATOMS = Object.keys(AGGREGATE_TIMEFRAMES) as AggregateTimeframe[];

/** `timeframes`: comma-separated atoms or `all`, de-duplicated in order. */
function timeframesParam() {
  return z
    .string()
    .default("1d")
    .transform((raw, ctx) => {
      const out: AggregateTimeframe[] = [];
      const parts = raw
        .split(",")
        .map((p) => p.trim().toLowerCase())
        .filter((p) => p !== "");
      if (parts.length > AGGREGATE_MAX_TIMEFRAMES) {
        ctx.addIssue({ code: "custom", message: `at most ${AGGREGATE_MAX_TIMEFRAMES} entries (got ${parts.length}).` });
        return z.NEVER;
      }
      for (const p of parts) {
        const atoms = p === "all" ? TIMEFRAME_ATOMS : [p];
        for (const a of atoms) {
          if (!Object.hasOwn(AGGREGATE_TIMEFRAMES, a)) {
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
    .meta({
      description: `Comma-separated timeframes (${TIMEFRAME_ATOMS.join(", ")}) or \`all\`; at most ${AGGREGATE_MAX_TIMEFRAMES} entries.`,
      examples: ["1d,7d,30d"],
    });
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
  expiration_filter: enumParam(
    ["0dte", "weekly", "monthly", "leaps", "all"],
    "all",
    "Keep one expiration bucket (0dte: 0 days, weekly: 1-7, monthly: 8-364, leaps: 365 or more).",
  ),
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
function timeframeDays(t: AggregateTimeframe): number {
  return AGGREGATE_TIMEFRAMES[t].sessions;
}

/** Credits of `/v1/aggregate/{ticker}`: 3 per started 30 days of summed window length (reference). */
export function aggregateCost(timeframes: readonly AggregateTimeframe[]): number {
  const days = timeframes.reduce((s, t) => s + timeframeDays(t), 0);
  return 3 * Math.max(1, Math.ceil(days / 30));
}

/** An optional instant as RFC 3339 or Unix seconds, output as epoch ms. */
function instantOrSeconds(description: string) {
  return z
    .string()
    .transform((raw, ctx) => {
      if (/^\d{1,12}(\.\d+)?$/.test(raw)) return Math.floor(Number(raw) * 1000);
      if (!z.iso.datetime({ offset: true }).safeParse(raw).success) {
        ctx.addIssue({ code: "custom", message: "must be an RFC 3339 instant (2024-03-05T15:01:00Z) or Unix seconds." });
        return z.NEVER;
      }
      return Date.parse(raw);
    })
    .optional()
    .meta({ description });
}

/** What both trade feeds share: the window, the page size and the print-kind filters. */
const tradesBaseShape = {
  start: instantOrSeconds(
    "Start of the window, inclusive (RFC 3339 or Unix seconds); its ET date is the session. Default the open of the current session (of `end`'s session when only `end` is given).",
  ),
  end: instantOrSeconds("End of the window, exclusive (RFC 3339 or Unix seconds); default now; clipped to the session's close."),
  limit: intParam({ min: 1, max: 500, default: 50, description: "Rows per response." }),
  only_sweeps: boolParam(false, "Only trades that are part of an intermarket sweep."),
  only_multi_leg: boolParam(false, "Only trades printed as part of a multi-leg package."),
  exclude_multi_leg: boolParam(false, "Leave out trades printed as part of a multi-leg package."),
  min_premium: numberParam({ min: 0, description: "Leave out trades below this premium, USD." }),
};

/** Query of `/v1/underlying/{ticker}/trades` (reference `getUnderlyingTrades`). */
export const UnderlyingTradesQuerySchema = z.object({
  ...tradesBaseShape,
  moneyness: optionalEnumParam(["ITM", "ATM", "OTM"], "Only trades of this moneyness (ATM within 3%)."),
  min_moneyness_pct: numberParam({ description: "Minimum signed percent out of the money (negative in the money)." }),
  max_moneyness_pct: numberParam({ description: "Maximum signed percent out of the money." }),
  min_dte: optionalIntParam({ min: 0, description: "Minimum days to expiration." }),
  max_dte: optionalIntParam({ min: 0, description: "Maximum days to expiration." }),
  min_strike: numberParam({ min: 0, description: "Minimum strike." }),
  max_strike: numberParam({ min: 0, description: "Maximum strike." }),
  expiration: dateParam("Only this expiration, YYYY-MM-DD."),
});

/** Query of `/v1/contract/{symbol}/trades` (reference `getContractTrades`). */
export const ContractTradesQuerySchema = z.object({
  ...tradesBaseShape,
  cursor: z.string().max(200).optional().meta({ description: "`meta.nextCursor` of the previous page, passed back unchanged with the same filters." }),
});

/** `data` of both trade feeds. */
export const OptionTradeListDataSchema = z.array(OptionTradeRowSchema);

/** `{trade_id}` path parameter of `/v1/score/{trade_id}`. */
export const TradeScoreParamsSchema = z.object({
  trade_id: z
    .string()
    .min(1)
    .max(64)
    .meta({
      description:
        "A trade id: the flow feed's `tradeId` (ROOT-<epoch minute>-<n>), `flow_<hex nanoseconds>_<index>`, a bare hex nanosecond time, or decimal nanoseconds.",
      examples: ["flow_17bab1c5a9a8c000_0"],
    }),
});

/** Query of `/v1/score/{trade_id}` (none). */
export const TradeScoreQuerySchema = z.object({});

/** Query of `/v1/flow/{ticker}/historical-compare` (reference `getFlowHistoricalCompare`). */
export const HistoricalCompareQuerySchema = z.object({
  date: dateParam("Trading date YYYY-MM-DD to evaluate; default the current trading date."),
});

/** `data` of `/v1/flow/{ticker}/historical-compare`. */
export const HistoricalCompareDataSchema = HistoricalCompareSchema.extend({ ticker: z.string(), date: z.string() });
