import type { ChainSnapshot } from "../../../lib/market/market-data";
import { heatmapFrame, VELOCITY_LOOKBACK_MINUTES, type ExposureGrid, type HeatmapFrame } from "../../../lib/positioning";
import { previousTradingDay, sessionBounds } from "../../../lib/time";
import { LruCache } from "../../cache/lru-cache";
import { memoizeJson } from "../../http/json-body";
import { moduleState, type AppServices } from "../../services";
import { gridOf, knownSymbols, noData, optionsKey, perSymbol, type GridQuery } from "./_shared";

const MINUTE_MS = 60_000;

/** A heatmap entry with what `meta` needs to say about how it was made. */
export interface BuiltEntry {
  entry: HeatmapFrame & { previousClose?: number; priceChange?: number; priceChangePercent?: number };
  grid: ExposureGrid;
  cached: boolean;
}

/** Previous session's closing price of the board's underlying, or null. */
async function previousClose(services: AppServices, chain: ChainSnapshot): Promise<number | null> {
  try {
    const prev = previousTradingDay(chain.sessionDate);
    return await services.market.spot(chain.underlying, sessionBounds(prev).closeMs);
  } catch {
    return null;
  }
}

function withPriceChange(frame: HeatmapFrame, prevClose: number | null): BuiltEntry["entry"] {
  if (prevClose === null || !(prevClose > 0)) return frame;
  const change = frame.spot - prevClose;
  const { symbol, asOf, spot, ...rest } = frame;
  return { symbol, asOf, spot, previousClose: prevClose, priceChange: change, priceChangePercent: (100 * change) / prevClose, ...rest };
}

/**
 * One symbol's live heatmap entry at `nowMs`, with velocity against the same session's board
 * `VELOCITY_LOOKBACK_MINUTES` earlier; cached per (symbol, parameters, minute) for the app's
 * heatmap lifetime (5 s by default, wall time).
 */
export async function liveEntry(
  services: AppServices,
  symbol: string,
  q: Omit<GridQuery, "symbols">,
  nowMs: number,
): Promise<BuiltEntry> {
  const cache = moduleState(services, "positioning.live", () => new LruCache<string, Omit<BuiltEntry, "cached">>(4096, services.heatmapCacheTtlMs));
  const key = `${symbol}|${optionsKey(q)}|${Math.floor(nowMs / MINUTE_MS)}`;
  const wall = services.wallNowMs();
  const hit = cache.get(key, wall);
  if (hit) return { ...hit, cached: true };
  const chain = await services.market.chain(symbol, nowMs);
  if (!chain) throw noData(symbol, nowMs);
  const grid = gridOf(services, chain, q);
  let earlier: HeatmapFrame | null = null;
  const before = await services.market.chain(symbol, chain.asOfMs - VELOCITY_LOOKBACK_MINUTES * MINUTE_MS);
  if (before && before.sessionDate === chain.sessionDate && before.asOfMs < chain.asOfMs) {
    try {
      earlier = heatmapFrame(gridOf(services, before, { ...q, layout: "net" }), { layout: "net" });
    } catch {
      earlier = null; // e.g. the asked expirations did not exist yet: velocity reads 0
    }
  }
  const frame = heatmapFrame(grid, { live: true, earlier, layout: q.layout });
  // The cached entry is never mutated: serialise it once for every response of its lifetime.
  const built = { entry: memoizeJson(withPriceChange(frame, await previousClose(services, chain))), grid };
  cache.set(key, built, wall);
  return { ...built, cached: false };
}

/** One symbol's replayed entry: the board at or before `atMs`, without velocity. */
export async function replayEntry(
  services: AppServices,
  symbol: string,
  q: Omit<GridQuery, "symbols">,
  atMs: number,
): Promise<BuiltEntry> {
  const chain = await services.market.chain(symbol, atMs);
  if (!chain) throw noData(symbol, atMs);
  const grid = gridOf(services, chain, q);
  const frame = heatmapFrame(grid, { live: false, layout: q.layout });
  return { entry: withPriceChange(frame, await previousClose(services, chain)), grid, cached: false };
}

/** `meta` of a heatmap-shaped response. */
export function heatmapMeta(built: BuiltEntry[], q: Omit<GridQuery, "symbols">, mode: "live" | "historical") {
  const first = built[0].grid.meta;
  return {
    metric: q.metric,
    resolution: "1m",
    mode,
    cached: built.every((b) => b.cached),
    engine: first.engine,
    simulated: built.some((b) => b.grid.meta.simulated),
    signModel: first.signModel,
    unit: first.unit,
  };
}

/**
 * `data` and `meta` of a heatmap-shaped response: one entry per known symbol of `q`, built by
 * `entryOf` (unknown and board-less symbols dropped; 404 only when none is left).
 */
export async function heatmapResponse(
  services: AppServices,
  q: GridQuery,
  mode: "live" | "historical",
  entryOf: (symbol: string) => Promise<BuiltEntry>,
) {
  const symbols = await knownSymbols(services, q.symbols);
  const built = await perSymbol(symbols, entryOf);
  return { data: { symbols: built.map((b) => b.entry) }, meta: heatmapMeta(built, q, mode) };
}
