import type { Principal } from "../../accounts/types";
import type { AppServices } from "../../services";
import { streamHub } from "../../streams/stream-hub";
import { knownSymbols } from "../positioning/_shared";
import { boardQueryOf, lastEventIdOf, type StreamQuery } from "./_query";

/**
 * Opens a stream connection on the hub for either transport (SSE or WebSocket), after the
 * pipeline has authenticated, validated and charged the open. See docs/api.md#opening-a-stream.
 */
export async function openConnection(
  ctx: { query: StreamQuery; principal: Principal; services: AppServices; request: Request; requestId: string },
  transport: "sse" | "ws",
) {
  const hub = streamHub(ctx.services);
  const symbols = await knownSymbols(ctx.services, ctx.query.symbols);
  let creditsRemaining: number | null = null;
  try {
    creditsRemaining = ctx.services.accounts.balance(ctx.principal.accountId);
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
