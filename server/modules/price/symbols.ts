import { PriceSymbolQuerySchema, UdfSymbolInfoSchema } from "../../../lib/api/price";
import { udfSymbolInfo } from "../../../lib/price";
import { priceRoute } from "./price-route";
import { resolveSymbol } from "./resolve-symbol";

/** `GET /v1/symbols` on {atlas_url}: resolve one ticker to its UDF symbol info. */
export const priceSymbolsRoute = priceRoute({
  host: "atlas",
  module: "price",
  method: "GET",
  path: "/v1/symbols",
  operationId: "resolveSymbol",
  cost: 1,
  entitlement: "price",
  query: PriceSymbolQuerySchema,
  symbolsOf: (q) => [q.symbol],
  data: UdfSymbolInfoSchema,
  envelope: false,
  cacheControl: "private, max-age=300",
  summary: "Resolve a symbol (UDF symbol info)",
  description:
    "The charting library's symbol info for one ticker: session 0930-1600 America/New_York, price scale, supported " +
    "resolutions. A malformed symbol is `400 {success: false, error}` and an unknown one `404 {success: false, error}` " +
    '(both also carry `s: "error"` and `errmsg` for UDF clients; refunded). `data_status` is `simulated` when the ' +
    "data comes from the embedded simulator.",
  tags: ["Symbols"],
  handler: async ({ query, services }) => {
    const info = await resolveSymbol(services, query.symbol, true);
    return { data: udfSymbolInfo(info) };
  },
});
