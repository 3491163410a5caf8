/**
 * The app's cache budget: one total (`--cache-mb` / `OPTIONSCOPE_CACHE_MB`, default
 * `DEFAULT_CACHE_MB`) split across every server cache by fixed shares, so the caches together
 * never hold more than the total (as estimated by `estimateBytes` and the tape's own estimate).
 * @see docs/operations.md#cache-budget
 */

/** Default total for a 2 GB host: the rest is the runtime, the market and requests in flight. */
export const DEFAULT_CACHE_MB = 512;
/** Most of the V8 heap limit the default total takes (the rest: the market, requests in flight, GC room). */
const DEFAULT_CACHE_HEAP_FRACTION = 0.4;
/** Above this part of the V8 heap limit a `--cache-mb` is logged as a warning (the heap may run out). */
export const CACHE_HEAP_WARN_FRACTION = 0.6;
/** Smallest accepted total (each cache keeps at least a few entries). */
export const MIN_CACHE_MB = 16;
/** Largest accepted total (1 TiB: anything above is a typo). */
export const MAX_CACHE_MB = 1_048_576;

/**
 * Each cache's share of the total (they sum to 1). Session tapes dominate (one SPXW session is
 * ~80 MB with its scored rows), then session summaries and the market-wide tables.
 */
export const CACHE_SHARES = Object.freeze({
  /** Flow: scored session tapes and finished sessions' raw prints (`tape.ts`). */
  flowTapes: 0.38,
  /** Flow: per-ticker session summaries (`session-summary.ts`). */
  flowSummaries: 0.1,
  /** Flow: small memoised values (universe, norms, opening boards, rollups). */
  flowMemo: 0.08,
  /** Flow: market-wide per-session tables (`market-session-table.ts`). */
  flowMarketTables: 0.05,
  /** Flow: top-contract tables (`contract-top-table.ts`). */
  flowContractTables: 0.03,
  /** Flow: print-time indexes (`print-time-index.ts`). */
  flowPrintIndexes: 0.03,
  /** Flow: chart baselines (`chart-baseline-cache.ts`). */
  flowChartBaselines: 0.02,
  /** Flow: dark-pool day tapes and matches (`dark-pool-tape.ts`). */
  flowDarkPool: 0.06,
  /** Flow: windows the feeds were asked for (`paging-hints.ts`). */
  flowPagingHints: 0.01,
  /** Positioning: live heatmap entries and key levels, daily statistics. */
  positioning: 0.08,
  /**
   * Volatility: live readings, premium lows, daily closing readings. The daily part (40%) holds
   * the universe's year of readings (~37,000 of ~0.3 KB) with room: when it did not, each screener
   * minute re-read and re-decoded every symbol's year from disk (docs/operations.md#cache-budget).
   */
  vol: 0.08,
  /** Price: finished sessions' bars and chart-mark sessions. */
  price: 0.05,
  /** Heatmap page: the latest boards' columns and JSON (`board-memo.ts`). */
  heatmapBoards: 0.03,
});

export type CacheName = keyof typeof CACHE_SHARES;

/**
 * The total `serve` uses without `--cache-mb`: `DEFAULT_CACHE_MB`, or less when the V8 heap is
 * small (Node's default heap on a 2 GB host is about 0.5 GB: caches of 512 MB would not fit in it).
 * @example defaultCacheMb(4144 * 2 ** 20) // 512
 * @example defaultCacheMb(1072 * 2 ** 20) // 428
 */
export function defaultCacheMb(heapLimitBytes: number): number {
  const fits = Math.floor((heapLimitBytes / 2 ** 20) * DEFAULT_CACHE_HEAP_FRACTION);
  return Math.max(MIN_CACHE_MB, Math.min(DEFAULT_CACHE_MB, fits));
}

/** Megabytes (MiB) as bytes. */
export function mebibytes(mb: number): number {
  return Math.floor(mb * 2 ** 20);
}

/**
 * The bytes of one cache's share of `totalBytes` (the default total when undefined: a state
 * built outside an app, as the daily-store workers and tests do).
 * @example cacheShareBytes(512 * 2 ** 20, "flowTapes") // 214748364
 */
export function cacheShareBytes(totalBytes: number | undefined, name: CacheName): number {
  return Math.max(1, Math.floor((totalBytes ?? mebibytes(DEFAULT_CACHE_MB)) * CACHE_SHARES[name]));
}
