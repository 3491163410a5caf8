import type { Principal } from "../../accounts/types";
import { openOnHub } from "../../streams/open-stream";
import { positioningStreamHub } from "./board-source";
import { knownSymbols, type PositioningState } from "./service";
import { boardQueryOf, type StreamQuery } from "./stream-query";

/**
 * Opens a live-board connection for either transport (SSE or WebSocket), after the executor has
 * authenticated, validated and charged the open. See docs/api.md#opening-a-stream.
 */
export async function openConnection(
  ctx: { query: StreamQuery; principal: Principal; state: PositioningState; request: Request; requestId: string; resumable?: boolean },
  transport: "sse" | "ws",
) {
  // A stream that does not resume (the v1 format) reads no cursor: neither `Last-Event-ID` nor `lastEventId`.
  const resumable = ctx.resumable !== false;
  const hub = positioningStreamHub(ctx.state);
  const symbols = await knownSymbols(ctx.state, ctx.query.symbols);
  const conn = await openOnHub(
    hub,
    ctx.state.services,
    {
      principal: ctx.principal,
      symbols,
      query: boardQueryOf(ctx.query),
      request: resumable ? ctx.request : new Request(ctx.request.url),
      requestId: ctx.requestId,
      cursor: resumable ? ctx.query.lastEventId : undefined,
      access: { entitlement: "positioning", symbols },
    },
    transport,
  );
  return { hub, conn };
}
