import { z } from "zod";
import { searchSymbols } from "../../../lib/price";
import { priceRoute } from "./price-route";
import { searchLimitParam } from "./params";

const SearchResultSchema = z.object({
  symbol: z.string().meta({ description: "Identifier to pass to /v1/symbols and /v1/history." }),
  ticker: z.string(),
  description: z.string(),
  exchange: z.string(),
  type: z.enum(["index", "etf", "stock"]),
  kind: z.literal("index").optional(),
});

/** `GET /v1/search` on {atlas_url}: ranked symbol search for the symbol picker. */
export const priceSearchRoute = priceRoute({
  host: "atlas",
  module: "price",
  method: "GET",
  path: "/v1/search",
  operationId: "searchSymbols",
  cost: 1,
  entitlement: "price",
  query: z.object({
    query: z.string().max(64, { error: "at most 64 characters." }).meta({ description: "Search text: ticker or name fragment." }),
    limit: searchLimitParam,
    type: z.enum(["stock", "etf", "index"], { error: "must be one of stock, etf, index." }).optional().meta({ description: "Only this symbol type." }),
    exchange: z.string().max(16).optional().meta({ description: "Only this exchange (NASDAQ, NYSE, ARCA, CBOE)." }),
  }),
  data: z.array(SearchResultSchema),
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
