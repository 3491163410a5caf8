import { SearchQuerySchema, SearchResultsSchema } from "../../../lib/api/price";
import { searchSymbols } from "../../../lib/price";
import { priceRoute } from "./price-route";

/** `GET /v1/search` on {atlas_url}: ranked symbol search for the symbol picker. */
export const priceSearchRoute = priceRoute({
  host: "atlas",
  module: "price",
  method: "GET",
  path: "/v1/search",
  operationId: "searchSymbols",
  cost: 1,
  entitlement: "price",
  query: SearchQuerySchema,
  data: SearchResultsSchema,
  envelope: false,
  cacheControl: "private, max-age=300",
  summary: "Search symbols",
  description:
    "Symbols whose ticker or name matches `query`, ranked exact > prefix > substring (ticker before name at each " +
    "level; ties by shorter ticker, then the index/ETF tier first). Up to `limit` results; an empty list when nothing matches.",
  tags: ["Symbols"],
  handler: async ({ query, services }) => {
    const universe = await services.market.universe();
    return { data: searchSymbols(universe, query.query, { limit: query.limit, type: query.type, exchange: query.exchange }) };
  },
});
