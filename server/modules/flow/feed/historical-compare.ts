// GET /v1/flow/{ticker}/historical-compare: a session's premium, volume, net premium and call/put
// ratio against the 20 sessions before it (flowseeker.yaml `getFlowHistoricalCompare`).
// @see docs/methodology.md#flow-historical-compare
import { dayMetrics, historicalCompare, HISTORICAL_COMPARE_PARAMS } from "../../../../lib/flow";
import { FlowRefTickerParamsSchema, HistoricalCompareDataSchema, HistoricalCompareQuerySchema } from "../../../../lib/api/flow-feed";
import { previousTradingDay } from "../../../../lib/time";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { sessionSummary, summariesByDate } from "../sessions/session-summary";
import { FLOW_FIRST_DATE, resolveFlowDate, resolveFlowTicker } from "../sessions/tape";
import { tickerOfPath } from "../shared/path-symbols";

export const historicalCompareRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/flow/:ticker/historical-compare",
  operationId: "getFlowHistoricalCompare",
  cost: 5,
  query: HistoricalCompareQuerySchema,
  params: FlowRefTickerParamsSchema,
  symbolsOf: tickerOfPath,
  data: HistoricalCompareDataSchema,
  summary: "A session's flow against its trailing average",
  description:
    "The session's total, call and put premium, volume, net premium (calls minus puts) and call/put volume ratio; the averages " +
    `over the ${HISTORICAL_COMPARE_PARAMS.lookbackSessions} sessions before it; multiples of the average; percentile ranks; and the ` +
    `${HISTORICAL_COMPARE_PARAMS.similarDays} most similar of those sessions.`,
  tags: ["Flow"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId, signal }) => {
    const ticker = await resolveFlowTicker(state, p.ticker);
    const date = resolveFlowDate(q.date, nowMs);
    const past: string[] = [];
    for (let d = previousTradingDay(date); past.length < HISTORICAL_COMPARE_PARAMS.lookbackSessions && d >= FLOW_FIRST_DATE; d = previousTradingDay(d)) past.unshift(d);
    const current = dayMetrics((await sessionSummary(state, ticker, date, nowMs)).row);
    const history = (await summariesByDate(state, ticker, past, nowMs, signal)).map((s) => ({ date: s.date, ...dayMetrics(s.row) }));
    return { data: { ticker, date, ...historicalCompare(current, history) }, meta: flowMeta(services, requestId) };
  },
});
