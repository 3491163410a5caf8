// GET /v1/contract/{symbol}/rvol and /v1/underlying/{ticker}/rvol: relative-volume bars against
// the same time of day in the baseline sessions (spec "Flow endpoints", RVOL parameters; records
// "Contract RVOL response" and "Ticker RVOL response").
import type { z } from "zod";
import { ContractSymbolParamsSchema, FlowTickerParamsSchema, RvolQuerySchema } from "../../../lib/api/flow";
import { ContractRvolSchema, rvol, rvolSessions, TickerRvolSchema, type RvolSession } from "../../../lib/flow";
import { rootOfSymbol } from "./contract-ratio";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute, type FlowState } from "./flow-route";
import { yieldToTimers } from "./session-summary";
import { FLOW_FIRST_DATE, resolveFlowContract, resolveFlowDate, resolveFlowTicker, sessionPrints } from "./tape";

type Query = z.output<typeof RvolQuerySchema>;

/** The sessions an RVOL call reads (view and baseline), each session's prints. */
async function rvolInput(state: FlowState, ticker: string, q: Query, nowMs: number, signal: AbortSignal): Promise<{ date: string; sessions: RvolSession[] }> {
  const date = resolveFlowDate(q.date, nowMs);
  const plan = rvolSessions(date, q.interval, q.avg_period);
  const dates = [...plan.baseline, ...plan.view].filter((d) => d >= FLOW_FIRST_DATE);
  const sessions: RvolSession[] = [];
  for (const d of dates) {
    await yieldToTimers();
    if (signal.aborted) throw signal.reason;
    sessions.push({ date: d, prints: await sessionPrints(state, ticker, d, nowMs) });
  }
  return { date, sessions };
}

const options = (q: Query, date: string, nowMs: number) => ({
  date, interval: q.interval, bucket: q.bucket, avgPeriod: q.avg_period, orderBy: q.order_by, order: q.order, limit: q.limit, format: q.format, asOfMs: nowMs,
});

const DESCRIPTION =
  "Volume and premium per bar against the average of the same time of day over the `avg_period` sessions before the window, " +
  "with the window's totals and RVOL ratios. Long baselines read many sessions: the first call for a ticker can take seconds.";

export const contractRvolRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/contract/:symbol/rvol",
  operationId: "getContractRvol",
  cost: 1,
  query: RvolQuerySchema,
  params: ContractSymbolParamsSchema,
  symbolsOf: (_q, p) => [rootOfSymbol(p.symbol)],
  data: ContractRvolSchema,
  summary: "Relative-volume bars for one contract",
  description: DESCRIPTION,
  tags: ["Contracts"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId, signal }) => {
    const { symbol, ticker } = await resolveFlowContract(state, p.symbol);
    const { date, sessions } = await rvolInput(state, ticker, q, nowMs, signal);
    return { data: rvol({ kind: "contract", symbol }, sessions, options(q, date, nowMs)), meta: flowMeta(services, requestId) };
  },
});

export const underlyingRvolRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/underlying/:ticker/rvol",
  operationId: "getUnderlyingRvol",
  cost: 1,
  query: RvolQuerySchema,
  params: FlowTickerParamsSchema,
  symbolsOf: (_q, p) => [p.ticker.toUpperCase()],
  data: TickerRvolSchema,
  summary: "Relative-volume bars for a ticker",
  description: DESCRIPTION + " Ticker bars split call and put volume and carry the underlying price.",
  tags: ["Underlying"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId, signal }) => {
    const ticker = await resolveFlowTicker(state, p.ticker);
    const { date, sessions } = await rvolInput(state, ticker, q, nowMs, signal);
    return { data: rvol({ kind: "ticker" }, sessions, options(q, date, nowMs)), meta: flowMeta(services, requestId) };
  },
});
