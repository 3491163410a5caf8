import { setWebSocketHooks } from "crossws";
import { HeatmapWebSocketSchema } from "../../../lib/api/positioning";
import { PER_SYMBOL_STREAM, STREAM_ROUTE } from "../stream-route";
import { ApiError } from "../../errors";
import { refundAsyncOf } from "../../streams/connection";
import { createWsSink } from "../../streams/ws-sink";
import { positioningRoute } from "./positioning-route";
import { httpRequestOf } from "../http-request";
import { openConnection } from "./open-stream";
import { streamQuery, symbolsPerStream } from "./stream-query";

/** The subprotocol the server speaks (echoed in the handshake). */
export const WS_SUBPROTOCOL = "optionscope.stream.v1";
/** Prefix of the bearer subprotocol for clients that cannot set headers (browsers). */
export const WS_BEARER_PREFIX = "bearer.";

/**
 * Credentials of an upgrade request: `Authorization`, else a `bearer.<key>` entry of
 * `Sec-WebSocket-Protocol` (the form browsers can send).
 * @example credentialsOf(new Request("http://x", { headers: { "Sec-WebSocket-Protocol": "optionscope.stream.v1, bearer.osk_live_abc" } })) // "Bearer osk_live_abc"
 */
export function credentialsOf(request: Request): string | null {
  const auth = request.headers.get("authorization");
  if (auth !== null) return auth;
  const offered = (request.headers.get("sec-websocket-protocol") ?? "").split(",").map((p) => p.trim());
  const bearer = offered.find((p) => p.startsWith(WS_BEARER_PREFIX));
  return bearer ? `Bearer ${bearer.slice(WS_BEARER_PREFIX.length)}` : null;
}

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
    "The /v1/stream events as WebSocket text messages {id, event, data}; keep-alives are {\"event\":\"ping\"}. Authenticate with " +
    "the Authorization header or, from a browser, the subprotocols [\"optionscope.stream.v1\", \"bearer.<API_KEY>\"]. Resume " +
    "with lastEventId. Same billing and limits as /v1/stream. A request without Upgrade gets 426 upgrade_required.",
  tags: ["Heatmap"],
  handler: async ({ query, principal, services, state, request: maybeRequest, requestId }) => {
    const request = httpRequestOf(maybeRequest);
    if ((request.headers.get("upgrade") ?? "").toLowerCase() !== "websocket") {
      throw new ApiError(426, "upgrade_required", "This endpoint speaks WebSocket; send an Upgrade request (or use /v1/stream for SSE).", {
        headers: { Upgrade: "websocket" },
      });
    }
    const { hub, conn } = await openConnection({ query, principal: principal!, state, request, requestId }, "ws");
    let opened = false;
    let onDrain = () => {};
    // Charged at the upgrade request: refund it if the handshake never completes.
    // The opening debit was made under `requestId` for the route's cost (the requested symbols),
    // so that is what goes back (a refund never exceeds the request's net debit).
    const grace = setTimeout(() => {
      if (opened || conn.disposed) return;
      conn.dispose();
      refundAsyncOf(services.accounts, principal!, query.symbols.length, { requestId, route: "/v1/stream/ws" }).then(
        () => hub.internals.log({ level: "info", msg: "stream_upgrade_refunded", requestId, accountId: principal!.accountId }),
        () => hub.internals.log({ level: "error", msg: "refund_failed", requestId, accountId: principal!.accountId }),
      );
    }, hub.settings.upgradeGraceMs);
    (grace as { unref?: () => void }).unref?.();
    const offered = (request.headers.get("sec-websocket-protocol") ?? "").split(",").map((p) => p.trim());
    setWebSocketHooks(request, {
      upgrade: () => (offered.includes(WS_SUBPROTOCOL) ? { protocol: WS_SUBPROTOCOL } : {}),
      open(peer) {
        opened = true;
        clearTimeout(grace);
        const ws = createWsSink(peer as never, hub.settings.wsHighWaterBytes);
        onDrain = ws.onDrain;
        conn.start(ws.sink, hub.lifeNow());
      },
      drain: () => onDrain(),
      close: () => conn.dispose(),
      error: () => conn.abort(),
    });
    return { data: null, response: new Response(null, { status: 426, headers: { Upgrade: "websocket" } }) };
  },
});
