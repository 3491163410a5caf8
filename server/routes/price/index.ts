// Price endpoints on {atlas_url} (spec "Price endpoints"; atlas.yaml for search, time and config).
import type { AnyRoute } from "../define-route";
import { priceConfigRoute } from "./config";
import { historyRoute } from "./history";
import { priceSearchRoute } from "./search";
import { priceSymbolsRoute } from "./symbols";
import { priceTimeRoute } from "./time";

export { historyRoute, priceConfigRoute, priceSearchRoute, priceSymbolsRoute, priceTimeRoute };

/** Every price-module route. */
export const priceRoutes: AnyRoute[] = [historyRoute, priceSymbolsRoute, priceConfigRoute, priceSearchRoute, priceTimeRoute];
