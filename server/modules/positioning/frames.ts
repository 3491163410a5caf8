import type { ChainSnapshot } from "../../../lib/market/market-data";
import { heatmapFrame, VELOCITY_LOOKBACK_MINUTES, type ExposureGrid, type HeatmapFrame } from "../../../lib/positioning";
import { previousTradingDay, sessionBounds } from "../../../lib/time";
import { attribution } from "../../attribution";
import { memoizeJson } from "../../http/json-body";
import { freshnessMeta } from "../freshness-meta";
import { boardWithOi, oiMeta } from "./flow-oi";
import { chainOptionsOf, type BoardQuery, type GridQuery, type HeatmapEntry } from "./grid-route";
import { gridOf, knownSymbols, liveKey, noData, perSymbol, type PositioningState } from "./service";

const MINUTE_MS = 60_000;

/** A heatmap entry with what `meta` needs to say about how it was made. */
export interface BuiltEntry {
  entry: HeatmapEntry;
  grid: ExposureGrid;
  cached: boolean;
}

/** Previous session's closing price of the board's underlying, or null. */
async function previousClose(state: PositioningState, chain: ChainSnapshot): Promise<number | null> {
  try {
    const prev = previousTradingDay(chain.sessionDate);
    return await state.services.market.spot(chain.underlying, sessionBounds(prev).closeMs);
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
 * `VELOCITY_LOOKBACK_MINUTES` earlier; cached by `liveKey` (symbol, parameters, minute, market
 * revision). Callers that miss while the entry is being built wait for that one build (marked
 * cached): when a new minute starts under load, every connection would otherwise build the same
 * board at once and stall the event loop for all of them.
 */
export async function liveEntry(state: PositioningState, symbol: string, q: BoardQuery, nowMs: number): Promise<BuiltEntry> {
  const { services, live: cache, liveBuilding } = state;
  const key = liveKey(state, symbol, q, nowMs);
  const wall = services.wallNowMs();
  const hit = cache.get(key, wall);
  if (hit) return { ...hit, cached: true };
  const running = liveBuilding.get(key);
  if (running) return { ...(await running), cached: true };
  const build = buildLiveEntry(state, symbol, q, nowMs);
  liveBuilding.set(key, build);
  try {
    const built = await build;
    cache.set(key, built, wall);
    return { ...built, cached: false };
  } finally {
    liveBuilding.delete(key);
  }
}

async function buildLiveEntry(state: PositioningState, symbol: string, q: BoardQuery, nowMs: number): Promise<Omit<BuiltEntry, "cached">> {
  const { services } = state;
  const board = await services.market.chain(symbol, nowMs, chainOptionsOf(q));
  if (!board) throw noData(symbol, nowMs);
  const before = await services.market.chain(symbol, board.asOfMs - VELOCITY_LOOKBACK_MINUTES * MINUTE_MS, chainOptionsOf(q));
  const hasEarlier = before !== null && before.sessionDate === board.sessionDate && before.asOfMs < board.asOfMs;
  // `oi=flow`: the open interest estimated from the tape, on both boards (docs/methodology.md#flow-open-interest);
  // the earlier one first, so that a running estimate extends from it instead of counting the session again.
  const earlierBoard = hasEarlier ? await boardWithOi(state, before, q).catch(() => null) : null;
  const chain = await boardWithOi(state, board, q);
  const grid = gridOf(state, chain, q);
  let earlier: HeatmapFrame | null = null;
  if (earlierBoard) {
    try {
      earlier = heatmapFrame(gridOf(state, earlierBoard, { ...q, layout: "net" }), { layout: "net" });
    } catch {
      earlier = null; // e.g. the asked expirations did not exist yet: velocity reads 0
    }
  }
  const frame = heatmapFrame(grid, { live: true, earlier, layout: q.layout });
  // The cached entry is never mutated: serialise it once for every response of its lifetime.
  return { entry: memoizeJson(withPriceChange(frame, await previousClose(state, chain))), grid };
}

/** One symbol's replayed entry: the board at or before `atMs`, without velocity. */
export async function replayEntry(state: PositioningState, symbol: string, q: BoardQuery, atMs: number): Promise<BuiltEntry> {
  const chain = await state.services.market.chain(symbol, atMs, chainOptionsOf(q));
  if (!chain) throw noData(symbol, atMs);
  const grid = gridOf(state, chain, q);
  const frame = heatmapFrame(grid, { live: false, layout: q.layout });
  return { entry: withPriceChange(frame, await previousClose(state, chain)), grid, cached: false };
}

/** `meta` of a heatmap-shaped response. */
function heatmapMeta(state: PositioningState, built: BuiltEntry[], q: BoardQuery, mode: "live" | "historical") {
  const first = built[0].grid.meta;
  // A live answer says how old its oldest board is, and whether that is stale (docs/methodology.md#staleness).
  const oldest = Math.min(...built.map((b) => b.grid.asOfMs));
  return {
    metric: q.metric,
    resolution: "1m",
    mode,
    ...(mode === "live" ? freshnessMeta(state.services, oldest, state.services.clock.now()) : {}),
    cached: built.every((b) => b.cached),
    engine: first.engine,
    simulated: built.some((b) => b.grid.meta.simulated),
    signModel: first.signModel,
    unit: first.unit,
    extended: q.extended === true,
    oi: oiMeta(q),
    attribution: attribution(built.some((b) => b.grid.meta.simulated)),
  };
}

/**
 * `data` and `meta` of a heatmap-shaped response: one entry per known symbol of `q`, built by
 * `entryOf` (unknown and board-less symbols dropped; 404 only when none is left).
 */
export async function heatmapResponse(state: PositioningState, q: GridQuery, mode: "live" | "historical", entryOf: (symbol: string) => Promise<BuiltEntry>) {
  const symbols = await knownSymbols(state, q.symbols);
  const built = await perSymbol(symbols, entryOf);
  const data = mode === "live" && built.length === 1 ? liveData(built[0].entry) : { symbols: built.map((b) => b.entry) };
  return { data, meta: heatmapMeta(state, built, q, mode) };
}

/** `data` of a one-symbol live answer per cached entry, memoized with it (its envelope bytes are then reused). */
const liveDataOf = new WeakMap<HeatmapEntry, { symbols: HeatmapEntry[] }>();

function liveData(entry: HeatmapEntry): { symbols: HeatmapEntry[] } {
  let data = liveDataOf.get(entry);
  if (!data) {
    data = memoizeJson({ symbols: [entry] });
    liveDataOf.set(entry, data);
  }
  return data;
}
