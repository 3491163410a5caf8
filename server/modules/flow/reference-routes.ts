// Flow endpoints the spec leaves to the reference (flowseeker.yaml), in OpenAPI order.
import type { AnyRoute } from "../define-route";

export const referenceFlowRoutes: readonly AnyRoute[] = [];
