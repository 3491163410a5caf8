// The per-symbol volatility endpoints: the spec's snapshot, sigma and events, and the reference's
// iv, term, cones, surface and tilt (heatseeker-tempest.yaml). Costs: docs/api.md#volatility-costs.
import {
  VOL_MODULES,
  VolConesDataSchema,
  VolEventsDataSchema,
  VolIvDataSchema,
  VolSigmaDataSchema,
  VolSnapshotDataSchema,
  VolSurfaceDataSchema,
  VolTermDataSchema,
  VolTiltDataSchema,
} from "../../../lib/api/vol";
import { symbolModulesRoute } from "./symbols-envelope";

/** `GET /v1/vol/snapshot`: every module per symbol, 5 credits per call (spec). */
export const snapshotRoute = symbolModulesRoute({
  path: "/v1/vol/snapshot",
  operationId: "getVolSnapshot",
  cost: 5,
  module: "snapshot",
  modules: VOL_MODULES,
  data: VolSnapshotDataSchema,
  summary: "Every volatility module per symbol",
  description:
    "iv, term, cones, sigma, surface, tilt and events of up to 10 symbols in one call (see each endpoint for the fields). " +
    "Symbols the module does not cover are listed in data.missing. 5 credits per call.",
});

/** `GET /v1/vol/sigma`: 1 credit per call (spec). */
export const sigmaRoute = symbolModulesRoute({
  path: "/v1/vol/sigma",
  operationId: "getVolSigma",
  cost: 1,
  module: "sigma",
  modules: ["sigma"],
  data: VolSigmaDataSchema,
  summary: "Today's move in units of the priced one-day move",
  description:
    "running_sigma (the move since the prior close over the one-day move priced at that close), the budget used and left, " +
    "normal against historical odds of 1- and 2-sigma days, day_pace and day_reprice (null outside regular hours) and the " +
    "last 60 sessions. 1 credit per call.",
});

/** `GET /v1/vol/events`: 1 credit per call (spec). */
export const eventsRoute = symbolModulesRoute({
  path: "/v1/vol/events",
  operationId: "getVolEvents",
  cost: 1,
  module: "events",
  modules: ["events"],
  data: VolEventsDataSchema,
  summary: "Next earnings report: implied move, past moves and VRP",
  description:
    "The next report's date and timing, the move priced into it (event variance separated from the term structure; null " +
    "with estimate true when only the straddle estimate exists), median and mean past report moves, the report-by-report " +
    "record and the volatility risk premium. events is null for a symbol with no scheduled report. 1 credit per call.",
});

/** `GET /v1/vol/iv`: 1 credit (reference). */
export const ivRoute = symbolModulesRoute({
  path: "/v1/vol/iv",
  operationId: "getVolIv",
  cost: 1,
  module: "iv",
  modules: ["iv"],
  data: VolIvDataSchema,
  summary: "Constant-maturity implied volatility (SVX) per symbol",
  description:
    "SVX at 1 day, 9 days, 30 days, 3 and 6 months (the Cboe VIX method on the symbol's own chain), IV rank and percentile " +
    "over the trailing year, percentiles per tenor, the one-year range, the ratio to the S&P reading, term slope, curve " +
    "state and chain quality. 1 credit per call.",
});

/** `GET /v1/vol/term`: 1 credit (reference). */
export const termRoute = symbolModulesRoute({
  path: "/v1/vol/term",
  operationId: "getVolTerm",
  cost: 1,
  module: "term",
  modules: ["term"],
  data: VolTermDataSchema,
  summary: "Implied-volatility term structure per symbol",
  description: "One row per listed expiration: calendar days to settlement and the at-the-forward implied vol. 1 credit per call.",
});

/** `GET /v1/vol/cones`: 1 credit (reference). */
export const conesRoute = symbolModulesRoute({
  path: "/v1/vol/cones",
  operationId: "getVolCones",
  cost: 1,
  module: "cones",
  modules: ["cones"],
  data: VolConesDataSchema,
  summary: "Expected-move cones per symbol",
  description:
    "Per horizon (close, 1d, week, opex, 30d) the 1-sigma move priced from now, in percent and price, with skew-aware sides " +
    "and the realized comparison; plus the day, week and month levels priced at their anchor closes. 1 credit per call.",
});

/** `GET /v1/vol/surface`: 3 credits (reference). */
export const surfaceRoute = symbolModulesRoute({
  path: "/v1/vol/surface",
  operationId: "getVolSurface",
  cost: 3,
  module: "surface",
  modules: ["surface"],
  data: VolSurfaceDataSchema,
  summary: "Volatility surface and skew per symbol",
  description:
    "The 30-day 25-delta risk reversal and butterfly, ATM vol, the skew percentile over the year, and per expiration a " +
    "fitted raw-SVI smile read at the 10/25-delta buckets with its butterfly and calendar checks. 3 credits per call.",
});

/** `GET /v1/vol/tilt`: 1 credit (reference). */
export const tiltRoute = symbolModulesRoute({
  path: "/v1/vol/tilt",
  operationId: "getVolTilt",
  cost: 1,
  module: "tilt",
  modules: ["tilt"],
  data: VolTiltDataSchema,
  summary: "Call against put premium tilt per symbol",
  description:
    "The one-strike-out-of-the-money call against put premium at the headline expiry (raw and forward-adjusted ratios), " +
    "the cheap side, its z-score and percentile over the year, and a row per nearby expiration. 1 credit per call.",
});
