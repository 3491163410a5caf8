/**
 * `GET /v1/flow/stream`: live scored options trades across tickers as Server-Sent Events (the
 * reference's streamFlow), on the positioning stream's machinery: 1 credit to open and 1 per
 * minute, the account's stream slots plus at most 5 flow streams per account, an hour at most,
 * `Last-Event-ID` resume. Not an MCP tool (`kind: "stream"`). See docs/api.md#flow-stream.
 */
import { FLOW_STREAMS_PER_ACCOUNT, FlowStreamEventsSchema, FlowStreamQuerySchema, type FlowStreamQuery } from "../../../../lib/api/flow-stream";
import { planDefinition } from "../../../accounts/plans";
import { ApiError } from "../../../errors";
import { openOnHub, sseResponse } from "../../../streams/open-stream";
import { streamSettings } from "../../../streams/settings";
import type { RouteContext } from "../../define-route";
import { httpRequestOf } from "../../http-request";
import { STREAM_ROUTE } from "../../stream-route";
import { FLOW_ROUTE_DEFAULTS, flowRoute, type FlowState } from "../flow-route";
import { checkStreamQuery, streamFilterOf } from "./flow-stream-filter";
import { FLOW_STREAM_TOPIC, flowStreamHub, livePosition, streamTickersOf, topicQueryOf } from "./flow-stream-source";
import { flowUniverse, resolveFlowTickers } from "../sessions/tape";

/** Concurrency slot kind of open flow streams (per account). */
const SLOT_FLOW_STREAMS = "flow-streams";

function flowStreamLimit(retryAfterS: number): ApiError {
  return new ApiError(429, "stream_limit_reached", `This account may hold at most ${FLOW_STREAMS_PER_ACCOUNT} flow streams open at once.`, {
    headers: { "Retry-After": String(retryAfterS) },
    details: { retry_after: retryAfterS },
  });
}

/** The tickers the request streams: its list (known ones) or the plan's universe, by type, minus exclusions. */
async function streamTickers(ctx: RouteContext<FlowStreamQuery, unknown, FlowState>): Promise<string[]> {
  const { query: q, state, principal } = ctx;
  const universe = await flowUniverse(state);
  const listed = q.ticker ? await resolveFlowTickers(state, q.ticker, "ticker") : [...universe.keys()];
  const allowed = planDefinition(principal!.plan).symbols;
  const candidates = listed.filter((t) => !allowed || allowed.has(t)).map((t) => ({ ticker: t, type: universe.get(t)!.type }));
  const tickers = streamTickersOf(q, candidates);
  if (tickers.length === 0) {
    throw new ApiError(
      400,
      "invalid_parameter",
      "Invalid value for `exclude_ticker`: the filters leave no ticker to stream (check `ticker`, `exclude_ticker` and the show_stocks/show_etf/show_indices toggles).",
    );
  }
  return tickers;
}

/** The flow stream's query and context, as both transports' routes receive them. */
export type FlowStreamContext = RouteContext<FlowStreamQuery, unknown, FlowState>;

/**
 * Admits a flow stream for either transport (not started): its tickers, the per-account flow
 * stream slot (released with the connection), the hub connection and its live start position.
 */
export async function openFlowConnection(ctx: FlowStreamContext, transport: "sse" | "ws") {
  const { query: q, principal, state, requestId, nowMs } = ctx;
  const request = httpRequestOf(ctx.request);
  const tickers = await streamTickers(ctx);
  const hub = flowStreamHub(state);
  const retryAfterS = streamSettings(state.services).limitRetryAfterS;
  const release = await state.services.concurrency.tryAcquire(principal!.accountId, SLOT_FLOW_STREAMS, FLOW_STREAMS_PER_ACCOUNT);
  if (!release) throw flowStreamLimit(retryAfterS);
  try {
    const conn = await openOnHub(
      hub,
      state.services,
      // The OPRA agreement and the plan's tickers are re-checked while it streams.
      {
        principal: principal!,
        symbols: [FLOW_STREAM_TOPIC],
        query: topicQueryOf(tickers, streamFilterOf(q)),
        request,
        requestId,
        cursor: q.lastEventId,
        access: { entitlement: "flow", symbols: tickers },
      },
      transport,
    );
    conn.addDisposer(release);
    // Live only: a new lineage starts at the connection instant (a resumed one keeps its position).
    if (!conn.lineage.lastBoardMs.has(FLOW_STREAM_TOPIC)) conn.lineage.lastBoardMs.set(FLOW_STREAM_TOPIC, livePosition(nowMs));
    return { hub, conn, request };
  } catch (error) {
    release();
    throw error;
  }
}

async function openFlowStream(ctx: FlowStreamContext) {
  const { hub, conn, request } = await openFlowConnection(ctx, "sse");
  return sseResponse(conn, hub, request);
}

export const flowStreamRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  ...STREAM_ROUTE,
  // A stream is held for up to an hour: no request time limit and no in-flight query slot.
  concurrency: undefined,
  timeoutMs: undefined,
  path: "/v1/flow/stream",
  operationId: "streamFlow",
  cost: 1,
  symbolsOf: (q: FlowStreamQuery) => q.ticker ?? [],
  check: checkStreamQuery,
  query: FlowStreamQuerySchema,
  data: FlowStreamEventsSchema,
  summary: "Live scored options trades across tickers (SSE)",
  description:
    "Server-Sent Events of the trades that print after you connect, across every ticker unless filtered (live-feed filter names: " +
    "show_calls/show_puts, min_size/max_size, the five side toggles, ...): `connected` first, then a `trade` per scored trade once its " +
    "minute has passed on the market clock (in print order, flags sweep_trade, multi_leg and cross_trade always present), `lagged` " +
    "with the count skipped when the reader falls too far behind, `credits` after each per-minute debit, `: ping` every 15 s, " +
    "`reconnect` after 60 minutes or on shutdown, `closed` when credits, caps, the key or the account stop the stream (`access_withdrawn` once the plan or the OPRA agreement " +
    "no longer covers it, re-checked every second). Resume with " +
    "Last-Event-ID (or lastEventId) without gaps or repeats. 1 credit to open, then 1 per minute; at most 5 flow streams per account. " +
    "`limit` is refused (400): load a backlog from /v1/flow/{ticker}.",
  tags: ["Streaming"],
  handler: openFlowStream,
});
