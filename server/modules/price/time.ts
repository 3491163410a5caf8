import { EmptyQuerySchema } from "../../../lib/api/common";
import { ServerTimeSchema } from "../../../lib/api/price";
import { priceRoute } from "./price-route";

/** `GET /v1/time` on {atlas_url}: server time as bare Unix seconds (UDF `/time`). Free. */
export const priceTimeRoute = priceRoute({
  host: "atlas",
  module: "price",
  method: "GET",
  path: "/v1/time",
  operationId: "getServerTime",
  cost: 0,
  entitlement: "none",
  query: EmptyQuerySchema,
  data: ServerTimeSchema,
  envelope: false,
  cacheControl: "no-store",
  summary: "Server time (UDF)",
  description:
    "The market clock's now in Unix seconds, as a bare number in a `text/plain` body (the UDF convention). The " +
    "simulator's clock when OPTIONSCOPE_NOW pins it. Free; needs a key.",
  tags: ["Meta"],
  handler: ({ nowMs }) => ({
    data: Math.floor(nowMs / 1000),
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  }),
});
