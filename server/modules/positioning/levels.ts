import { LevelsDataSchema, LevelsQuerySchema } from "../../../lib/api/positioning";
import { keyLevelsSteps } from "../../../lib/positioning/key-levels";
import { runStepsOnLoop } from "../../yield-to-loop";
import { optionRoot } from "../../../lib/symbols";
import { etDateOf, previousTradingDay, sessionBounds } from "../../../lib/time";
import { attribution } from "../../attribution";
import { boardWithOi, oiMeta } from "./flow-oi";
import { gridOptions, gridRoute } from "./grid-route";
import { knownSymbols, liveKey, noData, perSymbol, type PositioningState } from "./service";
import { freshnessMeta } from "../freshness-meta";

/**
 * The underlying's close of the session before the board's, as the heatmap's `previousClose`
 * (docs/methodology.md#levels-previous-close); null when the market has none.
 */
async function previousCloseOf(state: PositioningState, symbol: string, asOf: string): Promise<number | null> {
  try {
    const prev = previousTradingDay(etDateOf(Date.parse(asOf)));
    const close = await state.services.market.spot(optionRoot(symbol).underlying, sessionBounds(prev).closeMs);
    return close !== null && close > 0 ? close : null;
  } catch {
    return null;
  }
}

/** Hypothetical spots of the zero-gamma profile per kernel call (201 in all). */
const PROFILE_SPOTS_PER_SLICE = 25;

/** Credits per `/v1/gex/levels` call: the spec leaves it open; the reference and the heatmap charge 1. */
const LEVELS_COST = 1;

/** `GET /v1/gex/levels`: classified nodes strongest first, walls, flip and zero gamma. */
export const levelsRoute = gridRoute({
  path: "/v1/gex/levels",
  operationId: "getLevels",
  cost: LEVELS_COST,
  entitlement: "positioning",
  query: LevelsQuerySchema,
  data: LevelsDataSchema,
  cacheControl: "private, max-age=5",
  summary: "Key levels (classified nodes) for one or more symbols",
  description:
    "The strikes classified as nodes on the live board (king first, then strongest |value|), each with its distance " +
    "from spot, and a summary: net exposure, the positive and negative walls, where the running sum by strike changes " +
    "sign, and the zero-gamma level of the spot profile. Same board, parameters and cache as the heatmap.",
  handler: async ({ query, services, state, nowMs }) => {
    const symbols = await knownSymbols(state, query.symbols);
    const q = { ...query, layout: "net" as const };
    const cache = state.levels;
    let allCached = true;
    const entries = await perSymbol(symbols, async (s) => {
      const key = liveKey(state, s, q, nowMs);
      const wall = services.wallNowMs();
      let lv = cache.get(key, wall);
      if (!lv) {
        allCached = false;
        const board = await services.market.chain(s, nowMs);
        if (!board) throw noData(s, nowMs);
        // `oi=flow`: the open interest estimated from the tape (docs/methodology.md#flow-open-interest).
        // The grid's levels, then the zero-gamma spot profile (~80 ms on SPXW) a chunk of spots per loop slice.
        lv = await runStepsOnLoop(keyLevelsSteps(await boardWithOi(state, board, q), gridOptions(q), services.kernels, PROFILE_SPOTS_PER_SLICE));
        cache.set(key, lv, wall);
      }
      return lv;
    });
    const m = entries[0].meta;
    const previousCloses = await Promise.all(entries.map((lv) => previousCloseOf(state, lv.symbol, lv.asOf)));
    return {
      data: {
        symbols: entries.map((lv, i) => ({
          symbol: lv.symbol,
          asOf: lv.asOf,
          spot: lv.spot,
          previousClose: previousCloses[i],
          kingNode: lv.kingNode,
          levels: lv.levels,
          summary: lv.summary,
        })),
      },
      meta: {
        metric: query.metric,
        resolution: "1m",
        mode: "live",
        // How old the oldest board is, by the one staleness rule (docs/methodology.md#staleness).
        ...freshnessMeta(state.services, Math.min(...entries.map((e) => Date.parse(e.asOf))), nowMs),
        cached: allCached,
        engine: m.engine,
        simulated: entries.some((e) => e.meta.simulated),
        signModel: m.signModel,
        unit: m.unit,
        flipMethod: m.flipMethod,
        zeroGammaMethod: m.zeroGammaMethod,
        oi: oiMeta(query),
        attribution: attribution(entries.some((e) => e.meta.simulated)),
      },
    };
  },
});
