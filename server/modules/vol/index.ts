// The volatility module (spec "Volatility endpoints", heatseeker-tempest.yaml under /v1/vol):
// SVX, term, cones, sigma, surface, tilt, events and VRP, screener, history and the stream.
import type { AnyRoute } from "../define-route";
import { defineModule, type ModuleDef } from "../define-module";
import { volIndexRoute, volStatusRoute, volSymbolsRoute } from "./catalog-routes";
import { volDerivedRoute } from "./derived";
import { volHistoryRoute } from "./history";
import { volMarketRoute } from "./market";
import { screenerRoute } from "./screener";
import { volStreamRoute, volStreamWsRoute } from "./stream";
import { conesRoute, eventsRoute, ivRoute, sigmaRoute, snapshotRoute, surfaceRoute, termRoute, tiltRoute } from "./per-symbol-routes";
import { createVolState, type VolOptions, type VolState } from "./vol-route";

export type { VolOptions, VolState } from "./vol-route";

/** Every volatility route, in OpenAPI and tool-list order. */
const volRoutes: readonly AnyRoute[] = [
  ivRoute,
  termRoute,
  conesRoute,
  sigmaRoute,
  surfaceRoute,
  tiltRoute,
  eventsRoute,
  snapshotRoute,
  volMarketRoute,
  screenerRoute,
  volHistoryRoute,
  volDerivedRoute,
  volStatusRoute,
  volSymbolsRoute,
  volIndexRoute,
  volStreamRoute,
  volStreamWsRoute,
];

/** The volatility module with its tuning (tests shorten the daily history). */
export function createVolModule(options: VolOptions = {}): ModuleDef<VolState> {
  return defineModule<VolState>({
    name: "volatility",
    routes: volRoutes,
    createState: (services) => createVolState(services, options),
    shutdown: async (state, graceMs) => {
      if (state.refreshTimer) clearInterval(state.refreshTimer);
      await state.hub?.shutdown(graceMs);
    },
  });
}

/** The volatility module. */
export const volModule = createVolModule();
