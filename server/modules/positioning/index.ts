// The positioning module (spec "Positioning endpoints"): per-strike heatmaps, replay, key levels,
// daily statistics, the symbol catalog and the live stream, each declared once.
import { heatmapPages } from "../../web/heatmap/pages";
import { defineModule, type ModuleDef } from "../define-module";
import { boardRoute } from "./board";
import { expiryBucketsRoute } from "./buckets";
import { heatmapRoute } from "./heatmap";
import { historicalRoute } from "./historical";
import { historicalRangeRoute } from "./historical-range";
import { levelsRoute } from "./levels";
import { createPositioningState, type PositioningOptions, type PositioningState } from "./service";
import { spotCurveRoute } from "./spot-curve";
import { statsDailyRoute } from "./stats-daily";
import { streamRoute } from "./stream";
import { streamWsRoute } from "./stream-ws";
import { symbolsRoute } from "./symbols";

export { BOARD_COST } from "./board";
export { boardQueryOf, streamQuery } from "./stream-query";
export { createPositioningBoardHub, positioningStreamHub } from "./board-source";
export type { PositioningState } from "./service";

/**
 * The positioning module with its tuning (cache lifetimes and sizes).
 * @example createApp({ ...core, modules: [metaModule, createPositioningModule({ heatmapCacheTtlMs: 1000 }), priceModule] })
 */
export function createPositioningModule(options: PositioningOptions = {}): ModuleDef<PositioningState> {
  return defineModule<PositioningState>({
    name: "positioning",
    routes: [
      heatmapRoute,
      historicalRoute,
      historicalRangeRoute,
      levelsRoute,
      expiryBucketsRoute,
      spotCurveRoute,
      statsDailyRoute,
      symbolsRoute,
      streamRoute,
      streamWsRoute,
      boardRoute,
    ],
    pages: heatmapPages,
    createState: (services) => createPositioningState(services, options),
    shutdown: (state, graceMs) => state.shutdown(graceMs),
  });
}

/** The positioning module with default tuning. */
export const positioningModule = createPositioningModule();
