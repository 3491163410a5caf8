// GET /v1/underlying/{ticker}/stats, /v1/underlying/bulk/stats and /v1/underlying/{ticker}/expirations:
// one session's totals and per-expiration totals of a ticker's options flow (flowseeker.yaml
// `getUnderlyingStats`, `getUnderlyingBulkStats`, `getUnderlyingExpirations`). @see docs/methodology.md#flow-ticker-stats-and-expirations
import {
  FlowTickerParamsSchema,
  SessionDateQuerySchema,
  UnderlyingBulkStatsDataSchema,
  UnderlyingBulkStatsQuerySchema,
  UnderlyingExpirationsDataSchema,
  UnderlyingStatsSchema,
} from "../../../../lib/api/flow";
import { expirationTotals, tickerStats } from "../../../../lib/flow/ticker-stats";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute, type FlowState } from "../flow-route";
import { flowUniverse, resolveFlowDate, resolveFlowTicker, resolveFlowTickers, sessionTape, sessionUptoMs, tapeTrades } from "../sessions/tape";
import { tickerOfPath } from "../shared/path-symbols";

/** A ticker's stats record for a session (shared by the single and the bulk route). */
async function statsOf(state: FlowState, ticker: string, date: string, nowMs: number) {
  const tape = await sessionTape(state, ticker, date, nowMs);
  const underlying = (await flowUniverse(state)).get(ticker)?.underlying ?? ticker;
  const lastPrice = await state.services.market.spot(underlying, sessionUptoMs(date, nowMs) - 1);
  return { ticker, date, lastPrice, ...tickerStats(tapeTrades(tape)) };
}

export const underlyingStatsRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/underlying/:ticker/stats",
  operationId: "getUnderlyingStats",
  cost: 1,
  query: SessionDateQuerySchema,
  params: FlowTickerParamsSchema,
  symbolsOf: tickerOfPath,
  data: UnderlyingStatsSchema,
  summary: "Session stats of one underlying",
  description: "Premium and volume by right, net premium, call/put premium ratio, trade count and the strikes and expirations traded, for one session.",
  tags: ["Underlying"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId }) => {
    const ticker = await resolveFlowTicker(state, p.ticker);
    const date = resolveFlowDate(q.date, nowMs);
    return { data: await statsOf(state, ticker, date, nowMs), meta: flowMeta(services, requestId) };
  },
});

export const underlyingExpirationsRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/underlying/:ticker/expirations",
  operationId: "getUnderlyingExpirations",
  cost: 1,
  query: SessionDateQuerySchema,
  params: FlowTickerParamsSchema,
  symbolsOf: tickerOfPath,
  data: UnderlyingExpirationsDataSchema,
  summary: "Expirations traded on a session",
  description: "Each expiration of the ticker that traded on `date`, nearest first, with call and put volume and premium and the number of contracts traded.",
  tags: ["Underlying"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId }) => {
    const ticker = await resolveFlowTicker(state, p.ticker);
    const date = resolveFlowDate(q.date, nowMs);
    const tape = await sessionTape(state, ticker, date, nowMs);
    return { data: expirationTotals(tapeTrades(tape)), meta: flowMeta(services, requestId) };
  },
});

export const underlyingBulkStatsRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/underlying/bulk/stats",
  operationId: "getUnderlyingBulkStats",
  cost: 5,
  query: UnderlyingBulkStatsQuerySchema,
  symbolsOf: (q) => q.tickers,
  data: UnderlyingBulkStatsDataSchema,
  summary: "Session stats of several underlyings",
  description:
    "The `/v1/underlying/{ticker}/stats` record of each requested ticker that traded options on `date`, in the order asked; unknown tickers are dropped (404 when none is known).",
  tags: ["Underlying"],
  handler: async ({ query: q, state, nowMs, services, requestId, signal }) => {
    const tickers = await resolveFlowTickers(state, q.tickers);
    const date = resolveFlowDate(q.date, nowMs);
    const data = [];
    for (const t of tickers) {
      if (signal.aborted) throw signal.reason;
      const s = await statsOf(state, t, date, nowMs);
      if (s.tradeCount > 0) data.push(s);
    }
    return { data, meta: flowMeta(services, requestId) };
  },
});
