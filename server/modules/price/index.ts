// The price module on {atlas_url} (spec "Price endpoints"; atlas.yaml for search, time and config)
// and its chart page.
import { chartPages } from "../../web";
import { defineModule } from "../define-module";
import { priceConfigRoute } from "./config";
import { historyRoute } from "./history";
import { createPriceState } from "./price-route";
import { priceSearchRoute } from "./search";
import { priceSymbolsRoute } from "./symbols";
import { priceTimeRoute } from "./time";

export { historyRoute, priceConfigRoute, priceSearchRoute, priceSymbolsRoute, priceTimeRoute };
export type { PriceState } from "./price-route";

/** The price module. */
export const priceModule = defineModule({
  name: "price",
  routes: [historyRoute, priceSymbolsRoute, priceConfigRoute, priceSearchRoute, priceTimeRoute],
  createState: createPriceState,
  pages: chartPages,
});
