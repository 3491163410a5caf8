import type { z } from "zod";
import { VOL_SYMBOLS_PER_CALL, VolEventStreamSchema, VolStreamQuerySchema, VolStreamWebSocketSchema } from "../../../lib/api/vol";
import type { Principal } from "../../accounts/types";
import { apiErrors } from "../../errors";
import { openOnHub, sseResponse } from "../../streams/open-stream";
import { credentialsOf, requireWebSocketUpgrade, webSocketResponse } from "../../streams/ws-upgrade";
import type { RouteContext } from "../define-route";
import { httpRequestOf } from "../http-request";
import { PER_SYMBOL_STREAM, STREAM_ROUTE } from "../stream-route";
import { VOL_MARKET_TOPIC, volStreamHub } from "./vol-source";
import { volRoute, type VolState } from "./vol-route";

type VolStreamQueryParams = z.output<typeof VolStreamQuerySchema>;

/** The market topic is one more stream symbol: 1 credit more to open (docs/api.md#volatility-stream). */
const volStreamOpenCost = (q: VolStreamQueryParams): number => q.symbols.length + (q.market ? 1 : 0);

/** Admit the request's covered symbols on the volatility hub for either transport (not started). */
async function openVolConnection(ctx: RouteContext<VolStreamQueryParams, unknown, VolState>, transport: "sse" | "ws") {
  const { query, principal, state, requestId } = ctx;
  const request = httpRequestOf(ctx.request);
  const covered = await state.coverage.all();
  const symbols = query.symbols.filter((s) => covered.has(s));
  if (symbols.length === 0) throw apiErrors.symbolNotFound(query.symbols);
  const hub = volStreamHub(state);
  // `market=true`: the S&P complex is one more topic, billed and limited as a symbol.
  const topics = query.market ? [...symbols, VOL_MARKET_TOPIC] : symbols;
  const q = { modules: query.modules, market: query.market, symbols };
  // Access is re-checked while the stream lives: a plan that drops volatility data closes `access_withdrawn`.
  const access = { entitlement: "volatility", symbols } as const;
  const conn = await openOnHub(
    hub,
    state.services,
    { principal: principal!, symbols: topics, query: q, request, requestId, cursor: query.lastEventId, access },
    transport,
  );
  return { hub, conn, request };
}

/** Admit the request's covered symbols on the volatility hub and start the SSE stream. */
async function openVolStream(ctx: RouteContext<VolStreamQueryParams, unknown, VolState>) {
  const { hub, conn, request } = await openVolConnection(ctx, "sse");
  return sseResponse(conn, hub, request);
}

/** `/v1/vol/stream/ws`: the same admission, then the WebSocket handshake (docs/api.md#flow-and-volatility-websocket-streams). */
async function openVolWebSocket(ctx: RouteContext<VolStreamQueryParams, unknown, VolState>) {
  requireWebSocketUpgrade(httpRequestOf(ctx.request), "/v1/vol/stream");
  const { hub, conn, request } = await openVolConnection(ctx, "ws");
  // The opening debit (the route's cost: 1 per requested symbol, 1 more for the market topic) is
  // what a failed handshake gets back.
  const refundCredits = volStreamOpenCost(ctx.query);
  return webSocketResponse({
    request,
    hub,
    conn,
    services: ctx.services,
    principal: ctx.principal!,
    refundCredits,
    requestId: ctx.requestId,
    route: "/v1/vol/stream/ws",
  });
}

/**
 * `GET /v1/vol/stream`: live volatility readings as Server-Sent Events on the positioning stream's
 * machinery (billing, resume, limits). 1 credit per symbol to open, then 1 per symbol per minute.
 * See docs/api.md#volatility-stream.
 */
export const volStreamRoute = volRoute({
  ...STREAM_ROUTE,
  ...PER_SYMBOL_STREAM,
  cost: volStreamOpenCost,
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
    "with the requested modules) each time its board minute changes, `symbol_unavailable` when a symbol has no board " +
    "(reason `stale`, with `asOf`, `ageS` and `stale: true`, when a live feed's newest board is past the staleness limit), " +
    "a `market` event (the /v1/vol/market object) each time SPXW's board minute changes with market=true (billed as one more symbol), " +
    "`credits` after each per-minute debit, `: ping` every 15 s, `reconnect` after 60 minutes or on shutdown, `closed` when " +
    "credits, caps, the key or the account stop the stream, or `access_withdrawn` when the plan stops including volatility data (re-checked every second). Resume with Last-Event-ID (or lastEventId). 1 credit per " +
    "symbol to open, then 1 per symbol per minute.",
  tags: ["Streaming"],
  handler: openVolStream,
});

/**
 * `GET /v1/vol/stream/ws`: the volatility stream over WebSocket, one JSON text message
 * `{id, event, data}` per event, with the SSE flavour's query, billing, resume and limits.
 * See docs/api.md#flow-and-volatility-websocket-streams.
 */
export const volStreamWsRoute = volRoute({
  ...volStreamRoute,
  path: "/v1/vol/stream/ws",
  operationId: "streamVolWebSocket",
  credentials: credentialsOf,
  data: VolStreamWebSocketSchema,
  summary: "Live volatility readings (WebSocket, up to 10 symbols per connection)",
  description:
    'The /v1/vol/stream events as WebSocket text messages {id, event, data}; keep-alives are {"event":"ping"}. Authenticate with ' +
    'the Authorization header or, from a browser, the subprotocols ["optionscope.stream.v1", "bearer.<API_KEY>"]. Resume with ' +
    "lastEventId. Same billing (1 credit per symbol to open, then 1 per symbol per minute) and limits as /v1/vol/stream. A request " +
    "without Upgrade gets 426 upgrade_required (refunded).",
  handler: openVolWebSocket,
});
