// Flow analytics: trade side, sweeps, multi-leg packages, Flow Score, RVOL, ratios, chains,
// tide, momentum, market overview, daily rollups. Every formula: docs/methodology.md#flow-methodology.

// Parameters and errors
export {
  CONTRACT_MULTIPLIER,
  SIDE_TOLERANCE,
  MONEYNESS_BANDS,
  DTE_BOUNDS,
  SWEEP_WINDOW,
  MULTI_LEG_WINDOW,
  FLOW_SCORE_WEIGHTS,
  FLOW_SCORE_PARAMS,
  MONEYNESS_CONVICTION,
  DTE_CONVICTION,
  FLOW_LABELS,
  RATIO_PARAMS,
  MOMENTUM_PARAMS,
  PREMIUM_RVOL_LOOKBACK_SESSIONS,
} from "./params";
export { FlowError } from "./errors";
export type { FlowErrorCode } from "./errors";

// Trade side, premium, moneyness, DTE
export {
  TRADE_SIDES,
  SIDE_CODE,
  SIDE_AGGRESSION,
  SIDE_BUCKET,
  FLOAT_SLACK_USD,
  sideToleranceUsd,
  sideCode,
  classifySide,
  aggressionOf,
} from "./trade-side";
export type { TradeSide } from "./trade-side";
export {
  MONEYNESS_CATEGORIES,
  DTE_CATEGORIES,
  premiumUsd,
  moneynessPct,
  moneynessCode,
  moneynessOf,
  dteDays,
  dteCode,
  dteCategoryOf,
  tradeFacts,
} from "./trade-facts";
export type { Moneyness, DteCategory, TradeFacts } from "./trade-facts";

// Sweeps and multi-leg packages
export { groupSweeps } from "./sweeps";
export type { SweepGroup, SweepGrouping, SpreadPosition } from "./sweeps";
export { detectMultiLeg, packageStrategy, PACKAGE_STRATEGIES } from "./multi-leg";
export type { MultiLegPackage, MultiLegDetection, PackageStrategy } from "./multi-leg";

// Flow Score and FlowBonus
export { FlowScoreWeightsSchema, DEFAULT_FLOW_SCORE_WEIGHTS } from "./score-weights";
export type { FlowScoreWeights, FlowScoreWeightsInput } from "./score-weights";
export { scoreFlow, premiumNorm, sizeComponent, roundHalfAway, flowScoreLabel, flowBonusLabel } from "./flow-score";
export type { ScoredTrade, FlowScoreComponents, FlowScoreContext, FlowScoreLabel, FlowBonusLabel } from "./flow-score";
export { flowColumns, scoreFlowColumns, allocateFlowScoreColumns, FLOW_FLAGS } from "./flow-columns";
export type { FlowColumns, FlowScoreColumns } from "./flow-columns";
export { openInterestBySymbol } from "./board-open-interest";

// RVOL
export { rvol, rvolPrintColumns, rvolSessions, RvolOptionsSchema, RVOL_BUCKETS } from "./rvol";
export type {
  RvolOptions,
  RvolOptionsInput,
  RvolBucket,
  RvolStats,
  RvolPrint,
  RvolSession,
  RvolPrintColumns,
  ContractRvol,
  ContractRvolBar,
  TickerRvol,
  TickerRvolBar,
} from "./rvol";
export { scoredTradesFromColumns } from "./scored-trades";

// Window scores (VWF, SDF, FIR, composite)
export { directionSign, windowScores, compositeBias, signalStrength, COMPOSITE_WEIGHTS } from "./direction";
export type { DirectionalTrade, WindowTrade, WindowScores } from "./direction";

// Contract and chain ratios
export { contractRatio, chainRatio, ratioInterpretation, timeframeWindow, RATIO_TIMEFRAMES } from "./ratios";
export type {
  RatioTimeframe,
  RatioInterpretation,
  RatioTrade,
  ContractRatios,
  ContractRatioResult,
  ChainRatios,
  ChainRatioResult,
} from "./ratios";

// Chain snapshot and max pain
export { maxPain, expirationChain } from "./max-pain";
export type { ChainStrikeRow, ExpirationChain, ChainTrade } from "./max-pain";

// Tide and momentum
export { flowTide, flowMomentum, momentumTrend, TIDE_BUCKETS } from "./tide";
export type { TideBucket, TideTrade, TideBar, MomentumWindow, MomentumBaseline, MomentumTrend, FlowMomentum } from "./tide";

// Market overview
export { marketOverview, premiumThroughTimeOfDay } from "./overview";
export type { MarketOverview, TopTickerSummary, OverviewTrade } from "./overview";

// Daily rollups and the top-contract screener
export {
  tickerDailyRollup,
  contractDailyRollups,
  rankTopContracts,
  parseTopContractFilters,
  topContractFilter,
  topContractOrder,
  TOP_CONTRACT_KEYS,
  TopContractFiltersSchema,
} from "./rollups";
export { topK, topKIndices } from "./top-k";
export { contractTable, contractTableRows, openContractTable, rankContractTable } from "./contract-table";
export type { ContractTable, OpenContractTable } from "./contract-table";
export type { TickerDailyRow, TopContractRow, RollupTrade, TopContractFilters, TopContractFiltersInput } from "./rollups";

// Record schemas (zod; the types above are their z.output)
export {
  FlowScoreComponentsSchema,
  ScoredTradeSchema,
  WindowScoresSchema,
  RvolStatsSchema,
  ContractRvolBarSchema,
  TickerRvolBarSchema,
  ContractRvolSchema,
  TickerRvolSchema,
  RatioInterpretationSchema,
  ContractRatiosSchema,
  ContractRatioResultSchema,
  ChainRatiosSchema,
  ChainRatioResultSchema,
  ChainStrikeRowSchema,
  ExpirationChainSchema,
  TideBarSchema,
  MomentumWindowSchema,
  MomentumBaselineSchema,
  MomentumTrendSchema,
  FlowMomentumSchema,
  TopTickerSummarySchema,
  MarketOverviewSchema,
  TickerDailyRowSchema,
  TopContractRowSchema,
} from "./schemas";

// Feed shapes (the reference's FlowTradeItem, SweepItem, SweepSummary)
export {
  flowTradeItem,
  sweepItem,
  sweepSummary,
  FlowTradeItemSchema,
  SweepItemSchema,
  SweepSummarySchema,
  LIQUIDITY_GRADES,
} from "./feed-items";
export type { FlowTradeItem, SweepItem, SweepSummary } from "./feed-items";

// Bull/bear pressure and the time-of-day flow baseline
export { bullBear, flowBaseline, BULL_BEAR_PARAMS, BullBearMetricsSchema, BullBearInterpretationSchema, BaselineBucketSchema } from "./bull-bear";
export type { BullBearMetrics, BullBearInterpretation, BaselineBucket } from "./bull-bear";

// Strike-level concentration
export { strikeBreakdown, StrikeBreakdownSchema, StrikesConcentrationSchema } from "./strikes";
export type { StrikeBreakdown, StrikesConcentration, StrikeTrade } from "./strikes";

// market-wide screens: top underlyings, weekly contracts, unusual volume and OI, sectors, breadth, market tide
export { topUnderlyingRow, rankTopUnderlyings, TopUnderlyingRowSchema } from "./top-underlyings";
export type { TopUnderlyingRow, TopUnderlyingFilters, TickerSessionTotals } from "./top-underlyings";
export { weeklyContractRows } from "./weekly-contracts";
export { unusualVolume, unusualOi, moneynessClass, UnusualVolumeRowSchema, UnusualOiRowSchema } from "./unusual";
export type { UnusualVolumeRow, UnusualOiRow, UnusualVolumeFilters, UnusualOiFilters } from "./unusual";
export { SECTOR_ETFS, resolveSector, directionalPremium, firOf, sectorFlow, SectorMetricsSchema, TopContributorSchema, IndustryBreakdownSchema } from "./sectors";
export type { SectorFlow, SectorMember } from "./sectors";
export { marketBreadth, sentimentOf, rotationSignal, SENTIMENTS, MarketBreadthSchema } from "./breadth";
export type { MarketBreadth, BreadthTicker } from "./breadth";
export { foldTideMinutes, marketTideBars, MARKET_TIDE_BUCKETS, MarketTideBarSchema, TIDE_KEY } from "./market-tide";
export type { TideMinuteFold, TideFoldTrade, TideSession, TideFilters, MarketTideBar, MarketTideBucket } from "./market-tide";
export { WEEKLY_SESSIONS, UNUSUAL_AVG_PERIOD, SENTIMENT_FIR, ROTATION_FIR, ADVANCE_DECLINE_RATIO_CAP, BREADTH_MAJOR_INDICES, TIDE_DEEP_ITM_PCT } from "./market-params";
// Multi-timeframe aggregate, trade rows and score detail, vol/OI, moneyness, historical compare, charts
export {
  AGGREGATE_TIMEFRAMES,
  AGGREGATE_PARAMS,
  emptySums,
  flowSums,
  mergeSums,
  sumScores,
  timeframeAggregate,
  trendAnalysis,
  moneynessAggregates,
  moneynessSums,
  moneynessAggregatesFromSums,
  ScoreComponentsSchema,
  TimeframeAggregateSchema,
  TrendAnalysisSchema,
  MoneynessAggregateSchema,
} from "./timeframe-aggregate";
export type { AggregateTimeframe, FlowSums, SumTrade, TimeframeAggregate, TrendAnalysis, MoneynessAggregate } from "./timeframe-aggregate";
export { BLOCK_MIN_CONTRACTS, epochDay, instrumentIdOf, coarseMoneyness, ivChanges, optionTradeRow, OptionTradeRowSchema } from "./trade-rows";
export type { OptionTradeRow, TradeRowExtras } from "./trade-rows";
export { HINT_MAX_KEPT, HINT_MIN_OVERLAPS, HINT_RECENT_MS, noteWindow } from "./window-hint";
export type { SentWindow } from "./window-hint";
export { parseTradeRef, referenceTradeId, RAW_NANOS_MIN_DIGITS } from "./trade-id";
export type { TradeRef } from "./trade-id";
export {
  addCalendarDays,
  aggregationOf,
  earningsFields,
  EARNINGS_LOOKAHEAD_DAYS,
  PREV_CLOSE_LOOKBACK,
  previousCloses,
  strategiesOf,
  tapeRowColumns,
} from "./trade-row-extras";
export type { TapeRowColumns, TradeAggregation, TradeStrategy } from "./trade-row-extras";
export { VOL_OI_PARAMS, VOL_OI_BANDS, volOiBand, volOiSignal, volOiAnalysis, VolOiResultSchema } from "./vol-oi";
export type { VolOiBand, VolOiSignal, VolOiResult, VolOiContract } from "./vol-oi";
export { MONEYNESS_PARAMS, moneynessBreakdown, MoneynessBreakdownSchema, MoneynessPatternSchema } from "./moneyness-breakdown";
export type { MoneynessBreakdown, MoneynessTrade } from "./moneyness-breakdown";
export { TRADE_SCORE_PARAMS, parseTradeId, tradeIntent, tradeScore, TradeScoreSchema } from "./trade-score";
export type { TradeScore } from "./trade-score";
export { HISTORICAL_COMPARE_PARAMS, dayMetrics, percentileRank, historicalCompare, DayMetricsSchema, HistoricalCompareSchema } from "./historical-compare";
export type { DayMetrics, HistoricalCompare } from "./historical-compare";
export {
  CHART_BASELINE_SESSIONS,
  CHART_BUCKETS,
  CHART_MAX_DAYS,
  barIntervals,
  underlyingBars,
  contractBars,
  withBaselines,
  UnderlyingChartBarSchema,
  ContractChartBarSchema,
} from "./chart-bars";
export type { BarBaseline, ChartBucket, ChartSession, BarInterval, ChartTrade, UnderlyingChartBar, ContractChartBar } from "./chart-bars";
