/**
 * `GET /v1/flow/stream/ws`: the flow stream (`/v1/flow/stream`) over WebSocket, one JSON text
 * message `{id, event, data}` per event. Same query, billing (1 to open, 1 per minute), flow
 * stream cap, resume and closes as the SSE flavour; the upgrade request goes through the route
 * pipeline, so a refused open is the HTTP error on the handshake. See
 * docs/api.md#flow-and-volatility-websocket-streams.
 */
import { FlowStreamQuerySchema, FlowStreamWebSocketSchema, type FlowStreamQuery } from "../../../../lib/api/flow-stream";
import { credentialsOf, requireWebSocketUpgrade, webSocketResponse } from "../../../streams/ws-upgrade";
import { httpRequestOf } from "../../http-request";
import { STREAM_ROUTE } from "../../stream-route";
import { FLOW_ROUTE_DEFAULTS, flowRoute } from "../flow-route";
import { openFlowConnection, type FlowStreamContext } from "./flow-stream";
import { checkStreamQuery } from "./flow-stream-filter";

const FLOW_STREAM_WS_PATH = "/v1/flow/stream/ws";

async function openFlowWebSocket(ctx: FlowStreamContext) {
  requireWebSocketUpgrade(httpRequestOf(ctx.request), "/v1/flow/stream");
  const { hub, conn, request } = await openFlowConnection(ctx, "ws");
  // The opening debit (the route's cost, 1) goes back if the handshake never completes.
  return webSocketResponse({
    request,
    hub,
    conn,
    services: ctx.services,
    principal: ctx.principal!,
    refundCredits: 1,
    requestId: ctx.requestId,
    route: FLOW_STREAM_WS_PATH,
  });
}

export const flowStreamWsRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  ...STREAM_ROUTE,
  // Held for up to an hour, as the SSE flavour: no request time limit and no in-flight query slot.
  concurrency: undefined,
  timeoutMs: undefined,
  path: FLOW_STREAM_WS_PATH,
  operationId: "streamFlowWebSocket",
  cost: 1,
  credentials: credentialsOf,
  symbolsOf: (q: FlowStreamQuery) => q.ticker ?? [],
  check: checkStreamQuery,
  query: FlowStreamQuerySchema,
  data: FlowStreamWebSocketSchema,
  summary: "Live scored options trades across tickers (WebSocket)",
  description:
    'The /v1/flow/stream events as WebSocket text messages {id, event, data}; keep-alives are {"event":"ping"}. Authenticate with ' +
    'the Authorization header or, from a browser, the subprotocols ["optionscope.stream.v1", "bearer.<API_KEY>"]. Resume with ' +
    "lastEventId. Same filters, billing (1 credit to open, then 1 per minute) and limits (5 flow streams per account) as " +
    "/v1/flow/stream. A request without Upgrade gets 426 upgrade_required (refunded).",
  tags: ["Streaming"],
  handler: openFlowWebSocket,
});
