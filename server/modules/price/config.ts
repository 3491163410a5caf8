import { EmptyQuerySchema } from "../../../lib/api/common";
import { DatafeedConfigSchema } from "../../../lib/api/price";
import { datafeedConfig } from "../../../lib/price";
import { priceRoute } from "./price-route";

/** `GET /v1/config` on {atlas_url}: the UDF datafeed configuration. Free. */
export const priceConfigRoute = priceRoute({
  host: "atlas",
  module: "price",
  method: "GET",
  path: "/v1/config",
  operationId: "getConfig",
  cost: 0,
  entitlement: "none",
  query: EmptyQuerySchema,
  data: DatafeedConfigSchema,
  envelope: false,
  cacheControl: "private, max-age=3600",
  summary: "Datafeed configuration (UDF)",
  description:
    "Resolutions, search and server-time support, exchanges, symbol types, and `max_fetch_trading_days`: the " +
    "/v1/history trading-day cap per resolution, from the same table the server enforces. Free; needs a key.",
  tags: ["Meta"],
  handler: ({ services }) => ({ data: datafeedConfig(services.market.simulated) }),
});
