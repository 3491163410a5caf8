// GET /v1/sweeps/{ticker}: the session's logical sweeps (one order split across exchanges) with
// venues, premium, spread position and scores, and the day's sweep summary (spec names the
// endpoint; parameters and shape from the reference's getSweepMonitor).
import { z } from "zod";
import { sweepItem, SweepItemSchema, sweepSummary, SweepSummarySchema } from "../../../lib/flow";
import { intParam } from "../params";
import { tickerParams } from "./chain-ratio";
import { checkBounds, CONTRACT_FILTER_BOUNDS, contractFilterShape, matchesContractFilter, sessionDateParam, timeframeParam } from "./feed-params";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "./flow-route";
import { resolveFlowDate, resolveFlowTicker, sessionTape, tapeTrades } from "./tape";

export const sweepsRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/sweeps/:ticker",
  operationId: "getSweepMonitor",
  cost: 3,
  query: z.object({
    timeframe: timeframeParam("1h").meta({ description: "Accepted for the reference's clients; sweeps cover the whole session (so far)." }),
    ...contractFilterShape,
    limit: intParam({ min: 1, max: 500, default: 100, description: "Sweeps returned, newest first." }),
    date: sessionDateParam(),
  }),
  params: tickerParams,
  symbolsOf: (_q, p) => [p.ticker.toUpperCase()],
  check: (q) => checkBounds(q, CONTRACT_FILTER_BOUNDS),
  data: z.object({ ticker: z.string(), date: z.string(), sweeps: z.array(SweepItemSchema), summary: SweepSummarySchema }),
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
