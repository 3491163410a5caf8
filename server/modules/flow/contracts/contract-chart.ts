// GET /v1/contract/{symbol}/chart: zero-filled bars of one contract's volume and premium by
// execution side, with session-to-date totals, VWAP and IV (flowseeker.yaml `getContractChart`).
// Priced 3 credits per started 30 trading days.
// @see docs/methodology.md#flow-chart-bars
import { barIntervals, contractBars, withBaselines, type ScoredTrade } from "../../../../lib/flow";
import { chartCost, ChartQuerySchema, ContractChartDataSchema } from "../../../../lib/api/flow-charts";
import { FlowRefContractParamsSchema } from "../../../../lib/api/flow-contracts";
import { cachedChartBaselines } from "../shared/chart-baseline-cache";
import { chartSessions, checkChartRange } from "../shared/chart-window";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { yieldToTimers } from "../sessions/session-summary";
import { resolveFlowContract, sessionTape, tapeTrades } from "../sessions/tape";
import { contractRootOfPath } from "../shared/path-symbols";

export const contractChartRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/contract/:symbol/chart",
  operationId: "getContractChart",
  cost: (q) => chartCost(q.interval),
  query: ChartQuerySchema,
  params: FlowRefContractParamsSchema,
  symbolsOf: contractRootOfPath,
  check: checkChartRange,
  data: ContractChartDataSchema,
  summary: "Chart bars of one contract",
  description:
    "Every bar of the last `interval` trading days at `bucket` size, oldest first and zero-filled: the contract's volume and premium " +
    "at each execution side (below bid to above ask, and no quote), single-leg volume, the session's volume and premium through the " +
    "bar, the bar's VWAP and last IV. `avgVolume`/`avgPremium`: the average of the bar's time of day over the 30 sessions before the window (omitted without history). " +
    "Priced 3 credits per started 30 trading days.",
  tags: ["Contract"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId, signal }) => {
    const { symbol, ticker } = await resolveFlowContract(state, p.symbol);
    const sessions = chartSessions(q.interval, nowMs);
    const trades: ScoredTrade[] = [];
    for (const s of sessions) {
      await yieldToTimers();
      if (signal.aborted) throw signal.reason;
      const tape = await sessionTape(state, ticker, s.date, nowMs, { cache: s === sessions[sessions.length - 1] });
      for (const t of tapeTrades(tape)) if (t.symbol === symbol) trades.push(t);
    }
    const baselines = await cachedChartBaselines(
      state,
      ticker,
      { kind: "contract", symbol },
      sessions.map((s) => s.date),
      q.bucket,
      nowMs,
      signal,
    );
    return { data: withBaselines(contractBars(trades, barIntervals(sessions, q.bucket)), baselines), meta: flowMeta(services, requestId) };
  },
});
