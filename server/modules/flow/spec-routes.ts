// Flow endpoints the spec defines ("Flow endpoints"), in OpenAPI order.
import type { AnyRoute } from "../define-route";

export const specFlowRoutes: readonly AnyRoute[] = [];
