import { HeatmapEventStreamSchema, HeatmapStreamQuerySchema } from "../../../lib/api/positioning";
import { STREAM_ROUTE } from "../stream-route";
import { sseResponse } from "../../streams/open-stream";
import { positioningRoute } from "./positioning-route";
import { httpRequestOf } from "../http-request";
import { openConnection } from "./open-stream";
import { symbolsPerStream } from "./stream-query";
import { acquireV1Slot, checkStreamFormat, streamFormatOf, streamSymbolsOf, v1Sink, v2QueryOf } from "./stream-v1";
import { positioningStreamHub } from "./board-source";

/**
 * `GET /v1/stream`: live boards as Server-Sent Events. Opening costs 1 credit per symbol, charged
 * by the pipeline before the stream starts (so a refused open is a plain JSON error, refunded);
 * then 1 credit per symbol per billing interval. `symbol=` (or `format=v1`) speaks the reference's
 * legacy v1 format (stream-v1.ts). See docs/api.md#streams and docs/api.md#v1-stream-format.
 */
export const streamRoute = positioningRoute({
  ...STREAM_ROUTE,
  cost: (q) => streamSymbolsOf(q).length,
  symbolsOf: streamSymbolsOf,
  host: "base",
  module: "positioning",
  path: "/v1/stream",
  operationId: "streamHeatmap",
  entitlement: "positioning",
  query: HeatmapStreamQuerySchema,
  symbolsLimit: { param: "symbols", max: symbolsPerStream },
  check: checkStreamFormat,
  data: HeatmapEventStreamSchema,
  summary: "Live SSE stream (up to 10 symbols per connection)",
  description:
    "Server-Sent Events of live per-strike boards: `connected` first, a `snapshot` and `velocity` per symbol whenever its board " +
    "changes (at least each new minute of the session), `credits` after each per-minute debit, `symbol_unavailable` outside the " +
    "session (still billed) or, with reason `stale` and the board's `asOf`, `ageS` and `stale: true`, when a live feed's newest " +
    "board is past the staleness limit, `: ping` every 15 s, `reconnect` after 60 minutes or on shutdown, `closed` when credits, caps, the " +
    "key or the account stop the stream (`access_withdrawn` once the plan no longer includes positioning data, re-checked " +
    "every second). Resume with Last-Event-ID (or lastEventId). 1 credit per symbol to open, then 1 per " +
    "symbol per minute. Over limits.streamSymbolsConcurrent: 429 stream_limit_reached with Retry-After. " +
    "`symbol=` (or `format=v1`) gives the reference's legacy single-symbol v1 format: `connected` {symbol, creditsRemaining}, " +
    "`initial_data`, `snapshot_update` and `velocity_update` (PascalCase keys), `credits`, `closed`, `reconnect`, `: keepalive` " +
    "every 30 s; no resume; at most 400 strikes; no expirations, includeEmpty or layout=matrix; at most 5 open v1 streams per account.",
  tags: ["Heatmap"],
  handler: async ({ query, principal, state, request: maybeRequest, requestId }) => {
    const request = httpRequestOf(maybeRequest);
    if (streamFormatOf(query) === "v2") {
      const { hub, conn } = await openConnection({ query: v2QueryOf(query), principal: principal!, state, request, requestId }, "sse");
      return sseResponse(conn, hub, request);
    }
    const hub = positioningStreamHub(state);
    const release = await acquireV1Slot(state.services.concurrency, principal!.accountId, hub.settings.limitRetryAfterS);
    try {
      const { conn } = await openConnection({ query: v2QueryOf(query), principal: principal!, state, request, requestId, resumable: false }, "sse");
      conn.addDisposer(release);
      const [symbol] = conn.symbols;
      return sseResponse(conn, hub, request, (sink) => v1Sink(sink, symbol, hub.settings.keepaliveS));
    } catch (error) {
      release();
      throw error;
    }
  },
});
