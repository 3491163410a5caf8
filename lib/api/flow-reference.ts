// Schemas of the flow paths the spec leaves to the reference (flowseeker.yaml), shared by the
// server's routes and the typed client. Names and shapes follow the reference; bounds and messages
// are ours. @see docs/methodology.md#flow-window-aggregate
import { z } from "zod";
import { BaselineBucketSchema } from "../flow/bull-bear";
import { StrikeBreakdownSchema, StrikesConcentrationSchema } from "../flow/strikes";
import { boolParam, dateParam, enumParam, intParam, numberParam, optionalEnumParam, optionalIntParam, requiredDateParam } from "./params";

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

/** `{symbol}` path parameter: an OPRA contract symbol. */
export const FlowRefContractParamsSchema = z.object({
  symbol: z.string().min(1).max(40).meta({ description: "OPRA contract symbol, URL-safe ROOT__YYMMDDC######## (the padded 21-character form is accepted)." }),
});

/** Widest `/v1/contract/{symbol}/history` range, calendar days (each session is a ticker's summary). */
export const CONTRACT_HISTORY_MAX_DAYS = 31;

/** Query of `/v1/contract/{symbol}/history` (reference `getContractHistory`). */
export const ContractHistoryQuerySchema = z.object({
  start_date: requiredDateParam("First session, YYYY-MM-DD."),
  end_date: requiredDateParam(`Last session, YYYY-MM-DD (at most ${CONTRACT_HISTORY_MAX_DAYS} calendar days after \`start_date\`).`),
});

/** One session of `/v1/contract/{symbol}/history`. */
export const ContractHistoryRowSchema = z.object({
  date: z.string(),
  totalPremium: z.number(),
  totalVolume: int,
  openInterest: int,
  oiChange: int,
  oiChangePct: z.number().meta({ description: "oiChange as a percent of the previous session's open interest (0 when unknown)." }),
  bidVolume: int,
  askVolume: int,
  midVolume: int,
  bidPct: z.number().meta({ description: "Percent of volume in the bid bucket." }),
  askPct: z.number().meta({ description: "Percent of volume in the ask bucket." }),
  sweepVolume: int,
  multiLegVolume: int,
  sweepPct: z.number(),
  multiLegPct: z.number(),
  vwap: z.number(),
  lastPrice: z.number(),
  underlyingPrice: z.number(),
  iv: z.number(),
  tradeCount: int,
});

/** `data` of `/v1/contract/{symbol}/history`: the sessions the contract traded, oldest first. */
export const ContractHistoryDataSchema = z.array(ContractHistoryRowSchema);

/** Query of `/v1/underlying` (reference `listUnderlyings`). */
export const UnderlyingListQuerySchema = z.object({
  limit: intParam({ min: 1, max: 500, default: 100, description: "Rows returned (largest total premium first)." }),
  date: dateParam("Trading date YYYY-MM-DD; default the current trading date."),
  min_premium: numberParam({ min: 0, description: "Only tickers with at least this total premium, USD." }),
  min_volume: optionalIntParam({ min: 0, description: "Only tickers with at least this many contracts traded." }),
});

/** `data` of `/v1/underlying`: tickers that traded options on the date, largest premium first. */
export const UnderlyingListDataSchema = z.array(z.object({ ticker: z.string(), totalPremium: z.number(), totalVolume: int }));
