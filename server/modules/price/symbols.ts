import { z } from "zod";
import { RESOLUTIONS, udfSymbolInfo } from "../../../lib/price";
import { priceRoute } from "./price-route";
import { rawSymbolParam } from "./params";
import { resolveSymbol } from "./resolve-symbol";

/** The UDF symbol info record (spec, "Price-module records"). */
export const UdfSymbolInfoSchema = z.object({
  ticker: z.string(),
  name: z.string(),
  description: z.string().meta({ description: "Name; says `simulated market data` when the data is simulated." }),
  type: z.enum(["index", "etf", "stock"]),
  session: z.string(),
  timezone: z.string(),
  exchange: z.string(),
  listed_exchange: z.string(),
  minmov: z.number().int(),
  pricescale: z.number().int(),
  has_intraday: z.boolean(),
  has_daily: z.boolean(),
  has_weekly_and_monthly: z.boolean(),
  intraday_multipliers: z.array(z.string()),
  supported_resolutions: z.array(z.enum(RESOLUTIONS)),
  volume_precision: z.number().int(),
  data_status: z.string().meta({ description: "`simulated` for the embedded simulator, else `streaming`." }),
  format: z.literal("price"),
  simulated: z.boolean(),
});

/** `GET /v1/symbols` on {atlas_url}: resolve one ticker to its UDF symbol info. */
export const priceSymbolsRoute = priceRoute({
  host: "atlas",
  module: "price",
  method: "GET",
  path: "/v1/symbols",
  operationId: "resolveSymbol",
  cost: 1,
  entitlement: "price",
  query: z.object({ symbol: rawSymbolParam }),
  symbolsOf: (q) => [q.symbol],
  data: UdfSymbolInfoSchema,
  envelope: false,
  cacheControl: "private, max-age=300",
  summary: "Resolve a symbol (UDF symbol info)",
  description:
    "The charting library's symbol info for one ticker: session 0930-1600 America/New_York, price scale, supported " +
    "resolutions. A malformed symbol is `400 {success: false, error}` and an unknown one `404 {success: false, error}` " +
    "(both also carry `s: \"error\"` and `errmsg` for UDF clients; refunded). `data_status` is `simulated` when the " +
    "data comes from the embedded simulator.",
  tags: ["Symbols"],
  handler: async ({ query, services }) => {
    const info = await resolveSymbol(services, query.symbol, true);
    return { data: udfSymbolInfo(info) };
  },
});
