import { HeatmapEventStreamSchema } from "../../../lib/api/positioning";
import { PER_SYMBOL_STREAM, STREAM_ROUTE } from "../stream-route";
import { sseResponse } from "../../streams/open-stream";
import { positioningRoute } from "./positioning-route";
import { httpRequestOf } from "../http-request";
import { openConnection } from "./open-stream";
import { streamQuery, symbolsPerStream } from "./stream-query";

/**
 * `GET /v1/stream`: live boards as Server-Sent Events. Opening costs 1 credit per symbol, charged
 * by the pipeline before the stream starts (so a refused open is a plain JSON error, refunded);
 * then 1 credit per symbol per billing interval. See docs/api.md#streams.
 */
export const streamRoute = positioningRoute({
  ...STREAM_ROUTE,
  ...PER_SYMBOL_STREAM,
  host: "base",
  module: "positioning",
  path: "/v1/stream",
  operationId: "streamHeatmap",
  entitlement: "positioning",
  query: streamQuery,
  symbolsLimit: { param: "symbols", max: symbolsPerStream },
  data: HeatmapEventStreamSchema,
  summary: "Live SSE stream (up to 10 symbols per connection)",
  description:
    "Server-Sent Events of live per-strike boards: `connected` first, a `snapshot` and `velocity` per symbol whenever its board " +
    "changes (at least each new minute of the session), `credits` after each per-minute debit, `symbol_unavailable` outside the " +
    "session (still billed), `: ping` every 15 s, `reconnect` after 60 minutes or on shutdown, `closed` when credits, caps, the " +
    "key or the account stop the stream (`access_withdrawn` once the plan no longer includes positioning data, re-checked " +
    "every second). Resume with Last-Event-ID (or lastEventId). 1 credit per symbol to open, then 1 per " +
    "symbol per minute. Over limits.streamSymbolsConcurrent: 429 stream_limit_reached with Retry-After.",
  tags: ["Heatmap"],
  handler: async ({ query, principal, state, request: maybeRequest, requestId }) => {
    const request = httpRequestOf(maybeRequest);
    const { hub, conn } = await openConnection({ query, principal: principal!, state, request, requestId }, "sse");
    return sseResponse(conn, hub, request);
  },
});
