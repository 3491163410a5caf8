// Schemas of the market-wide flow paths of the reference (flowseeker.yaml): top underlyings
// (daily, weekly), top contracts weekly, unusual volume and OI, sector flow, market breadth and
// market tide. Names and shapes follow the reference; bounds and messages are ours.
// @see docs/methodology.md#flow-market-wide-screens
import * as z from "zod";
import {
  IndustryBreakdownSchema,
  MARKET_TIDE_BUCKETS,
  MarketBreadthSchema,
  MarketTideBarSchema,
  SectorMetricsSchema,
  TopContributorSchema,
  TopUnderlyingRowSchema,
  UNUSUAL_AVG_PERIOD,
  UnusualOiRowSchema,
  UnusualVolumeRowSchema,
} from "../flow";
import { TopContractRowSchema } from "../flow/schemas";
import { TopContractsDailyQuerySchema } from "./flow";
import { sessionDateParam } from "./flow-params";
import { boolParam, dateParam, enumParam, intParam, numberParam, optionalEnumParam, optionalIntParam } from "./params";

const metaBase = { timestamp: z.string(), requestId: z.string() };

// --- top underlyings ---------------------------------------------------------------------------

const topUnderlyingShape = {
  limit: intParam({ min: 1, max: 500, default: 100, description: "Rows returned." }),
  date: sessionDateParam(),
  min_premium: numberParam({ min: 0, description: "Only tickers with at least this total premium, USD." }),
  min_volume: optionalIntParam({ min: 0, description: "Only tickers with at least this many contracts traded." }),
  order_by: enumParam(["premium", "volume", "net_premium", "call_put_ratio"], "premium", "Ranking field (net_premium by its signed value)."),
  order: enumParam(["asc", "desc"], "desc", "Ranking direction."),
};

/** Query of `/v1/underlying/top/daily` (reference `getTopUnderlyingsDaily`). */
export const TopUnderlyingsDailyQuerySchema = z.object(topUnderlyingShape);
/** Query of `/v1/underlying/top/weekly` (reference `getTopUnderlyingsWeekly`): the 5 sessions ending on `date`. */
export const TopUnderlyingsWeeklyQuerySchema = z.object({
  ...topUnderlyingShape,
  date: dateParam("Last session of the trailing 5 trading days, YYYY-MM-DD; default the current trading date."),
});
/** `data` of `/v1/underlying/top/daily`. */
export const TopUnderlyingsDailyDataSchema = z.array(TopUnderlyingRowSchema);
/** `data` of `/v1/underlying/top/weekly`. */
export const TopUnderlyingsWeeklyDataSchema = z.array(TopUnderlyingRowSchema);

// --- top contracts weekly ------------------------------------------------------------------------

/** Query of `/v1/contract/top/weekly` (reference `getTopContractsWeekly`): the daily screener's parameters. */
export const TopContractsWeeklyQuerySchema = z.object({
  ...TopContractsDailyQuerySchema.shape,
  date: dateParam("Last session of the trailing 5 trading days, YYYY-MM-DD; default the current trading date."),
});
/** `data` of `/v1/contract/top/weekly`: one row per contract over the 5 sessions. */
export const TopContractsWeeklyDataSchema = z.array(TopContractRowSchema);

// --- unusual volume and OI ----------------------------------------------------------------------

const discoveryLimit = () => intParam({ min: 1, max: 200, default: 50, description: "Rows returned." });
const targetDate = () => dateParam("Target session YYYY-MM-DD; default the last session that closed before today (baselines need a settled session).");

/** `avg_period` as `{N}d`, N sessions within `UNUSUAL_AVG_PERIOD`, output as N. */
const avgPeriodParam = () => {
  const { min, max } = UNUSUAL_AVG_PERIOD;
  return z
    .string()
    .default("10d")
    .transform((raw, ctx) => {
      const m = /^(\d{1,3})d$/i.exec(raw.trim());
      const n = m ? Number(m[1]) : NaN;
      if (!(n >= min && n <= max)) {
        ctx.addIssue({ code: "custom", message: `must be {N}d with N from ${min} to ${max} (sessions before \`date\`), for example 10d.` });
        return z.NEVER;
      }
      return n;
    })
    .meta({ description: `Baseline window {N}d: the N sessions before \`date\` (N from ${min} to ${max}).` });
};

/** A comma-separated ticker list, upper-cased, as a set (any size). */
const tickerSetParam = (description: string) =>
  z
    .string()
    .max(2000)
    .transform(
      (raw) =>
        new Set(
          raw
            .split(",")
            .map((s) => s.trim().toUpperCase())
            .filter((s) => s !== ""),
        ),
    )
    .optional()
    .meta({ description });

const fraction = (description: string) => numberParam({ min: 0, max: 1, description });

/** Query of `/v1/contract/unusual-volume` (reference `getContractUnusualVolume`). */
export const UnusualVolumeQuerySchema = z.object({
  limit: discoveryLimit(),
  min_rvol: numberParam({ min: 0 }).default(2).meta({ description: "Minimum volume / baseline average volume." }),
  avg_period: avgPeriodParam(),
  min_avg_volume: intParam({ min: 0, default: 100, description: "Minimum baseline average daily volume." }),
  min_premium: numberParam({ description: "Minimum premium on the target date, USD." }),
  ticker: z.string().min(1).max(16).optional().meta({ description: "Only this underlying's contracts." }),
  right: optionalEnumParam(["C", "P"], "Calls (C) or puts (P)."),
  min_dte: optionalIntParam({ description: "Minimum days to expiration." }),
  max_dte: optionalIntParam({ description: "Maximum days to expiration." }),
  min_strike: numberParam({ description: "Minimum strike." }),
  max_strike: numberParam({ description: "Maximum strike." }),
  expiration: dateParam("Only this expiration."),
  date: targetDate(),
  order_by: enumParam(["rvol", "volume", "premium", "vol_oi", "oi_change"], "rvol", "Ranking field, largest first."),
  min_vol_oi_ratio: numberParam({ description: "Minimum volume / open interest." }),
  min_oi_change: optionalIntParam({ description: "Minimum OI change into the session, contracts." }),
  max_oi_change: optionalIntParam({ description: "Maximum OI change into the session, contracts." }),
  only_sweeps: boolParam(false, "Only contracts with sweep volume."),
  only_multi_leg: boolParam(false, "Only contracts with multi-leg volume."),
  exclude_multi_leg: boolParam(false, "Only contracts without multi-leg volume."),
  min_oi_change_pct: numberParam({ description: "Minimum OI change, percent of the previous OI." }),
  min_bid_imbalance: fraction("Minimum share (0-1) of the volume at or below the bid."),
  min_ask_imbalance: fraction("Minimum share (0-1) of the volume at or above the ask."),
  moneyness: optionalEnumParam(["ITM", "ATM", "OTM"], "ITM below -3%, ATM within +-3%, OTM above +3% moneyness."),
  min_moneyness_pct: numberParam({ description: "Minimum moneyness, percent out of the money." }),
  max_moneyness_pct: numberParam({ description: "Maximum moneyness, percent out of the money." }),
  min_iv: numberParam({ description: "Minimum IV (decimal)." }),
  max_iv: numberParam({ description: "Maximum IV (decimal)." }),
  exclude_tickers: tickerSetParam("Comma-separated tickers to leave out (for example SPY,QQQ,IWM)."),
});
/** `data` of `/v1/contract/unusual-volume`. */
export const UnusualVolumeDataSchema = z.array(UnusualVolumeRowSchema);
/** `meta` of `/v1/contract/unusual-volume`: the target date and the baseline actually read. */
export const UnusualVolumeMetaSchema = z.object({
  ...metaBase,
  date: z.string(),
  avgPeriod: z.number().int().meta({ description: "Baseline sessions requested." }),
  baselineSessions: z.number().int().meta({ description: "Baseline sessions with data (fewer near the first session)." }),
});

/** Query of `/v1/contract/unusual-oi` (reference `getContractUnusualOi`). */
export const UnusualOiQuerySchema = z.object({
  limit: discoveryLimit(),
  min_oi_change: intParam({ min: 0, default: 500, description: "Minimum |OI change| into the session, contracts." }),
  min_oi_change_pct: numberParam({ min: 0 }).default(25).meta({ description: "Minimum |OI change|, percent of the previous OI." }),
  ticker: z.string().min(1).max(16).optional().meta({ description: "Only this underlying's contracts." }),
  right: optionalEnumParam(["C", "P"], "Calls (C) or puts (P)."),
  min_dte: optionalIntParam({ description: "Minimum days to expiration." }),
  max_dte: optionalIntParam({ description: "Maximum days to expiration." }),
  min_premium: numberParam({ description: "Minimum premium on the target date, USD." }),
  min_volume: optionalIntParam({ min: 0, description: "Minimum contracts traded on the target date." }),
  date: targetDate(),
  order_by: enumParam(["oi_change", "oi_change_pct", "volume", "premium"], "oi_change", "Ranking field, largest first (OI fields by absolute value)."),
  direction: enumParam(["opening", "closing", "both"], "both", "opening: OI rose; closing: OI fell."),
  only_sweeps: boolParam(false, "Only contracts with sweep volume."),
  only_multi_leg: boolParam(false, "Only contracts with multi-leg volume."),
  exclude_multi_leg: boolParam(false, "Only contracts without multi-leg volume."),
});
/** `data` of `/v1/contract/unusual-oi`. */
export const UnusualOiDataSchema = z.array(UnusualOiRowSchema);

// --- sector, breadth, tide ------------------------------------------------------------------------

/** `{sector}` of `/v1/flow/sector/{sector}`: a sector ETF or a sector name. */
export const SectorFlowParamsSchema = z.object({
  sector: z
    .string()
    .min(1)
    .max(40)
    .meta({ description: "Sector ETF (XLK, XLF, XLE, XLV, XLY, XLP, XLU, XLI, XLB, XLRE, XLC) or sector name (Technology, Financials, Health Care, ...)." }),
});
/** Query of `/v1/flow/sector/{sector}` (reference `getSectorFlow`). */
export const SectorFlowQuerySchema = z.object({
  date: sessionDateParam(),
  top_n: intParam({ min: 1, max: 50, default: 10, description: "Top contributing tickers returned." }),
});
/** `data` of `/v1/flow/sector/{sector}` (reference `SectorFlowResponse`). */
export const SectorFlowDataSchema = z.object({
  sector: z.string(),
  etf: z.string().nullable(),
  date: z.string(),
  metrics: SectorMetricsSchema,
  topContributors: z.array(TopContributorSchema),
  industryBreakdown: z.array(IndustryBreakdownSchema),
  tickerCount: z.number().int().min(0),
});

/** Query of `/v1/flow/market-breadth` (reference `getMarketBreadth`). */
export const MarketBreadthQuerySchema = z.object({
  date: sessionDateParam(),
  fir_threshold: numberParam({ min: 0, max: 100 }).default(10).meta({ description: "|FIR| (percent) from which a ticker advances or declines." }),
});
/** `data` of `/v1/flow/market-breadth`. */
export const MarketBreadthDataSchema = MarketBreadthSchema;

/** `interval` values of the market tide: N trading sessions ending on `date`. */
const MARKET_TIDE_INTERVALS = ["1D", "2D", "3D", "5D", "7D", "14D", "30D", "45D", "60D", "90D", "120D", "180D", "360D"] as const;

/** Query of `/v1/market/tide` (reference `getMarketTide`). */
export const MarketTideQuerySchema = z.object({
  interval: enumParam(MARKET_TIDE_INTERVALS, "1D", "Trailing sessions ending on `date`; intraday buckets allow at most 30D, `exclude_deep_itm` at most 5D."),
  bucket: enumParam(MARKET_TIDE_BUCKETS, "5min", "Bar size."),
  date: sessionDateParam(),
  exclude_multi_leg: boolParam(false, "Leave multi-leg trades out of the net premiums."),
  exclude_deep_itm: boolParam(false, "Leave deep in-the-money trades (moneyness below -20%) out of the net premiums; 3 credits per session."),
});
/** `data` of `/v1/market/tide` (reference `MarketTideResponse`). */
export const MarketTideDataSchema = z.object({ interval: z.string(), bucket: z.string(), bars: z.array(MarketTideBarSchema) });
/** `meta` of `/v1/market/tide`: the sessions the bars cover. */
export const MarketTideMetaSchema = z.object({ ...metaBase, dateStart: z.string(), dateEnd: z.string(), sessions: z.number().int() });
