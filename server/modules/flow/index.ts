// The flow module (spec "Flow endpoints", flowseeker.yaml for the rest): scored options flow,
// sweeps, tide, dark pool, RVOL, ratios, chains and screeners, from one tape of prints. Routes live
// in one folder per resource (feed/, contracts/, underlyings/, dark-pool/, market/, streams/) over
// the session data in sessions/; docs/architecture.md#the-flow-module.
import { defineModule } from "../define-module";
import type { AnyRoute } from "../define-route";
import { createFlowState, withFlowLimits, type FlowState } from "./flow-route";
import { chainBullBearRoute, contractBullBearRoute } from "./contracts/bull-bear";
import { chainRatioRoute } from "./contracts/chain-ratio";
import { contractChartRoute } from "./contracts/contract-chart";
import { contractHistoryRoute } from "./contracts/contract-history";
import { contractRatioRoute } from "./contracts/contract-ratio";
import { contractBulkStatsRoute, contractStatsRoute } from "./contracts/contract-stats";
import { contractTopDailyRoute } from "./contracts/contract-top-daily";
import { contractTopWeeklyRoute } from "./contracts/contract-top-weekly";
import { contractUnusualOiRoute } from "./contracts/unusual-oi";
import { contractUnusualVolumeRoute } from "./contracts/unusual-volume";
import { darkPoolDailyRoute } from "./dark-pool/dark-pool-daily";
import { darkPoolLevelsRoute } from "./dark-pool/dark-pool-levels";
import { darkPoolTopPrintsRoute } from "./dark-pool/dark-pool-top-prints";
import { darkPoolTradesRoute } from "./dark-pool/dark-pool-trades";
import { flowAggregateRoute } from "./feed/flow-aggregate";
import { flowBaselineRoute } from "./feed/flow-baseline";
import { flowFeedRoute } from "./feed/flow-feed";
import { flowMomentumRoute } from "./feed/flow-momentum";
import { flowStrikesRoute } from "./feed/flow-strikes";
import { flowTideRoute } from "./feed/flow-tide";
import { historicalCompareRoute } from "./feed/historical-compare";
import { sweepsRoute } from "./feed/sweeps";
import { aggregateRoute } from "./feed/timeframe-aggregate";
import { tradeScoreRoute } from "./feed/trade-score";
import { contractTradesRoute, underlyingTradesRoute } from "./feed/trades";
import { marketBreadthRoute } from "./market/market-breadth";
import { marketOverviewRoute } from "./market/market-overview";
import { marketTideRoute } from "./market/market-tide";
import { sectorFlowRoute } from "./market/sector-flow";
import { underlyingByStrikeRoute, underlyingStrikeExpirationsRoute } from "./underlyings/by-strike";
import { moneynessRoute } from "./underlyings/moneyness";
import { contractRvolRoute, underlyingRvolRoute } from "./underlyings/rvol";
import { underlyingChainRoute } from "./underlyings/underlying-chain";
import { underlyingChartRoute } from "./underlyings/underlying-chart";
import { underlyingHistoryRoute } from "./underlyings/underlying-history";
import { underlyingListRoute } from "./underlyings/underlying-list";
import { underlyingSearchRoute } from "./underlyings/underlying-search";
import { underlyingBulkStatsRoute, underlyingExpirationsRoute, underlyingStatsRoute } from "./underlyings/underlying-stats";
import { underlyingTopDailyRoute } from "./underlyings/underlying-top-daily";
import { underlyingTopWeeklyRoute } from "./underlyings/underlying-top-weekly";
import { volOiRoute } from "./underlyings/vol-oi";
import { flowStreamRoute } from "./streams/flow-stream";
import { flowStreamWsRoute } from "./streams/flow-stream-ws";
import { flowStreamHubOf } from "./streams/flow-stream-source";

export type { FlowState } from "./flow-route";

/** The module's request routes in OpenAPI and tool-list order (limits are added by the module). */
const requestRoutes: readonly AnyRoute[] = [
  // The endpoints the spec defines ("Flow endpoints"), in the spec's order, then the three it names
  // without shapes (sweeps, tide, momentum; shapes from the reference).
  flowFeedRoute,
  contractTopDailyRoute,
  contractRvolRoute,
  underlyingRvolRoute,
  contractRatioRoute,
  chainRatioRoute,
  underlyingSearchRoute,
  underlyingChainRoute,
  marketOverviewRoute,
  underlyingHistoryRoute,
  sweepsRoute,
  flowTideRoute,
  flowMomentumRoute,
  // The endpoints the spec leaves to the reference (flowseeker.yaml), in its OpenAPI order.
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

/** The flow module. */
export const flowModule = defineModule<FlowState>({
  name: "flow",
  // Every flow route gets the module's in-flight cap and 25-second limit unless it declares its own.
  // The stream routes are exempt: a stream is held for an hour and holds stream slots instead.
  routes: [flowStreamRoute, flowStreamWsRoute, ...requestRoutes.map(withFlowLimits)],
  createState: createFlowState,
  shutdown: async (state, graceMs) => {
    await flowStreamHubOf(state)?.shutdown(graceMs);
  },
});
