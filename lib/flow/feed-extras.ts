/**
 * The reference's per-trade context fields of the flow feed that are not part of the score itself:
 * the DTE factor and its share of the conviction multiplier, the trade's Black-Scholes delta and
 * delta notional, its size against open interest, its IV change, and the cluster (sweep or
 * multi-leg package) it belongs to.
 * @see docs/methodology.md#flow-feed-context-fields
 */
import * as z from "zod";
import { bsmGreeks } from "../math";
import { settlementInstantMs } from "../symbols";
import { FlowTradeItemSchema } from "./feed-items";
import type { ScoredTrade } from "./flow-score";
import type { MultiLegPackage } from "./multi-leg";
import { FLOW_SCORE_PARAMS } from "./params";
import type { FlowScoreWeights } from "./score-weights";
import type { SweepGroup } from "./sweeps";

const num = z.number();
const int = z.number().int();
const YEAR_MS = 365 * 86_400_000;
/** Shortest time to settlement a delta is computed with (a print in the last minute before it). */
const MIN_T_YEARS = 60_000 / YEAR_MS;

/**
 * The flow feed's relative volume (docs/methodology.md#flow-feed-rvol): the baseline is the
 * contract's mean daily volume over the `baselineSessions` sessions before the trade's (the
 * unusual-volume screen's default `avg_period`, 10d); `rvolScore` reaches 100 at
 * `scoreSaturation`; `categories` are the floors of each `rvolCategory`, highest first (`HIGH`
 * from the unusual-volume screen's default `min_rvol`, 2). The reference names the fields but
 * gives no thresholds: these are ours.
 */
export const FEED_RVOL_PARAMS = Object.freeze({
  baselineSessions: 10,
  scoreSaturation: 5,
  categories: Object.freeze([
    ["EXTREME", 5],
    ["HIGH", 2],
    ["NORMAL", 0.5],
    ["LOW", 0],
  ] as const),
});

/** `rvolCategory` values, lowest first. */
const RVOL_CATEGORIES = ["LOW", "NORMAL", "HIGH", "EXTREME"] as const;
type RvolCategory = (typeof RVOL_CATEGORIES)[number];

/** A trade's RVOL fields. */
export interface TradeRvol {
  rvol: number | null;
  rvolScore: number;
  rvolCategory: RvolCategory | null;
}

/**
 * The RVOL fields of a trade: `rvol = dailyVolume / avgVolume` (the contract's session volume up
 * to and including the trade over its mean daily volume); null, score 0 and no category without a
 * baseline (`avgVolume` null: not stored yet; 0: the contract did not trade in the baseline).
 * @example tradeRvol(600, 200) // { rvol: 3, rvolScore: 60, rvolCategory: "HIGH" }
 * @see docs/methodology.md#flow-feed-rvol
 */
export function tradeRvol(dailyVolume: number, avgVolume: number | null | undefined): TradeRvol {
  if (avgVolume === null || avgVolume === undefined || !(avgVolume > 0)) return { rvol: null, rvolScore: 0, rvolCategory: null };
  const rvol = dailyVolume / avgVolume;
  const rvolScore = Math.round(100 * Math.min(1, rvol / FEED_RVOL_PARAMS.scoreSaturation));
  const rvolCategory = FEED_RVOL_PARAMS.categories.find(([, floor]) => rvol >= floor)?.[0] ?? "LOW";
  return { rvol, rvolScore, rvolCategory };
}

/** The multi-leg or sweep cluster a trade belongs to (the reference's `ClusterInfo`). */
const ClusterInfoSchema = z.object({
  clusterId: z.string().meta({ description: "`sw_<date>_<ticker>_<n>` for a sweep, `ml_<date>_<ticker>_<n>` for a multi-leg package." }),
  clusterTradeCount: int.min(1).meta({ description: "Prints in the cluster." }),
  clusterTotalPremium: num.meta({ description: "Premium of every print of the cluster, USD." }),
  clusterTimeSpanSeconds: int.min(0).meta({ description: "Whole seconds from the cluster's first print to its last." }),
});
/** A trade's cluster. */
export type ClusterInfo = z.output<typeof ClusterInfoSchema>;

/** The context fields of a feed trade. */
export const FeedTradeExtrasSchema = z.object({
  dteFactor: num.meta({ description: "The DTE component of the conviction (0..1) by the trade's DTE category." }),
  dteMultiplier: num.meta({ description: "What the DTE component adds to `scores.convictionMultiplier`: 0.75 x DTE weight x `dteFactor`." }),
  delta: num
    .nullable()
    .meta({ description: "Black-Scholes delta at the print (its IV, the underlying price, the board's rate and dividend yield); null without an IV." }),
  notionalDeltaExposure: num
    .nullable()
    .meta({ description: "delta x contracts x 100 x underlying price, USD of underlying held by the option's buyer; null without a delta." }),
  sizeOiScore: int.meta({ description: "100 x min(1, contracts / open interest); 100 when OI is known to be 0, 0 when unknown." }),
  ivChangePct: num.nullable().meta({ description: "Percent change of the IV from the contract's previous print of the session; null for the first or without IVs." }),
  rvol: num.nullable().meta({
    description:
      "dailyVolume / the contract's mean daily volume over the 10 sessions before (docs/methodology.md#flow-feed-rvol); null while that baseline is not stored yet or when the contract did not trade in it.",
  }),
  rvolScore: int.meta({ description: "round(100 x min(1, rvol / 5)); 0 without rvol." }),
  rvolCategory: z.enum(RVOL_CATEGORIES).nullable().meta({ description: "LOW under 0.5, NORMAL under 2, HIGH under 5, EXTREME from 5; null without rvol." }),
  cluster: ClusterInfoSchema.optional().meta({ description: "The sweep or multi-leg package of the print, when `include_clusters` (default true)." }),
});
/** One trade of `/v1/flow/{ticker}`: the feed item and its context fields. */
export const FlowFeedTradeSchema = FlowTradeItemSchema.extend(FeedTradeExtrasSchema.shape);

/** The context fields of one feed trade. */
export type FeedTradeExtras = z.output<typeof FeedTradeExtrasSchema>;

/** What the context fields of one trade read besides the trade. */
export interface FeedTradeContext {
  /** The board's continuous rate and dividend yield (null without a board: no delta). */
  rates: { rate: number; dividendYield: number } | null;
  /** The scoring weights (the default ones, or the request's `conviction_weights`). */
  weights: FlowScoreWeights;
  /** IV of the contract's previous print in the session. */
  prevIv: number | null;
  /** The contract's mean daily volume over the RVOL baseline; null or absent when not known. */
  avgVolume?: number | null;
  cluster?: ClusterInfo;
}

/**
 * The context fields of a scored trade.
 * @example feedTradeExtras(t, { rates: { rate: 0.05, dividendYield: 0 }, weights: FLOW_SCORE_WEIGHTS, prevIv: null }).delta
 * @see docs/methodology.md#flow-feed-context-fields
 */
export function feedTradeExtras(t: ScoredTrade, c: FeedTradeContext): FeedTradeExtras {
  const dteFactor = t.components.dte;
  let delta: number | null = null;
  if (c.rates && t.iv !== null && t.iv > 0 && t.underlyingPrice > 0 && t.strike > 0) {
    const tYears = Math.max(MIN_T_YEARS, (settlementInstantMs(t.root, t.expiry) - t.tsMs) / YEAR_MS);
    delta = bsmGreeks({ spot: t.underlyingPrice, strike: t.strike, tYears, vol: t.iv, rate: c.rates.rate, dividendYield: c.rates.dividendYield, right: t.right }).delta;
  }
  const oi = t.openInterest;
  const sizeOiScore = oi === null ? 0 : oi === 0 ? 100 : Math.round(100 * Math.min(1, t.size / oi));
  const out: FeedTradeExtras = {
    dteFactor,
    dteMultiplier: (1 - FLOW_SCORE_PARAMS.convictionFloor) * c.weights.dte * dteFactor,
    delta,
    notionalDeltaExposure: delta === null ? null : delta * t.size * 100 * t.underlyingPrice,
    sizeOiScore,
    ivChangePct: c.prevIv !== null && c.prevIv > 0 && t.iv !== null ? (100 * (t.iv - c.prevIv)) / c.prevIv : null,
    ...tradeRvol(t.dailyVolume, c.avgVolume),
  };
  if (c.cluster) out.cluster = c.cluster;
  return out;
}

/** The cluster of a sweep. */
export function sweepCluster(date: string, ticker: string, g: SweepGroup): ClusterInfo {
  return {
    clusterId: `sw_${date}_${ticker}_${g.id}`,
    clusterTradeCount: g.printIndices.length,
    clusterTotalPremium: g.totalPremiumUsd,
    clusterTimeSpanSeconds: Math.floor(g.executionTimeMs / 1000),
  };
}

/** The cluster of a multi-leg package (its id as the trade rows' `strategyGroupId`); `lastTsMs` is its last leg's time. */
export function packageCluster(date: string, ticker: string, p: MultiLegPackage, lastTsMs: number): ClusterInfo {
  return {
    clusterId: `ml_${date}_${ticker}_${p.id}`,
    clusterTradeCount: p.printIndices.length,
    clusterTotalPremium: p.totalPremiumUsd,
    clusterTimeSpanSeconds: Math.floor((lastTsMs - p.firstTsMs) / 1000),
  };
}
