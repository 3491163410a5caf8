/**
 * Dark-pool volume by price level: off-exchange shares and notional per price bucket.
 * @see docs/methodology.md#dark-pool-levels-and-daily-totals
 */
import { DARK_POOL_BLOCK_USD } from "./dark-pool-trades";

/** What a level needs of a print. */
export interface LevelPrint {
  price: number;
  size: number;
  notionalUsd: number;
}

/** One price bucket. `price` is its lower edge, USD. */
interface DarkPoolLevel {
  price: number;
  prints: number;
  shares: number;
  notional: number;
  /** Percent of the window's total notional. */
  pctOfNotional: number;
  /** Prints of at least `DARK_POOL_BLOCK_USD`, and their notional. */
  blockPrints: number;
  blockNotional: number;
}

/** Smallest bucket width, USD (one cent). */
const MIN_LEVEL_BUCKET_USD = 0.01;

/**
 * The automatic bucket width: the power of ten nearest (in log terms) to 0.1% of the VWAP, at least a cent.
 * @example autoLevelBucket(500) // 1 (0.1% of 500 is 0.5; log10 0.5 = -0.30 rounds to 0)
 * @see docs/methodology.md#dark-pool-levels-and-daily-totals
 */
export function autoLevelBucket(vwapUsd: number): number {
  if (!(vwapUsd > 0)) return MIN_LEVEL_BUCKET_USD;
  return Math.max(MIN_LEVEL_BUCKET_USD, 10 ** Math.round(Math.log10(vwapUsd * 0.001)));
}

/** Lower edge of the bucket holding `price` (rounded to 1e-6 so 0.1 steps print cleanly). */
export function bucketFloor(price: number, bucketUsd: number): number {
  // The 1e-9 nudge keeps a price on an edge (12.3 with 0.1) in its own bucket despite binary fractions.
  return Math.round(Math.floor(price / bucketUsd + 1e-9) * bucketUsd * 1e6) / 1e6;
}

/** Totals of a window and its levels. */
export interface DarkPoolLevels {
  bucketUsd: number;
  totalShares: number;
  totalNotional: number;
  vwap: number;
  levels: DarkPoolLevel[];
}

/** Ranking keys of levels, largest first. */
export const LEVEL_SORTS = ["notional", "shares", "prints", "block_notional"] as const;
export type LevelSort = (typeof LEVEL_SORTS)[number];

/**
 * Buckets prints by price (`bucketUsd`, or `autoLevelBucket(vwap)` when null) and ranks the levels
 * by `sort`, largest first (ties: lower price first); every level is returned (the caller slices).
 * @example darkPoolLevels([{ price: 10.04, size: 100, notionalUsd: 1004 }], 0.1, "notional").levels[0].price // 10
 * @see docs/methodology.md#dark-pool-levels-and-daily-totals
 */
export function darkPoolLevels(prints: readonly LevelPrint[], bucketUsd: number | null, sort: LevelSort): DarkPoolLevels {
  const totals = levelTotals([prints]);
  const width = bucketUsd ?? autoLevelBucket(totals.vwap);
  const byEdge: LevelBook = new Map();
  bucketLevels(byEdge, prints, width);
  return rankedLevels(byEdge, totals, width, sort);
}

/** Totals of a window's prints given in parts (a day each): the same sums as one flat pass. */
export interface LevelTotals {
  totalShares: number;
  totalNotional: number;
  vwap: number;
}

/** Levels being built, by bucket edge. */
export type LevelBook = Map<number, DarkPoolLevel>;

/**
 * `darkPoolLevels`' totals over `parts` in order (the window's days, each a list of prints): a
 * caller bucketing day by day sums the same way as one pass over the concatenation.
 */
export function levelTotals(parts: readonly (readonly LevelPrint[])[]): LevelTotals {
  let totalShares = 0;
  let totalNotional = 0;
  for (const prints of parts) {
    for (const p of prints) {
      totalShares += p.size;
      totalNotional += p.notionalUsd;
    }
  }
  return { totalShares, totalNotional, vwap: totalShares > 0 ? totalNotional / totalShares : 0 };
}

/** Add `prints` to the levels of `byEdge` at bucket width `width` (one part of the window at a time). */
export function bucketLevels(byEdge: LevelBook, prints: readonly LevelPrint[], width: number): void {
  for (const p of prints) {
    const edge = bucketFloor(p.price, width);
    let level = byEdge.get(edge);
    if (!level) {
      level = { price: edge, prints: 0, shares: 0, notional: 0, pctOfNotional: 0, blockPrints: 0, blockNotional: 0 };
      byEdge.set(edge, level);
    }
    level.prints += 1;
    level.shares += p.size;
    level.notional += p.notionalUsd;
    if (p.notionalUsd >= DARK_POOL_BLOCK_USD) {
      level.blockPrints += 1;
      level.blockNotional += p.notionalUsd;
    }
  }
}

/** The finished levels of `byEdge`, rounded and ranked by `sort` (largest first, ties: lower price first). */
export function rankedLevels(byEdge: LevelBook, totals: LevelTotals, width: number, sort: LevelSort): DarkPoolLevels {
  const { totalShares, totalNotional, vwap } = totals;
  const key: Record<LevelSort, (l: DarkPoolLevel) => number> = {
    notional: (l) => l.notional,
    shares: (l) => l.shares,
    prints: (l) => l.prints,
    block_notional: (l) => l.blockNotional,
  };
  const levels = [...byEdge.values()];
  for (const l of levels) {
    l.notional = Math.round(l.notional * 100) / 100;
    l.blockNotional = Math.round(l.blockNotional * 100) / 100;
    l.pctOfNotional = totalNotional > 0 ? Math.round((l.notional / totalNotional) * 100 * 1e4) / 1e4 : 0;
  }
  levels.sort((a, b) => key[sort](b) - key[sort](a) || a.price - b.price);
  return { bucketUsd: width, totalShares, totalNotional: Math.round(totalNotional * 100) / 100, vwap, levels };
}
