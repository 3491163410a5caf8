// The route table (DESIGN section 3). Adding a module is adding its array here; nothing else
// about an endpoint is written twice (validation, charging, OpenAPI all come from the entries).
import { accountRoute } from "./meta/account";
import { openApiBaseRoute, openApiFlowRoute, openApiPriceRoute } from "./meta/openapi";
import { positioningRoutes } from "./positioning";
import { streamRoutes } from "./stream";
import { priceRoutes } from "./price";
import type { AnyRoute } from "./define-route";

export { defineRoute, routeCost } from "./define-route";
export type { AnyRoute, RouteContext, RouteDef, RouteHost, RouteModule, RouteResult } from "./define-route";
export * from "./params";
export { positioningRoutes } from "./positioning";
export { accountRoute } from "./meta/account";
export { openApiBaseRoute, openApiFlowRoute, openApiPriceRoute } from "./meta/openapi";

/** Account and the three API descriptions. */
export const metaRoutes: AnyRoute[] = [accountRoute, openApiBaseRoute, openApiFlowRoute, openApiPriceRoute];

/** Every built-in route: the default of `createApp({ routes })`. */
export const allRoutes: AnyRoute[] = [...metaRoutes, ...positioningRoutes, ...streamRoutes, ...priceRoutes];
