// Flow endpoints the spec leaves to the reference (flowseeker.yaml), in OpenAPI order; the two
// spec dark-pool endpoints live here too (one owner for the dark-pool files).
import type { AnyRoute } from "../define-route";
import { flowAggregateRoute } from "./ref-aggregate";
import { flowStrikesRoute } from "./ref-strikes";
import { flowBaselineRoute } from "./ref-baseline";
import { contractHistoryRoute } from "./ref-contract-history";
import { underlyingListRoute } from "./ref-underlying-list";
import { darkPoolDailyRoute } from "./dark-pool-daily";
import { darkPoolLevelsRoute } from "./dark-pool-levels";
import { darkPoolTopPrintsRoute } from "./dark-pool-top-prints";
import { darkPoolTradesRoute } from "./dark-pool-trades";
import { chainBullBearRoute, contractBullBearRoute } from "./ref-bull-bear";
import { contractBulkStatsRoute, contractStatsRoute } from "./ref-contract-stats";
import { underlyingByStrikeRoute, underlyingStrikeExpirationsRoute } from "./ref-by-strike";
import { underlyingBulkStatsRoute, underlyingExpirationsRoute, underlyingStatsRoute } from "./ref-underlying-stats";
import { underlyingTopDailyRoute } from "./ref-underlying-top-daily";
import { underlyingTopWeeklyRoute } from "./ref-underlying-top-weekly";
import { contractTopWeeklyRoute } from "./ref-contract-top-weekly";
import { contractUnusualVolumeRoute } from "./ref-unusual-volume";
import { contractUnusualOiRoute } from "./ref-unusual-oi";
import { sectorFlowRoute } from "./ref-sector-flow";
import { marketBreadthRoute } from "./ref-market-breadth";
import { marketTideRoute } from "./ref-market-tide";
import { aggregateRoute } from "./ref-timeframe-aggregate";
import { contractTradesRoute, underlyingTradesRoute } from "./ref-trades";
import { volOiRoute } from "./ref-vol-oi";
import { moneynessRoute } from "./ref-moneyness";
import { tradeScoreRoute } from "./ref-trade-score";
import { historicalCompareRoute } from "./ref-historical-compare";
import { underlyingChartRoute } from "./ref-underlying-chart";
import { contractChartRoute } from "./ref-contract-chart";

export const referenceFlowRoutes: readonly AnyRoute[] = [
  chainBullBearRoute,
  contractBullBearRoute,
  underlyingBulkStatsRoute,
  underlyingStatsRoute,
  underlyingExpirationsRoute,
  underlyingByStrikeRoute,
  underlyingStrikeExpirationsRoute,
  contractBulkStatsRoute,
  contractStatsRoute,
  darkPoolTradesRoute,
  darkPoolTopPrintsRoute,
  darkPoolLevelsRoute,
  darkPoolDailyRoute,
  flowAggregateRoute,
  flowStrikesRoute,
  flowBaselineRoute,
  contractHistoryRoute,
  underlyingListRoute,
  sectorFlowRoute,
  marketBreadthRoute,
  marketTideRoute,
  underlyingTopDailyRoute,
  underlyingTopWeeklyRoute,
  contractTopWeeklyRoute,
  contractUnusualVolumeRoute,
  contractUnusualOiRoute,
  aggregateRoute,
  underlyingTradesRoute,
  contractTradesRoute,
  volOiRoute,
  moneynessRoute,
  tradeScoreRoute,
  historicalCompareRoute,
  underlyingChartRoute,
  contractChartRoute,
];
