/**
 * The WebSocket flavour of any module's stream, after the route executor authenticated, validated
 * and charged the upgrade request: 426 for a request without `Upgrade`, then crossws hooks that
 * start the hub connection on `open` and refund the opening charge when the handshake never
 * completes. Shared by every stream's `/ws` twin (`/v1/stream/ws`, `/v1/flow/stream/ws`, `/v1/vol/stream/ws`).
 * See docs/api.md#stream-websocket and docs/api.md#flow-and-volatility-websocket-streams.
 */
import { setWebSocketHooks } from "crossws";
import type { Principal } from "../accounts/types";
import { ApiError } from "../errors";
import type { AppServices } from "../services";
import { refundAsyncOf, type StreamConnection } from "./connection";
import type { StreamHub } from "./stream-hub";
import { createWsSink } from "./ws-sink";

/** The subprotocol the server speaks (echoed in the handshake). */
const WS_STREAM_SUBPROTOCOL = "optionscope.stream.v1";
/** Prefix of the bearer subprotocol for clients that cannot set headers (browsers). */
const WS_BEARER_PREFIX = "bearer.";

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

/** 426 `upgrade_required` (refunded by the executor) unless the request asks for a WebSocket. */
export function requireWebSocketUpgrade(request: Request, ssePath: string): void {
  if ((request.headers.get("upgrade") ?? "").toLowerCase() !== "websocket") {
    throw new ApiError(426, "upgrade_required", `This endpoint speaks WebSocket; send an Upgrade request (or use ${ssePath} for SSE).`, {
      headers: { Upgrade: "websocket" },
    });
  }
}

/**
 * Hands `conn` to the WebSocket handshake of `request`: started on `open`, disposed on `close`,
 * aborted on `error`; if the handshake has not completed after the hub's `upgradeGraceMs`, the
 * connection is disposed and `refundCredits` (the opening debit made under `requestId`) go back.
 * Returns the route's raw response (crossws answers the upgrade itself).
 */
export function webSocketResponse(o: {
  request: Request;
  // biome-ignore lint/suspicious/noExplicitAny: a hub of any query type; the upgrade only forwards the parsed query
  hub: StreamHub<any>;
  conn: StreamConnection;
  services: AppServices;
  principal: Principal;
  refundCredits: number;
  requestId: string;
  route: string;
}): { data: null; response: Response } {
  const { request, hub, conn, principal, requestId } = o;
  let opened = false;
  let onDrain = () => {};
  const grace = setTimeout(() => {
    if (opened || conn.disposed) return;
    conn.dispose();
    refundAsyncOf(o.services.accounts, principal, o.refundCredits, { requestId, route: o.route }).then(
      () => hub.internals.log({ level: "info", msg: "stream_upgrade_refunded", requestId, accountId: principal.accountId }),
      () => hub.internals.log({ level: "error", msg: "refund_failed", requestId, accountId: principal.accountId }),
    );
  }, hub.settings.upgradeGraceMs);
  (grace as { unref?: () => void }).unref?.();
  const offered = (request.headers.get("sec-websocket-protocol") ?? "").split(",").map((p) => p.trim());
  setWebSocketHooks(request, {
    upgrade: () => (offered.includes(WS_STREAM_SUBPROTOCOL) ? { protocol: WS_STREAM_SUBPROTOCOL } : {}),
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
}
