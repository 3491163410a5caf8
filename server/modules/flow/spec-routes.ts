// Flow endpoints the spec defines ("Flow endpoints"), in the spec's order, then the three it names
// without shapes (sweeps, tide, momentum; shapes from the reference).
import type { AnyRoute } from "../define-route";
import { chainRatioRoute } from "./chain-ratio";
import { contractRatioRoute } from "./contract-ratio";
import { contractTopDailyRoute } from "./contract-top-daily";
import { flowFeedRoute } from "./flow-feed";
import { flowMomentumRoute } from "./flow-momentum";
import { flowTideRoute } from "./flow-tide";
import { contractRvolRoute, underlyingRvolRoute } from "./rvol-routes";
import { sweepsRoute } from "./sweeps";
import { marketOverviewRoute } from "./market-overview";
import { underlyingChainRoute } from "./underlying-chain";
import { underlyingHistoryRoute } from "./underlying-history";
import { underlyingSearchRoute } from "./underlying-search";

export const specFlowRoutes: readonly AnyRoute[] = [
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
];
