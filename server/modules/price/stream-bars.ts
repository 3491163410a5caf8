import type { z } from "zod";
import { BarEventStreamSchema, BarStreamQuerySchema, MAX_BAR_STREAM_SYMBOLS } from "../../../lib/api/price";
import { PER_SYMBOL_STREAM, STREAM_ROUTE } from "../stream-route";
import type { Principal } from "../../accounts/types";
import { apiErrors } from "../../errors";
import { openOnHub, sseResponse } from "../../streams/open-stream";
import { httpRequestOf } from "../http-request";
import { priceStreamHub } from "./bar-stream-source";
import type { RouteContext } from "../define-route";
import { priceRoute, type PriceState } from "./price-route";

type BarStreamQuery = z.output<typeof BarStreamQuerySchema>;

/** Admit the request's known symbols on the bar hub and start the SSE stream. */
async function openBarStream(ctx: RouteContext<BarStreamQuery, unknown, PriceState>) {
  const { query, principal, state, requestId } = ctx;
  const request = httpRequestOf(ctx.request);
  const known: string[] = [];
  for (const s of query.symbols) if (await state.services.market.symbolInfo(s)) known.push(s);
  if (known.length === 0) throw apiErrors.symbolNotFound(query.symbols);
  const hub = priceStreamHub(state);
  const conn = await openOnHub(
    hub,
    state.services,
    {
      principal: principal!,
      symbols: known,
      query: { resolution: query.resolution },
      request,
      requestId,
      cursor: query.lastEventId,
      access: { entitlement: "price", symbols: known },
    },
    "sse",
  );
  return sseResponse(conn, hub, request);
}

/**
 * `GET /v1/stream/bars` on {atlas_url}: live OHLCV bars as Server-Sent Events, on the same stream
 * machinery as `/v1/stream` (billing, resume, limits). 1 credit per symbol to open, then 1 per
 * symbol per minute. See docs/api.md#bar-stream.
 */
export const streamBarsRoute = priceRoute({
  ...STREAM_ROUTE,
  ...PER_SYMBOL_STREAM,
  host: "atlas",
  module: "price",
  path: "/v1/stream/bars",
  operationId: "streamBars",
  entitlement: "price",
  query: BarStreamQuerySchema,
  symbolsLimit: { param: "symbols", max: (p: Principal) => Math.min(MAX_BAR_STREAM_SYMBOLS, p.limits.symbolsPerStream) },
  data: BarEventStreamSchema,
  summary: "Live OHLCV bars (SSE, up to 10 symbols per connection)",
  description:
    "Server-Sent Events of live bars at one resolution: `connected` first, then a `bar` per symbol whenever its latest bar " +
    "changes (each completed minute while it trades; the extended session, 04:00-20:00 ET, for ETFs and stocks), " +
    "`symbol_unavailable` before the session's first bar, `credits` after each per-minute debit, `: ping` every 15 s, " +
    "`reconnect` after 60 minutes or on shutdown, `closed` when credits, caps, the key or the account stop the stream (`access_withdrawn` once the plan no longer " +
    "includes price data, re-checked every second). Resume " +
    "with Last-Event-ID (or lastEventId). 1 credit per symbol to open, then 1 per symbol per minute.",
  tags: ["Streaming"],
  handler: openBarStream,
});
