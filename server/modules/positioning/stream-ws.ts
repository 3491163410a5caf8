import { HeatmapWebSocketSchema } from "../../../lib/api/positioning";
import { credentialsOf, requireWebSocketUpgrade, webSocketResponse } from "../../streams/ws-upgrade";
import { PER_SYMBOL_STREAM, STREAM_ROUTE } from "../stream-route";
import { positioningRoute } from "./positioning-route";
import { httpRequestOf } from "../http-request";
import { openConnection } from "./open-stream";
import { streamQuery, symbolsPerStream } from "./stream-query";

/**
 * `GET /v1/stream/ws`: the same stream over WebSocket (crossws). The upgrade request goes through
 * the same pipeline (auth, validation, entitlement, the opening debit), so a refused open is a
 * plain HTTP JSON error instead of a handshake. See docs/api.md#stream-websocket.
 */
export const streamWsRoute = positioningRoute({
  ...STREAM_ROUTE,
  ...PER_SYMBOL_STREAM,
  host: "base",
  module: "positioning",
  path: "/v1/stream/ws",
  operationId: "streamHeatmapWebSocket",
  entitlement: "positioning",
  credentials: credentialsOf,
  query: streamQuery,
  symbolsLimit: { param: "symbols", max: symbolsPerStream },
  data: HeatmapWebSocketSchema,
  summary: "Live stream over WebSocket",
  description:
    'The /v1/stream events as WebSocket text messages {id, event, data}; keep-alives are {"event":"ping"}. Authenticate with ' +
    'the Authorization header or, from a browser, the subprotocols ["optionscope.stream.v1", "bearer.<API_KEY>"]. Resume ' +
    "with lastEventId. Same billing and limits as /v1/stream. A request without Upgrade gets 426 upgrade_required.",
  tags: ["Heatmap"],
  handler: async ({ query, principal, services, state, request: maybeRequest, requestId }) => {
    const request = httpRequestOf(maybeRequest);
    requireWebSocketUpgrade(request, "/v1/stream");
    const { hub, conn } = await openConnection({ query, principal: principal!, state, request, requestId }, "ws");
    // The opening debit was the route's cost (the requested symbols): what a failed handshake gets back.
    return webSocketResponse({ request, hub, conn, services, principal: principal!, refundCredits: query.symbols.length, requestId, route: "/v1/stream/ws" });
  },
});
