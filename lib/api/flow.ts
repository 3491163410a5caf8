/**
 * Request and response schemas of the flow routes (spec "Flow endpoints"; the rest from the
 * reference's flowseeker.yaml). The server's route files (server/modules/flow) and the typed client
 * (lib/client) import these same objects, so the two cannot drift; the route files add handlers,
 * costs and the checks between parameters.
 */
import * as z from "zod";
import {
  BullBearInterpretationSchema,
  BullBearMetricsSchema,
  FlowMomentumSchema,
  RVOL_BUCKETS,
  SweepItemSchema,
  SweepSummarySchema,
  TickerDailyRowSchema,
  TIDE_BUCKETS,
  TideBarSchema,
  TopContractRowSchema,
} from "../flow";
import { FlowFeedTradeSchema } from "../flow/feed-extras";
import { DAILY_SORTS } from "../flow/dark-pool-daily";
import { LEVEL_SORTS } from "../flow/dark-pool-levels";
import { DTE_FILTERS } from "../flow/strike-distribution";
import {
  clockTimeParam,
  contractFilterShape,
  convictionWeightsParam,
  instantNsParam,
  instantOrSecondsParam,
  nameSetParam,
  optionTypeParam,
  requiredInstantOrSecondsParam,
  sessionDateParam,
  timeframeParam,
  tradeTypeParam,
} from "./flow-params";
import { boolParam, dateParam, enumParam, intParam, numberParam, optionalEnumParam, optionalIntParam, requiredDateParam, symbolsParam } from "./params";

const int = z.number().int();

// --- limits the schemas state ---

/** Page size bounds of `/v1/flow/{ticker}` (spec: `limit`; reference: default 100, at most 500). */
const FLOW_FEED_LIMIT = { default: 100, max: 500 } as const;
/** Symbols per flow list parameter (spec, Limits). */
export const FLOW_LIST_MAX = 50;
/** Bounds of `q` and `limit` of `/v1/underlying/search` (spec). */
const SEARCH_LIMITS = { qMaxChars: 10, defaultLimit: 20, maxLimit: 50 } as const;
/** Spec defaults and limits of `/v1/dark-pool/trades`. */
export const DARK_POOL_TRADES = {
  defaultMinNotionalUsd: 1_000_000,
  /** Rule 1: without `tickers`, `min_notional` must be at least this. */
  marketWideMinNotionalUsd: 100_000,
  maxSpanDays: 31,
  maxTickers: 50,
} as const;
/** Longest window of `/v1/dark-pool/levels/{ticker}`, calendar days. */
export const DARK_POOL_LEVELS_MAX_SPAN_DAYS = 180;
/** Intervals of the by-strike routes: the session, the last 5 sessions, the last 7 calendar days. */
export const BY_STRIKE_INTERVALS = ["1D", "1W", "7D"] as const;

// --- path parameters ---

/** `{ticker}` of the per-ticker flow routes (resolved by the handler, so any case). */
export const FlowTickerParamsSchema = z.object({
  ticker: z.string().min(1).max(16).meta({ description: "Underlying ticker or option root (SPXW, AAPL)." }),
});

/** `{symbol}` of the spec's contract routes (ratio, RVOL). */
export const ContractSymbolParamsSchema = z.object({
  symbol: z.string().min(1).max(40).meta({ description: "OPRA contract symbol, URL-safe form ROOT__YYMMDDC######## (the padded 21-character form is accepted)." }),
});

/** `{symbol}` of the reference's contract routes (bull/bear, stats): as above, worded as the reference words it. */
export const ReferenceContractSymbolParamsSchema = z.object({
  symbol: z.string().min(1).max(40).meta({ description: "OPRA contract symbol, URL-safe ROOT__YYMMDDC######## (the padded 21-character form is accepted)." }),
});

/** `{ticker}` of the dark-pool routes: upper-cased, ticker grammar. */
export const DarkPoolTickerParamsSchema = z.object({
  ticker: z
    .string()
    .transform((v) => v.trim().toUpperCase())
    .pipe(z.string().regex(/^[A-Z0-9][A-Z0-9._-]{0,11}$/, { error: "must be a ticker such as AAPL." }))
    .meta({ description: "Underlying ticker (upper case)." }),
});

/** `{ticker}` and `{strike}` of `/v1/underlying/{ticker}/by-strike/{strike}/expirations`. */
export const StrikeExpirationsParamsSchema = z.object({
  ticker: FlowTickerParamsSchema.shape.ticker,
  strike: z
    .string()
    .regex(/^\d{1,7}(\.\d{1,4})?$/, { error: "must be a strike price such as 580 or 580.5." })
    .transform(Number)
    .meta({ description: "Strike price (580 or 580.5)." }),
});

// --- queries ---

/** Only `date` (the session): the per-contract and per-underlying stats and expirations. */
export const SessionDateQuerySchema = z.object({ date: sessionDateParam() });

/** `/v1/flow/{ticker}`. */
export const FlowFeedQuerySchema = z.object({
  timeframe: timeframeParam("1h"),
  limit: intParam({ min: 1, max: FLOW_FEED_LIMIT.max, default: FLOW_FEED_LIMIT.default, description: "Trades per page (newest first)." }),
  cursor: z.string().max(200).optional().meta({ description: "`meta.nextCursor` of the previous page, with the same filters." }),
  ...contractFilterShape,
  trade_type: tradeTypeParam(),
  start_time: instantOrSecondsParam("Start of the trade window (RFC 3339 or Unix seconds); replaces the timeframe's start."),
  end_time: instantOrSecondsParam("End of the trade window, inclusive (RFC 3339 or Unix seconds)."),
  min_contracts: optionalIntParam({ min: 0, description: "Minimum contracts per trade." }),
  max_contracts: optionalIntParam({ min: 0, description: "Maximum contracts per trade." }),
  single_leg_only: boolParam(false, "Leave out trades printed as part of a multi-leg package."),
  conviction_weights: convictionWeightsParam(),
  min_flow_score: optionalIntParam({ min: -100, max: 100, description: "Only trades with `flowScore` at least this." }),
  min_flow_bonus: optionalIntParam({ min: 0, max: 100, description: "Only trades with `flowBonus` at least this." }),
  min_size_ratio: numberParam({ min: 0, description: "Only trades whose premium is at least this multiple of the ticker's norm." }),
  min_rvol: numberParam({
    min: 0,
    description: "Only trades whose `rvol` is at least this multiple; a trade without `rvol` (no stored baseline yet) is left out.",
  }),
  include_clusters: boolParam(true, "Attach `cluster` to trades that belong to a sweep or a multi-leg package."),
  date: sessionDateParam(),
});

/** `/v1/chain-ratio/{ticker}` and `/v1/chain-bull-bear/{ticker}`: the chain over a trailing timeframe. */
export const ChainTimeframeQuerySchema = z.object({
  date: sessionDateParam(),
  timeframe: timeframeParam("1d"),
  option_type: optionTypeParam(),
  min_premium: optionalIntParam({ min: 0, description: "Leave out trades below this premium, USD." }),
  min_dte: optionalIntParam({ min: 0, description: "Minimum days to expiration." }),
  max_dte: optionalIntParam({ min: 0, description: "Maximum days to expiration." }),
});

/** `/v1/contract-ratio/{symbol}` and `/v1/contract-bull-bear/{symbol}`: one contract over a trailing timeframe. */
export const ContractTimeframeQuerySchema = z.object({
  date: sessionDateParam(),
  timeframe: timeframeParam("1d"),
  min_premium: optionalIntParam({ min: 0, description: "Leave out trades below this premium, USD." }),
});

/** `/v1/contract/top/daily`. */
export const TopContractsDailyQuerySchema = z.object({
  limit: intParam({ min: 1, max: 500, default: 100, description: "Rows returned." }),
  date: sessionDateParam(),
  ticker: z.string().min(1).max(16).optional().meta({ description: "Only this underlying's contracts." }),
  min_premium: numberParam({ description: "Minimum total premium, USD." }),
  max_premium: numberParam({ description: "Maximum total premium, USD." }),
  min_volume: optionalIntParam({ min: 0, description: "Minimum contracts traded." }),
  max_volume: optionalIntParam({ min: 0, description: "Maximum contracts traded." }),
  min_oi: optionalIntParam({ min: 0, description: "Minimum open interest." }),
  max_oi: optionalIntParam({ min: 0, description: "Maximum open interest." }),
  right: optionalEnumParam(["C", "P"], "Calls (C) or puts (P)."),
  min_dte: optionalIntParam({ description: "Minimum days to expiration." }),
  max_dte: optionalIntParam({ description: "Maximum days to expiration." }),
  min_strike: numberParam({ description: "Minimum strike." }),
  max_strike: numberParam({ description: "Maximum strike." }),
  expiration: dateParam("Only this expiration."),
  min_iv: numberParam({ description: "Minimum IV (decimal)." }),
  max_iv: numberParam({ description: "Maximum IV (decimal)." }),
  order_by: enumParam(["premium", "volume", "oi", "iv"], "premium", "Ranking field."),
  order: enumParam(["asc", "desc"], "desc", "Ranking direction."),
  only_sweeps: boolParam(false, "Only contracts with sweep volume."),
  only_multi_leg: boolParam(false, "Only contracts with multi-leg volume."),
  exclude_multi_leg: boolParam(false, "Only contracts without multi-leg volume."),
});

/** `/v1/contract/{symbol}/rvol` and `/v1/underlying/{ticker}/rvol`. */
export const RvolQuerySchema = z.object({
  interval: z.string().max(8).default("1D").meta({ description: "Trailing window {N}D, N from 1 to 365 (sessions ending at `date`)." }),
  bucket: enumParam(RVOL_BUCKETS, "5min", "Bar size."),
  avg_period: z.string().max(8).default("14d").meta({ description: "Baseline lookback {N}d: the N sessions before the window (N at most 365)." }),
  date: sessionDateParam(),
  order_by: enumParam(["rvol", "volume", "premium", "time"], "time", "Bar order."),
  order: optionalEnumParam(["asc", "desc"], "Default asc for time, else desc."),
  limit: optionalIntParam({ min: 1, description: "Bars returned." }),
  format: enumParam(["full", "summary"], "full", "`summary`: stats only."),
});

/** `/v1/underlying/search`. */
export const UnderlyingSearchQuerySchema = z.object({
  q: z
    .string({ error: "give a prefix of 1 to 10 characters." })
    .min(1, { error: "must be 1 to 10 characters." })
    .max(SEARCH_LIMITS.qMaxChars, { error: "must be 1 to 10 characters." })
    .transform((s) => s.trim().toUpperCase())
    .meta({ description: "Ticker prefix, 1 to 10 characters (case-insensitive)." }),
  limit: intParam({ min: 1, max: SEARCH_LIMITS.maxLimit, default: SEARCH_LIMITS.defaultLimit, description: "Rows returned (at most 50)." }),
  date: sessionDateParam(),
});

/** `/v1/underlying/{ticker}/chain`. */
export const UnderlyingChainQuerySchema = z.object({
  expiration: requiredDateParam("Expiration date YYYY-MM-DD."),
  min_volume: optionalIntParam({ min: 0, description: "Hide strikes whose call plus put volume is below this." }),
  date: sessionDateParam(),
});

/** `/v1/market/overview`. */
export const MarketOverviewQuerySchema = z.object({
  tickers: symbolsParam(FLOW_LIST_MAX, "Comma-separated tickers (at most 50); omit for the whole market.").optional(),
});

/** `/v1/underlying/{ticker}/history`. */
export const UnderlyingHistoryQuerySchema = z.object({
  start_date: requiredDateParam("First date, inclusive."),
  end_date: requiredDateParam("Last date, inclusive (at most 31 calendar days after `start_date`)."),
});

/** `/v1/sweeps/{ticker}`. */
export const SweepsQuerySchema = z.object({
  timeframe: timeframeParam("1h").meta({ description: "Accepted for the reference's clients; sweeps cover the whole session (so far)." }),
  ...contractFilterShape,
  limit: intParam({ min: 1, max: 500, default: 100, description: "Sweeps returned, newest first." }),
  date: sessionDateParam(),
});

/** `/v1/flow/{ticker}/tide`. */
export const FlowTideQuerySchema = z.object({
  start_time: requiredInstantOrSecondsParam("Start of the series (RFC 3339 or Unix seconds); its ET date is the session unless `date` is given."),
  end_time: requiredInstantOrSecondsParam("End of the series, exclusive (RFC 3339 or Unix seconds); clipped to now and the close."),
  bucket: enumParam(TIDE_BUCKETS, "5min", "Bar size."),
  option_type: optionTypeParam(),
  min_premium: numberParam({ min: 0, description: "Leave out trades below this premium, USD." }),
  exclude_multi_leg: boolParam(false, "Leave out multi-leg package legs."),
  min_dte: optionalIntParam({ min: 0, description: "Minimum days to expiration." }),
  max_dte: optionalIntParam({ min: 0, description: "Maximum days to expiration." }),
  date: sessionDateParam(),
});

/** `/v1/flow/{ticker}/momentum`. */
export const FlowMomentumQuerySchema = z.object({
  as_of: instantOrSecondsParam("Replay instant (RFC 3339 or Unix seconds); default now."),
  lookback_days: intParam({ min: 1, max: 30, default: 20, description: "Baseline sessions (trading days)." }),
  min_dte: optionalIntParam({ min: 0, description: "Minimum days to expiration." }),
  max_dte: optionalIntParam({ min: 0, description: "Maximum days to expiration." }),
});

/** `/v1/underlying/{ticker}/by-strike` and its `/{strike}/expirations`. */
export const ByStrikeQuerySchema = z.object({
  interval: enumParam(BY_STRIKE_INTERVALS, "1D", "`1D` the session; `1W` the last 5 sessions; `7D` the sessions of the last 7 calendar days."),
  dte_filter: enumParam(DTE_FILTERS, "all", "Days-to-expiration bucket (at the trade)."),
  date: sessionDateParam(),
});

/** `/v1/underlying/bulk/stats`. */
export const UnderlyingBulkStatsQuerySchema = z.object({ tickers: symbolsParam(50, "Comma-separated tickers (at most 50)."), date: sessionDateParam() });

/** `/v1/contract/bulk/stats`. */
export const ContractBulkStatsQuerySchema = z.object({
  symbols: z
    .string()
    .transform((raw, ctx) => {
      const list = [
        ...new Set(
          raw
            .split(",")
            .map((s) => s.trim().toUpperCase())
            .filter((s) => s !== ""),
        ),
      ];
      if (list.length === 0 || list.length > 50) {
        ctx.addIssue({ code: "custom", message: `give 1 to 50 contract symbols (got ${list.length}).` });
        return z.NEVER;
      }
      return list;
    })
    .meta({ description: "Comma-separated OPRA contract symbols (at most 50).", examples: ["SPY__240315C00510000,SPY__240315P00510000"] }),
  date: sessionDateParam(),
});

/** `/v1/dark-pool/trades` (spec rules 1-4 are the route's checks). */
export const DarkPoolTradesQuerySchema = z.object({
  tickers: symbolsParam(DARK_POOL_TRADES.maxTickers, "Comma-separated tickers (at most 50); omit for every name.").optional(),
  date: dateParam("Single ET trade date; default today (ET)."),
  date_start: dateParam("Inclusive start of an ET trade-date range (span at most 31 days)."),
  date_end: dateParam("Inclusive end of an ET trade-date range; default today when only `date_start` is given."),
  time_start: clockTimeParam("Inclusive start of the ET time-of-day window, HH:MM."),
  time_end: clockTimeParam("Inclusive end of the ET time-of-day window, HH:MM (the whole minute counts)."),
  min_notional: numberParam({
    min: 0,
    description: "Minimum notional, USD; default 1000000; 0 returns every print of the requested tickers; at least 100000 without `tickers`.",
  }),
  max_notional: numberParam({ min: 0, description: "Maximum notional, USD." }),
  min_price: numberParam({ min: 0, description: "Minimum price, USD per share." }),
  max_price: numberParam({ min: 0, description: "Maximum price, USD per share." }),
  min_size: optionalIntParam({ min: 0, description: "Minimum size, shares." }),
  max_size: optionalIntParam({ min: 0, description: "Maximum size, shares." }),
  min_avg_vol: numberParam({ min: 0, description: "Minimum `pctAvgVol` (percent of average daily volume); prints with unknown ADV are excluded." }),
  max_avg_vol: numberParam({ min: 0, description: "Maximum `pctAvgVol`; prints with unknown ADV are excluded." }),
  sectors: nameSetParam("Comma-separated GICS sectors (case-insensitive)."),
  industries: nameSetParam("Comma-separated GICS industries (case-insensitive)."),
  venue: optionalEnumParam(["FINN", "FINC"], "Reporting venue; omit for both."),
  limit: intParam({ min: 1, max: 5000, default: 500, description: "Page size." }),
  offset: optionalIntParam({ min: 0, max: 50_000, description: "Rows to skip (default 0); not with `cursor`." }),
  order: enumParam(["asc", "desc"], "desc", "Direction of `sort`."),
  sort: enumParam(["time", "notional", "size"], "time", "`time` pages by cursor; `notional` and `size` by offset."),
  cursor: z.string().max(400).optional().meta({ description: "`meta.nextCursor` of the previous page (time sort only), with the same filters." }),
  after: instantNsParam("Only prints strictly after this instant (ISO-8601 or epoch nanoseconds)."),
  before: instantNsParam("Only prints strictly before this instant (ISO-8601 or epoch nanoseconds)."),
});

/** `/v1/dark-pool/top-prints/{ticker}`. */
export const DarkPoolTopPrintsQuerySchema = z.object({
  top_n: intParam({ min: 1, max: 20, default: 5, description: "Number of prints." }),
  lookback_days: intParam({ min: 1, max: 180, default: 45, description: "Calendar days before `as_of_date`." }),
  as_of_date: dateParam("Anchor date: the window is [as_of_date - lookback_days, as_of_date]; default today (ET)."),
});

/** `/v1/dark-pool/levels/{ticker}`. */
export const DarkPoolLevelsQuerySchema = z.object({
  date_start: dateParam("Inclusive start date; replaces `lookback_days` (span at most 180 days)."),
  date_end: dateParam("Inclusive end date; default today (ET)."),
  lookback_days: intParam({ min: 1, max: DARK_POOL_LEVELS_MAX_SPAN_DAYS, default: 30, description: "Calendar days back from `date_end`." }),
  bucket: numberParam({ min: 0.01, description: "Bucket width, USD; omit for the power of ten nearest 0.1% of the window's VWAP." }),
  sort: enumParam(LEVEL_SORTS, "notional", "Ranking of the levels, largest first."),
  limit: intParam({ min: 1, max: 500, default: 50, description: "Levels returned." }),
});

/** `/v1/dark-pool/daily` (range span at most 366 days: the route's check). */
export const DarkPoolDailyQuerySchema = z.object({
  date: dateParam("Single ET trade date; default today (ET)."),
  date_start: dateParam("Inclusive start of a range (span at most 366 days)."),
  date_end: dateParam("Inclusive end of a range; default today when only `date_start` is given."),
  tickers: symbolsParam(50, "Comma-separated tickers (at most 50); omit to rank every name.").optional(),
  sectors: nameSetParam("Comma-separated GICS sectors (case-insensitive)."),
  industries: nameSetParam("Comma-separated GICS industries (case-insensitive)."),
  min_notional: numberParam({ min: 0, description: "Minimum total notional per row, USD (default 0)." }),
  group_by: enumParam(["day", "ticker"], "day", "`day`: a row per ticker per day; `ticker`: a row per ticker over the range."),
  sort: enumParam(DAILY_SORTS, "notional", "Sort key; `date` needs group_by=day."),
  order: enumParam(["asc", "desc"], "desc", "Direction of `sort`."),
  limit: intParam({ min: 1, max: 5000, default: 500, description: "Page size." }),
  offset: intParam({ min: 0, max: 100_000, default: 0, description: "Rows to skip." }),
});

// --- responses: data ---

/** `/v1/flow/{ticker}`: one page of scored trades and the window's aggregates. */
export const FlowFeedDataSchema = z.object({
  ticker: z.string(),
  date: z.string(),
  timeframe: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  trades: z.array(FlowFeedTradeSchema),
  aggregate: z.object({ vwf: z.number(), sdf: z.number(), fir: z.number() }),
  tradeCount: z.number().int().meta({ description: "Trades in the window that pass the filters (every page)." }),
  sweepCount: z.number().int(),
  totalPremium: z.number(),
  queryTimeMs: z.number().int(),
});

/** `/v1/chain-bull-bear/{ticker}`. */
export const ChainBullBearSchema = z.object({
  ticker: z.string(),
  date: z.string(),
  timeframe: z.string(),
  tradeCount: z.number().int(),
  totalVolume: z.number().int(),
  totalPremium: z.number(),
  metrics: BullBearMetricsSchema,
  interpretation: BullBearInterpretationSchema,
});

/** `/v1/contract-bull-bear/{symbol}`. */
export const ContractBullBearSchema = z.object({
  symbol: z.string(),
  ticker: z.string(),
  optionType: z.enum(["CALL", "PUT", "UNKNOWN"]),
  date: z.string(),
  timeframe: z.string(),
  tradeCount: z.number().int(),
  totalVolume: z.number().int(),
  totalPremium: z.number(),
  metrics: BullBearMetricsSchema.pick({ bullPct: true, bearPct: true, neutralPct: true, bullBearRatio: true }),
  interpretation: BullBearInterpretationSchema,
});

/** `/v1/contract/top/daily`. */
export const TopContractsDailyDataSchema = z.array(TopContractRowSchema);

/** `/v1/underlying/search`: one row per matching ticker. */
const UnderlyingSearchRowSchema = z.object({ ticker: z.string(), totalPremium: z.number(), totalVolume: z.number() });
export const UnderlyingSearchDataSchema = z.array(UnderlyingSearchRowSchema);

/** `/v1/underlying/{ticker}/history`. */
export const UnderlyingHistoryDataSchema = z.array(TickerDailyRowSchema);

/** `/v1/sweeps/{ticker}`. */
export const SweepsDataSchema = z.object({ ticker: z.string(), date: z.string(), sweeps: z.array(SweepItemSchema), summary: SweepSummarySchema });

/** `/v1/flow/{ticker}/tide`. */
export const FlowTideDataSchema = z.object({
  ticker: z.string(),
  date: z.string(),
  bucket: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  bars: z.array(TideBarSchema),
  queryTimeMs: z.number().int().meta({ description: "The handler's wall time, whole milliseconds." }),
});

/** `/v1/flow/{ticker}/momentum`. */
export const FlowMomentumDataSchema = FlowMomentumSchema.extend({
  ticker: z.string(),
  queryTimeMs: z.number().int().meta({ description: "The handler's wall time, whole milliseconds." }),
});

/** `/v1/underlying/{ticker}/by-strike`. */
export const UnderlyingByStrikeDataSchema = z.object({
  ticker: z.string(),
  interval: z.enum(BY_STRIKE_INTERVALS),
  dteFilter: z.enum(DTE_FILTERS),
  underlyingPrice: z.number().nullable(),
  totalCallPremium: z.number(),
  totalPutPremium: z.number(),
  totalCallVolume: int,
  totalPutVolume: int,
  pcRatio: z.number().meta({ description: "Put volume / call volume (0 without call volume)." }),
  topStrike: z.number().nullable(),
  strikeCount: int,
  maxPain: z.number().nullable(),
  bars: z.array(z.object({ strike: z.number(), callVolume: int, putVolume: int, callPremium: z.number(), putPremium: z.number(), callOi: int, putOi: int })),
});

/** `/v1/underlying/{ticker}/by-strike/{strike}/expirations`. */
export const StrikeExpirationsDataSchema = z.object({
  ticker: z.string(),
  strike: z.number(),
  interval: z.enum(BY_STRIKE_INTERVALS),
  totalCallPremium: z.number(),
  totalPutPremium: z.number(),
  topExpiration: z.string().nullable(),
  expirationCount: int,
  bars: z.array(z.object({ expiration: z.string(), dte: int, callVolume: int, putVolume: int, callPremium: z.number(), putPremium: z.number() })),
});

/** `/v1/contract/{symbol}/stats`: the top-contract record of one session. */
export const ContractStatsSchema = TopContractRowSchema.extend({ date: z.string() });
/** `/v1/contract/bulk/stats`. */
export const ContractBulkStatsDataSchema = z.array(ContractStatsSchema);

/** `/v1/underlying/{ticker}/stats` (and each row of the bulk route). */
export const UnderlyingStatsSchema = z.object({
  ticker: z.string(),
  date: z.string(),
  lastPrice: z.number().nullable().meta({ description: "Underlying price at the session's close (or now, during it); null when unknown." }),
  totalPremium: z.number(),
  totalVolume: int,
  callPremium: z.number(),
  putPremium: z.number(),
  callVolume: int,
  putVolume: int,
  netPremium: z.number(),
  callPutRatio: z.number(),
  tradeCount: int,
  uniqueStrikes: int,
  uniqueExpirations: int,
});
/** `/v1/underlying/bulk/stats`. */
export const UnderlyingBulkStatsDataSchema = z.array(UnderlyingStatsSchema);

/** `/v1/underlying/{ticker}/expirations`. */
export const UnderlyingExpirationsDataSchema = z.array(
  z.object({
    expiration: z.string(),
    dte: int,
    callVolume: int,
    putVolume: int,
    callPremium: z.number(),
    putPremium: z.number(),
    contractCount: int,
  }),
);

/** One off-exchange print as `/v1/dark-pool/trades` serves it. */
const DarkPoolPrintSchema = z.object({
  timestamp: z.string().meta({ description: "Trade time, ISO-8601 UTC (milliseconds)." }),
  ticker: z.string(),
  price: z.number(),
  size: z.number().int(),
  notional: z.number().meta({ description: "price x size, USD." }),
  venue: z.enum(["FINN", "FINC"]),
  sector: z.string(),
  industry: z.string(),
  pctAvgVol: z.number().nullable().meta({ description: "Size as a percent of the average daily volume; null when unknown." }),
});
export const DarkPoolTradesDataSchema = z.array(DarkPoolPrintSchema);

/** One of the largest prints (`/v1/dark-pool/top-prints/{ticker}`, also `flow_context`). */
const DarkPoolTopPrintSchema = z.object({
  timestamp: z.string().meta({ description: "Trade time, ISO-8601 UTC." }),
  price: z.number(),
  notional: z.number().meta({ description: "price x size, USD." }),
  size: z.number().int(),
});
export const DarkPoolTopPrintsDataSchema = z.array(DarkPoolTopPrintSchema);

/** One price bucket of `/v1/dark-pool/levels/{ticker}`. */
const DarkPoolLevelSchema = z.object({
  price: z.number().meta({ description: "Lower edge of the bucket, USD." }),
  prints: z.number().int(),
  shares: z.number().int(),
  notional: z.number(),
  pctOfNotional: z.number().meta({ description: "Percent of the window's dark-pool notional." }),
  blockPrints: z.number().int().meta({ description: "Prints of at least USD 1,000,000." }),
  blockNotional: z.number(),
});
export const DarkPoolLevelsDataSchema = z.array(DarkPoolLevelSchema);

/** One row of `/v1/dark-pool/daily`. */
const DarkPoolDailyRowSchema = z.object({
  date: z.string().nullable().meta({ description: "Trade date; null with group_by=ticker." }),
  ticker: z.string(),
  sector: z.string(),
  industry: z.string(),
  prints: z.number().int(),
  shares: z.number().int(),
  notional: z.number(),
  vwap: z.number().meta({ description: "notional / shares, USD." }),
  blockPrints: z.number().int().meta({ description: "Prints of at least USD 1,000,000." }),
  blockNotional: z.number(),
  largestPrint: z.number().meta({ description: "Largest single print, USD." }),
  days: z.number().int(),
  pctAvgVol: z.number().nullable().meta({ description: "Average daily dark-pool shares as a percent of ADV; null when unknown." }),
});
export const DarkPoolDailyDataSchema = z.array(DarkPoolDailyRowSchema);

// --- responses: meta ---

/** `/v1/dark-pool/trades`: paging by offset or cursor. */
export const DarkPoolTradesMetaSchema = z.object({
  timestamp: z.string(),
  requestId: z.string(),
  limit: z.number().int(),
  offset: z.number().int(),
  count: z.number().int(),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
});

/** `/v1/dark-pool/top-prints/{ticker}`. */
export const DarkPoolTopPrintsMetaSchema = z.object({ timestamp: z.string(), requestId: z.string() });

/** `/v1/dark-pool/levels/{ticker}`: the window and its totals. */
export const DarkPoolLevelsMetaSchema = z.object({
  timestamp: z.string(),
  requestId: z.string(),
  ticker: z.string(),
  dateStart: z.string(),
  dateEnd: z.string(),
  bucket: z.number(),
  totalShares: z.number().int(),
  totalNotional: z.number(),
});

/** `/v1/dark-pool/daily`: the range, grouping and paging. */
export const DarkPoolDailyMetaSchema = z.object({
  timestamp: z.string(),
  requestId: z.string(),
  dateStart: z.string(),
  dateEnd: z.string(),
  groupBy: z.enum(["day", "ticker"]),
  limit: z.number().int(),
  offset: z.number().int(),
  count: z.number().int(),
  hasMore: z.boolean(),
});
