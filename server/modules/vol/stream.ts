import type { z } from "zod";
import { VOL_SYMBOLS_PER_CALL, VolEventStreamSchema, VolStreamQuerySchema } from "../../../lib/api/vol";
import type { Principal } from "../../accounts/types";
import { apiErrors } from "../../errors";
import { openOnHub, sseResponse } from "../../streams/open-stream";
import type { RouteContext } from "../define-route";
import { httpRequestOf } from "../http-request";
import { PER_SYMBOL_STREAM, STREAM_ROUTE } from "../stream-route";
import { VOL_MARKET_TOPIC, volStreamHub } from "./vol-source";
import { volRoute, type VolState } from "./vol-route";

type VolStreamQueryParams = z.output<typeof VolStreamQuerySchema>;

/** Admit the request's covered symbols on the volatility hub and start the SSE stream. */
async function openVolStream(ctx: RouteContext<VolStreamQueryParams, unknown, VolState>) {
  const { query, principal, state, requestId } = ctx;
  const request = httpRequestOf(ctx.request);
  const covered = await state.coverage.all();
  const symbols = query.symbols.filter((s) => covered.has(s));
  if (symbols.length === 0) throw apiErrors.symbolNotFound(query.symbols);
  const hub = volStreamHub(state);
  // `market=true`: the S&P complex is one more topic, billed and limited as a symbol.
  const topics = query.market ? [...symbols, VOL_MARKET_TOPIC] : symbols;
  const q = { modules: query.modules, market: query.market, symbols };
  const conn = await openOnHub(hub, state.services, { principal: principal!, symbols: topics, query: q, request, requestId, cursor: query.lastEventId }, "sse");
  // Access is re-checked every minute: a plan that drops volatility data closes `access_withdrawn`.
  conn.requireEntitlement("volatility");
  return sseResponse(conn, hub, request);
}

/**
 * `GET /v1/vol/stream`: live volatility readings as Server-Sent Events on the positioning stream's
 * machinery (billing, resume, limits). 1 credit per symbol to open, then 1 per symbol per minute.
 * See docs/api.md#volatility-stream.
 */
export const volStreamRoute = volRoute({
  ...STREAM_ROUTE,
  ...PER_SYMBOL_STREAM,
  // The market topic is one more stream symbol: 1 credit more to open (docs/api.md#volatility-stream).
  cost: (q: VolStreamQueryParams) => q.symbols.length + (q.market ? 1 : 0),
  host: "base",
  module: "volatility",
  path: "/v1/vol/stream",
  operationId: "streamVol",
  entitlement: "volatility",
  query: VolStreamQuerySchema,
  symbolsLimit: { param: "symbols", max: (p: Principal) => Math.min(VOL_SYMBOLS_PER_CALL, p.limits.symbolsPerStream) },
  data: VolEventStreamSchema,
  summary: "Live volatility readings (SSE, up to 10 symbols per connection)",
  description:
    "Server-Sent Events: `connected` first, then a `vol` event per symbol (a data.symbols[] element of /v1/vol/snapshot " +
    "with the requested modules) each time its board minute changes, `symbol_unavailable` when a symbol has no board, " +
    "a `market` event (the /v1/vol/market object) each time SPXW's board minute changes with market=true (billed as one more symbol), " +
    "`credits` after each per-minute debit, `: ping` every 15 s, `reconnect` after 60 minutes or on shutdown, `closed` when " +
    "credits, caps, the key or the account stop the stream, or `access_withdrawn` when the plan stops including volatility data (re-checked every minute). Resume with Last-Event-ID (or lastEventId). 1 credit per " +
    "symbol to open, then 1 per symbol per minute.",
  tags: ["Streaming"],
  handler: openVolStream,
});
