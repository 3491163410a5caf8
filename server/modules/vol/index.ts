// The volatility module (spec "Volatility endpoints", heatseeker-tempest.yaml under /v1/vol):
// SVX, term, cones, sigma, surface, tilt, events and VRP, screener, history and the stream.
import type { AnyRoute } from "../define-route";
import { defineModule } from "../define-module";
import { createVolState, type VolState } from "./vol-route";

export type { VolState } from "./vol-route";

const volRoutes: readonly AnyRoute[] = [];

/** The volatility module. */
export const volModule = defineModule<VolState>({
  name: "volatility",
  routes: volRoutes,
  createState: createVolState,
});
