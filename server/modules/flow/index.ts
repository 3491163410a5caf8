// The flow module (spec "Flow endpoints", flowseeker.yaml for the rest): scored options flow,
// sweeps, tide, dark pool, RVOL, ratios, chains and screeners, from one tape of prints.
import { defineModule } from "../define-module";
import { createFlowState, withFlowLimits, type FlowState } from "./flow-route";
import { referenceFlowRoutes } from "./reference-routes";
import { specFlowRoutes } from "./spec-routes";
import { flowStreamRoute } from "./flow-stream";
import { flowStreamWsRoute } from "./flow-stream-ws";
import { flowStreamHubOf } from "./flow-stream-source";

export type { FlowState } from "./flow-route";

/** The flow module. */
export const flowModule = defineModule<FlowState>({
  name: "flow",
  // Every flow route gets the module's in-flight cap and 25-second limit unless it declares its own.
  // The stream route is exempt: a stream is held for an hour and holds stream slots instead.
  routes: [flowStreamRoute, flowStreamWsRoute, ...[...specFlowRoutes, ...referenceFlowRoutes].map(withFlowLimits)],
  createState: createFlowState,
  shutdown: async (state, graceMs) => {
    await flowStreamHubOf(state)?.shutdown(graceMs);
  },
});
