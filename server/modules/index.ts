// The API modules. Adding a module is its folder, one line in `builtinModules` and the names
// docs/architecture.md#adding-a-module lists (its schemas in lib/api/, its `RouteModule`, ...).
import type { AnyRoute } from "./define-route";
import type { ModuleDef } from "./define-module";
import { metaModule } from "./meta";
import { positioningModule } from "./positioning";
import { priceModule } from "./price";
import { flowModule } from "./flow";
import { volModule } from "./vol";

export { defineRoute, isToolRoute, routeCost, routeDefiner } from "./define-route";
export type { AnyRoute, RouteContext, RouteDef, RouteHost, RouteKind, RouteModule, RouteResult } from "./define-route";
export { defineModule, moduleStateOf } from "./define-module";
export type { ModuleDef, MountedModule } from "./define-module";
export { executeRoute } from "./execute-route";
export type { RouteCall, RouteExecution } from "./execute-route";
export * from "./params";
export { metaModule } from "./meta";
export { boardQueryOf, createPositioningBoardHub, createPositioningModule, positioningModule, positioningStreamHub, streamQuery } from "./positioning";
export type { PositioningState } from "./positioning";
export { priceModule } from "./price";
export { flowModule } from "./flow";
export type { FlowState } from "./flow";
export { volModule } from "./vol";
export type { VolState } from "./vol";

/** Every module `createApp` mounts by default, in OpenAPI and tool-list order. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
// biome-ignore lint/suspicious/noExplicitAny: modules of different services types in one list
export const builtinModules: readonly ModuleDef<any>[] = [metaModule, positioningModule, volModule, flowModule, priceModule];

/** Every built-in route, in module order. */
export const allRoutes: readonly AnyRoute[] = builtinModules.flatMap((m) => m.routes);
