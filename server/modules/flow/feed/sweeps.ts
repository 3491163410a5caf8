// GET /v1/sweeps/{ticker}: the session's logical sweeps (one order split across exchanges) with
// venues, premium, spread position and scores, and the day's sweep summary (spec names the
// endpoint; parameters and shape from the reference's getSweepMonitor).
import { FlowTickerParamsSchema, SweepsDataSchema, SweepsQuerySchema } from "../../../../lib/api/flow";
import { sweepItem, sweepSummary } from "../../../../lib/flow";
import { checkBounds, CONTRACT_FILTER_BOUNDS, matchesContractFilter } from "../shared/trade-filters";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { resolveFlowDate, resolveFlowTicker, sessionTape, tapeTrades } from "../sessions/tape";
import { tickerOfPath } from "../shared/path-symbols";

export const sweepsRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/sweeps/:ticker",
  operationId: "getSweepMonitor",
  cost: 3,
  query: SweepsQuerySchema,
  params: FlowTickerParamsSchema,
  symbolsOf: tickerOfPath,
  check: (q) => checkBounds(q, CONTRACT_FILTER_BOUNDS),
  data: SweepsDataSchema,
  summary: "Aggregated multi-exchange sweeps",
  description:
    "The session's sweeps (fills of one contract on one side across exchanges within a second), newest first, each with venues, " +
    "contracts, premium, spread position, moneyness and premium-weighted Flow Score; the summary counts every sweep of the day that passes the filters.",
  tags: ["Sweeps"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId }) => {
    const ticker = await resolveFlowTicker(state, p.ticker);
    const date = resolveFlowDate(q.date, nowMs);
    const tape = await sessionTape(state, ticker, date, nowMs);
    const trades = tapeTrades(tape);
    // A sweep passes when its first fill does (premium: the sweep's total).
    const groups = tape.sweeps.groups.filter((g) => {
      const first = trades[g.printIndices[0]];
      return matchesContractFilter({ ...first, premiumUsd: g.totalPremiumUsd }, q);
    });
    const page = groups.slice(-q.limit).reverse();
    return {
      data: { ticker, date, sweeps: page.map((g) => sweepItem(g, trades)), summary: sweepSummary(groups, page.length) },
      meta: flowMeta(services, requestId),
    };
  },
});
