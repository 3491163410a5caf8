import type { Principal } from "../../accounts/types";
import { positioningStreamHub } from "./board-source";
import { knownSymbols, type PositioningState } from "./service";
import { boardQueryOf, lastEventIdOf, type StreamQuery } from "./stream-query";

/**
 * Opens a stream connection on the hub for either transport (SSE or WebSocket), after the
 * pipeline has authenticated, validated and charged the open. See docs/api.md#opening-a-stream.
 */
export async function openConnection(
  ctx: { query: StreamQuery; principal: Principal; state: PositioningState; request: Request; requestId: string },
  transport: "sse" | "ws",
) {
  const hub = positioningStreamHub(ctx.state);
  const symbols = await knownSymbols(ctx.state, ctx.query.symbols);
  let creditsRemaining: number | null = null;
  try {
    creditsRemaining = ctx.state.services.accounts.balance(ctx.principal.accountId);
  } catch {
    // The balance is shown in `connected`; an unreadable store must not stop an open already charged.
    creditsRemaining = null;
  }
  const conn = hub.open({
    principal: ctx.principal,
    symbols,
    query: boardQueryOf(ctx.query),
    requestId: ctx.requestId,
    lastEventId: lastEventIdOf(ctx.request, ctx.query),
    transport,
    creditsRemaining,
  });
  return { hub, conn };
}
