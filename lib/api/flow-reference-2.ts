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
import { OptionTradeRowSchema } from "../flow/trade-rows";
import { VolOiResultSchema } from "../flow/vol-oi";
import { MoneynessBreakdownSchema } from "../flow/moneyness-breakdown";
import { HistoricalCompareSchema } from "../flow/historical-compare";
import { CHART_BUCKETS, CHART_MAX_DAYS, ContractChartBarSchema, UnderlyingChartBarSchema } from "../flow/chart-bars";
import { boolParam, dateParam, enumParam, intParam, numberParam, optionalEnumParam, optionalIntParam } from "./params";

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
  start: instantOrSeconds("Start of the window, inclusive (RFC 3339 or Unix seconds); its ET date is the session. Default the open of the current session (of `end`'s session when only `end` is given)."),
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

/** Sessions in the `weekly` vol/OI timeframe. */
export const VOL_OI_WEEK_SESSIONS = 5;

/** Query of `/v1/vol-oi/{ticker}` (reference `getVolOi`). */
export const VolOiQuerySchema = z.object({
  timeframe: enumParam(["daily", "weekly"], "daily", `\`daily\`: the session's volume against its opening open interest; \`weekly\`: the last ${VOL_OI_WEEK_SESSIONS} sessions' volume against the open interest at the first one's open.`),
  option_type: enumParam(["call", "put", "all"], "all", "Calls, puts or both (the other type's block is then empty)."),
  moneyness: enumParam(["otm_10plus", "otm_5_10", "otm_3_5", "atm_itm", "all"], "all", "Keep one moneyness band (percent out of the money at the window's end)."),
  min_oi: optionalIntParam({ min: 0, description: "Leave out contracts with less open interest." }),
  date: dateParam("Trading date YYYY-MM-DD (the last session of the timeframe); default the current trading date."),
});

/** `data` of `/v1/vol-oi/{ticker}`. */
export const VolOiDataSchema = VolOiResultSchema.extend({
  ticker: z.string(),
  timestamp: z.string().meta({ description: "End of the period read (now, or the close of a finished session)." }),
  timeframe: z.enum(["daily", "weekly"]),
});

/** Sessions of each moneyness timeframe (`intraday` is the last hour of the session so far). */
export const MONEYNESS_TIMEFRAME_SESSIONS = { intraday: 1, daily: 1, "7d": 7, "30d": 30 } as const;

/** Query of `/v1/moneyness/{ticker}` (reference `getMoneyness`). */
export const MoneynessQuerySchema = z.object({
  timeframe: enumParam(["intraday", "daily", "7d", "30d"], "daily", "`intraday`: the last hour of the session so far; `daily`: the session; `7d`, `30d`: that many sessions ending on `date`."),
  date: dateParam("Trading date YYYY-MM-DD; default the current trading date."),
  min_premium: numberParam({ min: 0, description: "Leave out trades below this premium, USD." }),
});

/** `data` of `/v1/moneyness/{ticker}`. */
export const MoneynessDataSchema = MoneynessBreakdownSchema.extend({ ticker: z.string(), timeframe: z.string() });

/** `{trade_id}` path parameter of `/v1/score/{trade_id}`. */
export const TradeScoreParamsSchema = z.object({
  trade_id: z.string().min(1).max(64).meta({
    description: "A trade id: the flow feed's `tradeId` (ROOT-<epoch minute>-<n>), `flow_<hex nanoseconds>_<index>`, a bare hex nanosecond time, or decimal nanoseconds.",
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

/** `interval`: `{N}D`, N trading days from 1 to 365, output as N. */
function chartIntervalParam() {
  return z
    .string({ error: "is required: {N}D with N from 1 to 365, such as 1D or 7D." })
    .transform((raw, ctx) => {
      const m = /^(\d{1,3})D$/i.exec(raw.trim());
      const n = m ? Number(m[1]) : NaN;
      if (!(n >= 1 && n <= CHART_MAX_DAYS.daily)) {
        ctx.addIssue({ code: "custom", message: `must be {N}D with N from 1 to ${CHART_MAX_DAYS.daily} (trading days), such as 1D or 7D.` });
        return z.NEVER;
      }
      return n;
    })
    .meta({ description: `Trailing window of N trading days ending with the current session, \`{N}D\`: at most ${CHART_MAX_DAYS.intraday}D with an intraday bucket, ${CHART_MAX_DAYS.daily}D with 1d or 1w.`, examples: ["1D", "7D"] });
}

const CHART_BUCKET_NAMES = Object.keys(CHART_BUCKETS) as [keyof typeof CHART_BUCKETS, ...(keyof typeof CHART_BUCKETS)[]];

/** Query of both chart endpoints (reference `getUnderlyingChart`, `getContractChart`). */
export const ChartQuerySchema = z.object({
  interval: chartIntervalParam(),
  bucket: z.enum(CHART_BUCKET_NAMES, { error: `is required: one of ${CHART_BUCKET_NAMES.join(", ")}.` }).meta({ description: "Bar size; every bar of the window is returned, zero-filled." }),
});

/** Credits of a chart: 3 per started 30 trading days of `interval` (reference). */
export function chartCost(days: number): number {
  return 3 * Math.max(1, Math.ceil(days / 30));
}

/** `data` of `/v1/underlying/{ticker}/chart`. */
export const UnderlyingChartDataSchema = z.array(UnderlyingChartBarSchema);
/** `data` of `/v1/contract/{symbol}/chart`. */
export const ContractChartDataSchema = z.array(ContractChartBarSchema);
