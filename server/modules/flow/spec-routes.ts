// Flow endpoints the spec defines ("Flow endpoints"), in OpenAPI order, then the three it names
// without shapes (sweeps, tide, momentum; shapes from the reference).
import type { AnyRoute } from "../define-route";
import { flowFeedRoute } from "./flow-feed";

export const specFlowRoutes: readonly AnyRoute[] = [flowFeedRoute];
