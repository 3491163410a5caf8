// The meta module: the account view and the three API descriptions.
import { defineModule } from "../define-module";
import { accountRoute } from "./account";
import type { MetaState } from "./meta-route";
import { openApiBaseRoute, openApiFlowRoute, openApiPriceRoute } from "./openapi";

/** Account and the three API descriptions. */
export const metaModule = defineModule<MetaState>({
  name: "meta",
  routes: [accountRoute, openApiBaseRoute, openApiFlowRoute, openApiPriceRoute],
  createState: () => ({ documents: new Map() }),
});
