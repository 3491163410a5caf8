/**
 * The positioning module's state and the helpers its routes share: the symbol catalog, the live
 * heatmap and levels caches, the finished-session statistics cache, the statistics worker pool
 * and the stream hub. One per app, created by `createApp` through the module declaration.
 */
import type { ChainSnapshot, SymbolInfo } from "../../../lib/market/market-data";
import { exposureGrid, type DailyStat, type ExposureGrid, type KeyLevels } from "../../../lib/positioning";
import { cacheShareBytes } from "../../cache/cache-budget";
import { LruCache } from "../../cache/lru-cache";
import { workerPoolCollector } from "../../metrics/pool-gauges";
import { ApiError, apiErrors, toApiError } from "../../errors";
import type { AppServices } from "../../services";
import type { StreamHub } from "../../streams/stream-hub";
import type { BuiltEntry } from "./frames";
import { gridOptions, optionsKey, type BoardQuery } from "./grid-route";
import { createStatsPool, type StatsPool } from "./stats-pool";

/** Tuning of the positioning module. */
export interface PositioningOptions {
  /**
   * Longest a live heatmap/levels entry is kept, ms of wall time (`LIVE_CACHE_TTL_MS` by
   * default). An entry is current for as long as its key is (`liveKey`): this only bounds it.
   */
  heatmapCacheTtlMs?: number;
  /** Finished daily-statistics sessions kept in memory; default 20000. */
  statsCacheEntries?: number;
}

/** Parts of the budget's `positioning` share: live heatmap entries, key levels, daily statistics, `oi=flow` estimates (flow-oi.ts). */
export const POSITIONING_SPLIT = { live: 0.5, levels: 0.1, stats: 0.35, flowOi: 0.05 } as const;

/** Default lifetime of a live entry: one market minute at clock speed 1 (docs/api.md#caching). */
export const LIVE_CACHE_TTL_MS = 60_000;

/**
 * The key of a live answer (heatmap entry, key levels): symbol, parameters, market minute and
 * market revision. A board changes only at minute boundaries (`MarketData.chain`), and a market
 * whose past answers can change (a file reload) shows it by a new `revision`, so an entry is
 * current for as long as its key: rebuilding it within the minute gives the same answer and
 * stalls the event loop for nothing (an SPXW board takes 15-40 ms; bench/README.md#scale-out-live-cache).
 */
export function liveKey(state: PositioningState, symbol: string, q: BoardQuery, nowMs: number): string {
  return `${symbol}|${optionsKey(q)}|${Math.floor(nowMs / 60_000)}|${state.services.market.revision ?? 0}`;
}

/** What the positioning routes share within one app. */
export interface PositioningState {
  services: AppServices;
  /** Live heatmap entries by `liveKey`. */
  live: LruCache<string, Omit<BuiltEntry, "cached">>;
  /** Live entries being built, by the same key: callers that miss meanwhile share the one build. */
  liveBuilding: Map<string, Promise<Omit<BuiltEntry, "cached">>>;
  /** Live key levels by `liveKey`. */
  levels: LruCache<string, KeyLevels>;
  /** Daily statistics of finished sessions per (symbol, date, extended, metric). */
  stats: LruCache<string, DailyStat | null>;
  /** Every positioning symbol (option roots and tickers) by name, read once. */
  catalog(): Promise<Map<string, SymbolInfo>>;
  /** The statistics worker pool: only over the simulator (workers rebuild it from its seed). */
  statsPool(): StatsPool | null;
  /** The live-board stream hub, made on the first stream (`positioningStreamHub`). */
  hub: StreamHub<BoardQuery> | null;
  /** Streams reconnect elsewhere (up to `graceMs`), then the worker pool stops. */
  shutdown(graceMs: number): Promise<void>;
}

/**
 * Create the module's state for one app. Nothing heavy starts here: the worker pool and the
 * stream hub start on first use.
 */
export function createPositioningState(services: AppServices, options: PositioningOptions = {}): PositioningState {
  const ttlMs = options.heatmapCacheTtlMs ?? LIVE_CACHE_TTL_MS;
  const share = cacheShareBytes(services.cacheBytes, "positioning");
  let catalog: Promise<Map<string, SymbolInfo>> | null = null;
  let pool: StatsPool | null | undefined;
  // The pool's queue and load on the metrics endpoint (nothing before its first task): docs/operations.md#metrics.
  const unregisterPool = services.metrics?.register(workerPoolCollector(() => [pool ? pool.stats() : null]));
  const state: PositioningState = {
    services,
    live: new LruCache({ maxEntries: 4096, ttlMs, maxBytes: share * POSITIONING_SPLIT.live }),
    liveBuilding: new Map(),
    levels: new LruCache({ maxEntries: 4096, ttlMs, maxBytes: share * POSITIONING_SPLIT.levels }),
    stats: new LruCache({ maxEntries: options.statsCacheEntries ?? 20_000, maxBytes: share * POSITIONING_SPLIT.stats }),
    async catalog() {
      catalog ??= services.market.universe().then((infos) => {
        const out = new Map<string, SymbolInfo>();
        for (const info of infos) {
          for (const root of info.optionRoots) if (!out.has(root)) out.set(root, info);
          if (!out.has(info.ticker)) out.set(info.ticker, info);
        }
        return out;
      });
      try {
        return await catalog;
      } catch (error) {
        catalog = null;
        throw error;
      }
    },
    statsPool() {
      if (pool === undefined) {
        const { market } = services;
        pool = market.simulated && market.seed !== undefined ? createStatsPool({ seed: market.seed, engine: services.kernels.name }) : null;
      }
      return pool;
    },
    hub: null,
    async shutdown(graceMs) {
      await state.hub?.shutdown(graceMs);
      unregisterPool?.();
      await pool?.close();
    },
  };
  // A server with worker pools starts its statistics workers with them: a worker is a process,
  // and forking one holds the loop for milliseconds it should not spend under a request storm.
  if (services.computePool) state.statsPool()?.prestart();
  return state;
}

/** The known symbols of a request, in order; 404 `symbol_not_found` when none is known. */
export async function knownSymbols(state: PositioningState, requested: readonly string[]): Promise<string[]> {
  const catalog = await state.catalog();
  const known = requested.filter((s) => catalog.has(s));
  if (known.length === 0) throw apiErrors.symbolNotFound(requested);
  return known;
}

/** Grid of one chain with the app's kernels (library errors become API errors where thrown). */
export function gridOf(state: PositioningState, chain: ChainSnapshot, q: BoardQuery): ExposureGrid {
  return exposureGrid(chain, gridOptions(q), state.services.kernels);
}

/**
 * Run `one` per symbol; symbols that fail with a 404-class error are dropped, and only when every
 * symbol fails is the first such error thrown (spec: unknown symbols dropped, 404 only when none).
 */
export async function perSymbol<T>(symbols: readonly string[], one: (s: string) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  let firstMiss: ApiError | null = null;
  for (const s of symbols) {
    try {
      out.push(await one(s));
    } catch (error) {
      const mapped = toApiError(error);
      if (mapped.status === 404) {
        firstMiss ??= mapped;
        continue;
      }
      throw mapped;
    }
  }
  if (out.length === 0) throw firstMiss ?? apiErrors.symbolNotFound(symbols);
  return out;
}

/** 404 `no_data` for a symbol without a board at the instant. */
export function noData(symbol: string, atMs: number): ApiError {
  return new ApiError(404, "no_data", `No snapshot available for ${symbol} at ${new Date(atMs).toISOString()}.`);
}
