/**
 * zod schemas of the flow module's records; every record type is `z.output` of its schema, and the
 * server can use them as the `data` schemas of its routes. Field names follow the spec's
 * "Flow-module records" (and the reference's, where the spec shows none).
 * @see docs/methodology.md#flow-methodology
 */
import * as z from "zod";
import { DTE_CATEGORIES, MONEYNESS_CATEGORIES } from "./trade-facts";
import { TRADE_SIDES } from "./trade-side";

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const num = z.number();
const nullableNum = z.number().nullable();
const int = z.number().int();
const right = z.enum(["C", "P"]);

// --- scored trades ---

/** The six conviction components, each 0..1. */
export const FlowScoreComponentsSchema = z.object({
  size: num,
  sweep: num,
  moneyness: num,
  dte: num,
  volOi: num,
  repeat: num,
});

/** One scored print (see `scoreFlow`). */
export const ScoredTradeSchema = z.object({
  id: z.string(),
  tsMs: num,
  tsNs: z.string(),
  symbol: z.string(),
  /** Option root (`SPXW`): the ticker the flow module serves. */
  root: z.string(),
  underlying: z.string(),
  expiry: isoDate,
  strike: num,
  right,
  priceUsd: num,
  size: int,
  exchange: z.string(),
  bidUsd: num,
  askUsd: num,
  side: z.enum(TRADE_SIDES),
  /** -1..+1 (0 on crosses). */
  aggression: num,
  premiumUsd: num,
  underlyingPrice: num,
  /** Implied vol at the print (decimal), null when unknown. */
  iv: nullableNum,
  moneynessPct: num,
  moneyness: z.enum(MONEYNESS_CATEGORIES),
  dte: int,
  dteCategory: z.enum(DTE_CATEGORIES),
  isSweep: z.boolean(),
  /** Index of the trade's sweep in the batch's `groupSweeps` result, or -1. */
  sweepGroup: int,
  isMultiLeg: z.boolean(),
  isCross: z.boolean(),
  /** Open interest of the contract at the session's start, or null when unknown. */
  openInterest: nullableNum,
  /** The contract's volume in the batch through this print (inclusive), contracts. */
  dailyVolume: num,
  /** `dailyVolume / openInterest`, null when OI is unknown or zero. */
  volOiRatio: nullableNum,
  /** `premiumUsd / normPremiumUsd`. */
  sizeRatio: num,
  /** Earlier same-side orders on the contract in the trailing window, counted up to the saturation (5). */
  repeatCount: int,
  components: FlowScoreComponentsSchema,
  /** `100 * aggression * (call +1, put -1) * (0.5 on multi-leg legs)`. */
  baseDirection: num,
  /** `sum(weight * component)`, 0..1. */
  conviction: num,
  /** `floor + (1 - floor) * conviction`. */
  convictionMultiplier: num,
  flowScore: int.min(-100).max(100),
  flowScoreInterpretation: z.enum(["strong_bullish", "bullish", "neutral", "bearish", "strong_bearish"]),
  flowBonus: int.min(0).max(100),
  flowBonusInterpretation: z.enum(["high_conviction", "moderate_conviction", "low_conviction"]),
});

// --- window scores ---

/** Window-level scores and the premium split (see `windowScores`). */
export const WindowScoresSchema = z.object({
  tradeCount: int,
  sweepCount: int,
  totalPremium: num,
  totalVolume: num,
  bullishPremium: num,
  bearishPremium: num,
  neutralPremium: num,
  netPremium: num,
  bullishCount: int,
  bearishCount: int,
  neutralCount: int,
  bullishVolume: num,
  bearishVolume: num,
  sweepPremium: num,
  vwf: num,
  sdf: num,
  fir: num,
  composite: num,
});

// --- RVOL ---

/** Aggregate RVOL statistics (the spec's `stats`). */
export const RvolStatsSchema = z.object({
  todayVolume: num,
  todayPremium: num,
  avgVolume: num,
  avgPremium: num,
  rvolVolume: num,
  rvolPremium: num,
  avgDaysCount: int,
});

/** One bar of the contract RVOL response. */
export const ContractRvolBarSchema = z.object({
  timestamp: z.string(),
  timestampEnd: z.string(),
  volume: num,
  premium: num,
  avgVolume: nullableNum,
  avgPremium: nullableNum,
  avgDaysCount: int.nullable(),
});

/** One bar of the ticker RVOL response. */
export const TickerRvolBarSchema = ContractRvolBarSchema.extend({
  callVolume: num,
  putVolume: num,
  stockPrice: num,
  avgCallVolume: nullableNum,
  avgPutVolume: nullableNum,
});

/** Contract RVOL response (`bars` only with `format: "full"`). */
export const ContractRvolSchema = z.object({ bars: z.array(ContractRvolBarSchema).optional(), stats: RvolStatsSchema });

/** Ticker RVOL response (`bars` only with `format: "full"`). */
export const TickerRvolSchema = z.object({
  bars: z.array(TickerRvolBarSchema).optional(),
  stats: RvolStatsSchema,
  callRvol: num,
  putRvol: num,
});

// --- ratios ---

/** The spec's interpretation object. */
export const RatioInterpretationSchema = z.object({
  bias: z.enum(["BULLISH", "BEARISH", "NEUTRAL", "MIXED"]),
  aggression: z.enum(["HIGH", "MEDIUM", "LOW"]),
  confidence: z.enum(["HIGH", "MEDIUM", "LOW"]),
  description: z.string(),
});

const timeframe = z.enum(["5m", "15m", "1h", "4h", "1d"]);

/** Bid/ask/mid shares of trade counts; `aggressionRatio = (ask + bid) / mid`, capped at 999. */
export const ContractRatiosSchema = z.object({ askRatio: num, bidRatio: num, midRatio: num, aggressionRatio: num });

/** The contract-ratio record (`data` of `/v1/contract-ratio/{symbol}`). */
export const ContractRatioResultSchema = z.object({
  symbol: z.string(),
  ticker: z.string(),
  optionType: z.enum(["CALL", "PUT", "UNKNOWN"]),
  date: isoDate,
  timeframe,
  tradeCount: int,
  totalVolume: num,
  totalPremium: num,
  contractRatios: ContractRatiosSchema,
  interpretation: RatioInterpretationSchema,
});

/** Chain-level ratios. */
export const ChainRatiosSchema = ContractRatiosSchema.extend({
  /** Call premium / put premium (999 when puts are 0); null when `optionType` leaves one side out. */
  callPutRatio: nullableNum,
  atmConcentration: num,
  otmCallConcentration: num,
  otmPutConcentration: num,
});

/** The chain-ratio record (`data` of `/v1/chain-ratio/{ticker}`). */
export const ChainRatioResultSchema = z.object({
  ticker: z.string(),
  date: isoDate,
  timeframe,
  tradeCount: int,
  totalPremium: num,
  chainRatios: ChainRatiosSchema,
  interpretation: RatioInterpretationSchema,
});

// --- chain snapshot ---

/** One strike of the chain snapshot. */
export const ChainStrikeRowSchema = z.object({
  strike: num,
  callVolume: num,
  callPremium: num,
  callOi: num,
  callIv: nullableNum,
  callLastPrice: num,
  putVolume: num,
  putPremium: num,
  putOi: num,
  putIv: nullableNum,
  putLastPrice: num,
});

/** The chain snapshot record (`data` of `/v1/underlying/{ticker}/chain`). */
export const ExpirationChainSchema = z.object({
  ticker: z.string(),
  expiration: isoDate,
  underlyingPrice: num,
  strikes: z.array(ChainStrikeRowSchema),
  maxPain: nullableNum,
  callOiTotal: num,
  putOiTotal: num,
});

// --- tide and momentum ---

/** One tide bar (timestamps in Unix seconds). */
export const TideBarSchema = z.object({
  timestamp: int,
  timestampEnd: int,
  callPremium: num,
  putPremium: num,
  /** `callPremium - putPremium` of the bar. */
  netCallPutPremium: num,
  /** Running sum of `netCallPutPremium` from the first bar: the tide. */
  netCallPutPremiumCumulative: num,
  /** Net call premium: calls bought (ask side) minus calls sold (bid side). */
  ncp: num,
  /** Net put premium: puts bought minus puts sold. */
  npp: num,
  bullishPremium: num,
  bearishPremium: num,
  neutralPremium: num,
  netPremium: num,
  netPremiumCumulative: num,
  bullishVolume: num,
  bearishVolume: num,
  vwf: num,
  sdf: num,
  fir: num,
  tradeCount: int,
  sweepCount: int,
});

/** Metrics of one momentum window. */
export const MomentumWindowSchema = z.object({
  tradeCount: int,
  premium: num,
  bullishPremium: num,
  bearishPremium: num,
  netPremium: num,
  fir: num,
});

/** The momentum baseline. */
export const MomentumBaselineSchema = z.object({
  timeOfDay: z.string(),
  lookbackDays: int,
  daysInBaseline: int,
  avg5mPremium: num,
  stddev5mPremium: num,
  avg5mFir: num,
  stddev5mFir: num,
});

/** Momentum trend labels. */
export const MomentumTrendSchema = z.enum(["ACCELERATING_BULLISH", "ACCELERATING_BEARISH", "BULLISH", "BEARISH", "NEUTRAL"]);

/** The momentum record. */
export const FlowMomentumSchema = z.object({
  asOf: z.string(),
  current5m: MomentumWindowSchema,
  current30m: MomentumWindowSchema,
  current1h: MomentumWindowSchema,
  baseline: MomentumBaselineSchema.nullable(),
  signals: z.object({ firZscore5m: num, premiumZscore5m: num, trend: MomentumTrendSchema, interpretation: z.string() }),
});

// --- overview and rollups ---

/** One of the overview's top tickers. */
export const TopTickerSummarySchema = z.object({
  ticker: z.string(),
  totalPremium: num,
  totalVolume: num,
  callPremium: num,
  putPremium: num,
  netPremium: num,
});

/** The market overview record (`data` of `/v1/market/overview`). */
export const MarketOverviewSchema = z.object({
  date: isoDate,
  totalPremium: num,
  totalVolume: num,
  callPremium: num,
  putPremium: num,
  /** `callPremium - putPremium`. */
  netPremium: num,
  callVolume: num,
  putVolume: num,
  /** `callPremium / putPremium`, 999 when puts are 0 (0 when both are). */
  callPutRatio: num,
  activeTickers: int,
  bullishPremium: num,
  bearishPremium: num,
  /** `bullishPremium - bearishPremium`. */
  directionalNet: num,
  /** `100 * directionalNet / (bullishPremium + bearishPremium)`, 0 when nothing is directional. */
  fir: num,
  /** `totalPremium / mean(baseline premium through the same time of day)`, null without a (complete, non-zero) baseline. */
  premiumRvol: nullableNum,
  topTickers: z.array(TopTickerSummarySchema).max(10),
});

/** One row of the ticker daily history. */
export const TickerDailyRowSchema = z.object({
  date: isoDate,
  totalPremium: num,
  totalVolume: num,
  callPremium: num,
  putPremium: num,
  callVolume: num,
  putVolume: num,
  /** `callPremium - putPremium`. */
  netPremium: num,
});

/** One contract's day (the spec's top contract row). */
export const TopContractRowSchema = z.object({
  symbol: z.string(),
  ticker: z.string(),
  expiration: isoDate,
  strike: num,
  right,
  dte: int,
  totalPremium: num,
  totalVolume: num,
  openInterest: num,
  oiChange: num,
  volumeOiRatio: num,
  bidVolume: num,
  askVolume: num,
  midVolume: num,
  vwap: num,
  lastPrice: num,
  underlyingPrice: num,
  iv: num,
  tradeCount: int,
  sweepVolume: num,
  sweepPremium: num,
  multiLegVolume: num,
  multiLegPremium: num,
});
