// The meta module: the account view, the three API descriptions, the live feed's status and the reference page at /docs.
import { landingPages } from "../../web/landing-page";
import { docsPages } from "../../web/docs-page";
import { defineModule } from "../define-module";
import { accountRoute } from "./account";
import { feedStatusRoute } from "./feed-status";
import type { MetaState } from "./meta-route";
import { openApiBaseRoute, openApiFlowRoute, openApiPriceRoute } from "./openapi";

/** Account, the three API descriptions and the live feed's status. */
export const metaModule = defineModule<MetaState>({
  name: "meta",
  routes: [accountRoute, openApiBaseRoute, openApiFlowRoute, openApiPriceRoute, feedStatusRoute],
  createState: () => ({ documents: new Map() }),
  // The landing page at `/` (server/web/landing-page.ts): links to every page and the server's status;
  // the API reference page over the three documents (server/web/docs-page.ts, docs/api.md#api-reference-page).
  pages: [...landingPages, ...docsPages],
});
