// Positioning endpoints (spec "Positioning endpoints"), each declared once.
import type { AnyRoute } from "../define-route";
import { heatmapRoute } from "./heatmap";
import { historicalRoute } from "./historical";
import { levelsRoute } from "./levels";
import { statsDailyRoute } from "./stats-daily";
import { symbolsRoute } from "./symbols";

export { heatmapRoute, historicalRoute, levelsRoute, statsDailyRoute, symbolsRoute };
export { statsGridQuery, STATS_LIMITS } from "./stats-daily";
export { LEVELS_COST } from "./levels";

/** Every positioning route. */
export const positioningRoutes: AnyRoute[] = [heatmapRoute, historicalRoute, levelsRoute, statsDailyRoute, symbolsRoute];
