import { z } from "zod";
import { datafeedConfig, RESOLUTIONS } from "../../../lib/price";
import { priceRoute } from "./price-route";

const DatafeedConfigSchema = z.object({
  supports_search: z.boolean(),
  supports_group_request: z.boolean(),
  supports_marks: z.boolean(),
  supports_timescale_marks: z.boolean(),
  supports_time: z.boolean(),
  supported_resolutions: z.array(z.enum(RESOLUTIONS)),
  max_fetch_trading_days: z
    .record(z.string(), z.number().int())
    .meta({ description: "Trading days one /v1/history request may span, per resolution (the limits the server enforces)." }),
  intraday_multipliers: z.array(z.string()),
  exchanges: z.array(z.object({ value: z.string(), name: z.string(), desc: z.string() })),
  symbols_types: z.array(z.object({ name: z.string(), value: z.string() })),
  simulated: z.boolean(),
});

/** `GET /v1/config` on {atlas_url}: the UDF datafeed configuration. Free. */
export const priceConfigRoute = priceRoute({
  host: "atlas",
  module: "price",
  method: "GET",
  path: "/v1/config",
  operationId: "getConfig",
  cost: 0,
  entitlement: "none",
  query: z.object({}),
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
