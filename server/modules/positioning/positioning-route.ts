import { routeDefiner } from "../define-route";
import type { PositioningState } from "./service";

/** `defineRoute` for positioning routes: their handlers see `ctx.state` as the `PositioningState`. */
export const positioningRoute = routeDefiner<PositioningState>();
