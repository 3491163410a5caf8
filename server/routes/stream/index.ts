// The stream routes: SSE at /v1/stream and the same stream over WebSocket at /v1/stream/ws.
import type { AnyRoute } from "../define-route";
import { streamRoute } from "./stream";
import { streamWsRoute } from "./stream-ws";

export { streamRoute } from "./stream";
export { credentialsOf, streamWsRoute, WS_BEARER_PREFIX, WS_SUBPROTOCOL } from "./stream-ws";

/** Every stream route. */
export const streamRoutes: AnyRoute[] = [streamRoute, streamWsRoute];
