/**
 * Opening a stream on any module's hub, after the route executor authenticated, validated and
 * charged the open: the resume cursor, the balance for `connected`, and the SSE response.
 * See docs/api.md#opening-a-stream.
 */
import type { Entitlement, Principal } from "../accounts/types";
import type { AppServices } from "../services";
import { createSseSink, SSE_HEADERS } from "./sse-response";
import type { StreamConnection } from "./connection";
import type { StreamSink } from "./sink";
import type { StreamHub } from "./stream-hub";

/** The resume cursor of a request: the `Last-Event-ID` header first, then `lastEventId`; empty counts as absent. */
function lastEventIdOf(request: Request, queryCursor: string | undefined): string | null {
  const header = request.headers.get("last-event-id");
  if (header !== null && header.trim() !== "") return header.trim();
  return queryCursor && queryCursor.trim() !== "" ? queryCursor.trim() : null;
}

/** What a stream's data needs of the plan: its route's entitlement, for the symbols it streams. */
export interface StreamAccess {
  entitlement: Exclude<Entitlement, "none">;
  symbols: readonly string[];
}

/**
 * Open a connection on `hub` for either transport (not started yet). `access` is re-checked for
 * as long as the stream lives (`StreamConnection.requireEntitlement`).
 */
export async function openOnHub<Q>(
  hub: StreamHub<Q>,
  services: AppServices,
  o: { principal: Principal; symbols: string[]; query: Q; request: Request; requestId: string; cursor: string | undefined; access: StreamAccess },
  transport: "sse" | "ws",
): Promise<StreamConnection> {
  let creditsRemaining: number | null = null;
  try {
    creditsRemaining = await services.accounts.balance(o.principal.accountId);
  } catch {
    // The balance is shown in `connected`; an unreadable store must not stop an open already charged.
    creditsRemaining = null;
  }
  const conn = await hub.open({
    principal: o.principal,
    symbols: o.symbols,
    query: o.query,
    requestId: o.requestId,
    lastEventId: lastEventIdOf(o.request, o.cursor),
    transport,
    creditsRemaining,
  });
  conn.requireEntitlement(o.access.entitlement, o.access.symbols);
  return conn;
}

/**
 * Start `conn` over Server-Sent Events: the route's raw response, ended when the client goes.
 * `wrap` maps the frames to another wire format first (the positioning stream's v1 format).
 */
export function sseResponse(
  conn: StreamConnection,
  hub: Pick<StreamHub<unknown>, "lifeNow">,
  request: Request,
  wrap?: (sink: StreamSink) => StreamSink,
): { data: null; response: Response } {
  const created = createSseSink(() => conn.dispose());
  const { body } = created;
  const sink = wrap ? wrap(created.sink) : created.sink;
  const onAbort = () => conn.abort();
  if (request.signal?.aborted) conn.abort();
  else {
    request.signal?.addEventListener("abort", onAbort, { once: true });
    conn.addDisposer(() => request.signal?.removeEventListener("abort", onAbort));
  }
  conn.start(sink, hub.lifeNow());
  return { data: null, response: new Response(body, { status: 200, headers: SSE_HEADERS }) };
}
