// Resolutions and tiers
export {
  RESOLUTIONS,
  TIER_MAX_TRADING_DAYS,
  INTRADAY_MULTIPLIERS,
  normalizeResolution,
  resolutionMinutes,
  resolutionTier,
  maxTradingDays,
  maxFetchTradingDays,
} from "./resolution";
export type { Resolution, BarTier } from "./resolution";

// Bars and aggregation
export type { MinuteBarColumns, PriceBars } from "./bars";
export { hasSidedVolume, allocateBars, emptyPriceBars, sliceBars as slicePriceBars, concatBars, withoutSidedVolume } from "./bars";
export { aggregateIntraday, aggregateDaily, aggregateWeekly, aggregateBars } from "./aggregate";
export type { AggregateOptions } from "./aggregate";

// History window rules
export { planHistory, selectBars, historyBody, completeBeforeMs, sessionsBefore, slotStartMs } from "./history";
export type { HistoryRequest, HistoryPlan, HistoryBody } from "./history";
export { historyFreshness, historyCacheControl, HISTORY_CACHE_CONTROL } from "./cache-control";
export type { HistoryFreshness } from "./cache-control";
export { PriceError } from "./errors";
export type { PriceErrorCode } from "./errors";

// Symbol info, configuration, search
export { udfSymbolInfo, datafeedConfig, exchangeOf, displayDescription, SIMULATED_LABEL } from "./symbol-info";
export type { UdfSymbolInfo, DatafeedConfig } from "./symbol-info";
export { searchSymbols, matchRank } from "./search";
export { fetchWithKey, installUdfKey } from "./udf-key";
export type { SearchResult, SearchOptions } from "./search";
