// The price module on {atlas_url} (spec "Price endpoints"; atlas.yaml for search, time and config)
// and its chart page.
import { chartPages } from "../../web";
import { defineModule } from "../define-module";
import { priceConfigRoute } from "./config";
import { historyRoute } from "./history";
import { marksRoute, timescaleMarksRoute } from "./marks";
import { createPriceState } from "./price-route";
import { priceSearchRoute } from "./search";
import { streamBarsRoute } from "./stream-bars";
import { priceSymbolsRoute } from "./symbols";
import { priceTimeRoute } from "./time";

export { priceStreamHub } from "./bar-stream-source";

/** The price module. */
export const priceModule = defineModule({
  name: "price",
  routes: [historyRoute, priceSymbolsRoute, priceConfigRoute, priceSearchRoute, priceTimeRoute, streamBarsRoute, marksRoute, timescaleMarksRoute],
  createState: createPriceState,
  pages: chartPages,
  shutdown: async (state, graceMs) => {
    await state.hub?.shutdown(graceMs);
  },
});
