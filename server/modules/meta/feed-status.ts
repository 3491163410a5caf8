import { EmptyQuerySchema } from "../../../lib/api/common";
import { FeedStatusSchema } from "../../../lib/api/feed-status";
import { ApiError } from "../../errors";
import { metaRoute } from "./meta-route";

/**
 * `GET /v1/status/feed`: the live feed's state, lag, last message, counters and gaps. Free and
 * without a key, like `/metrics` (an operator's probe; it shows no key). A server without a feed
 * (the simulated market, `--data`) answers 404 `not_found` saying so. See docs/data.md#feed-status.
 */
export const feedStatusRoute = metaRoute({
  host: "base",
  module: "meta",
  method: "GET",
  path: "/v1/status/feed",
  operationId: "getFeedStatus",
  cost: 0,
  entitlement: "none",
  auth: "none",
  query: EmptyQuerySchema,
  data: FeedStatusSchema,
  cacheControl: "no-store",
  summary: "The live feed's state",
  description:
    "With a live vendor feed (`optionscope serve --feed massive`): its state (connecting, live, degraded, down), the newest board " +
    "per symbol, its lag (seconds behind the newest board that should exist), the last message, each part's state and last " +
    "error, counters and the gaps it could not fill. A server without a feed answers 404 not_found. Needs no key; free.",
  tags: ["Meta"],
  handler: ({ services }) => {
    if (!services.feedStatus) throw new ApiError(404, "not_found", "This server has no live feed (it serves the simulated market or files); start it with --feed.");
    return { data: services.feedStatus() };
  },
});
