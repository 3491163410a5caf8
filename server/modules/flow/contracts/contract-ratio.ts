// GET /v1/contract-ratio/{symbol}: one contract's bid/ask/mid distribution and interpretation
// (spec "Flow endpoints", `/v1/contract-ratio/{symbol}` parameters; record "Contract ratio").
import { ContractSymbolParamsSchema, ContractTimeframeQuerySchema } from "../../../../lib/api/flow";
import { contractRatio, ContractRatioResultSchema, timeframeWindow } from "../../../../lib/flow";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { resolveFlowContract, resolveFlowDate, sessionTape, tapeTradesInWindow } from "../sessions/tape";
import { contractRootOfPath } from "../shared/path-symbols";

export const contractRatioRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/contract-ratio/:symbol",
  operationId: "getContractRatio",
  cost: 1,
  query: ContractTimeframeQuerySchema,
  params: ContractSymbolParamsSchema,
  symbolsOf: contractRootOfPath,
  data: ContractRatioResultSchema,
  summary: "Bid/ask/mid distribution of one contract",
  description:
    "Shares of the contract's trades at or beyond the ask, at or beyond the bid and between, their aggression ratio, and a bias / " +
    "aggression / confidence interpretation, over the trailing `timeframe` of the session (`1d`: the whole session so far).",
  tags: ["Ratios"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId }) => {
    const { symbol, ticker, contract } = await resolveFlowContract(state, p.symbol);
    const date = resolveFlowDate(q.date, nowMs);
    const tape = await sessionTape(state, ticker, date, nowMs);
    const { fromMs, toMs } = timeframeWindow(date, q.timeframe, nowMs);
    const trades = tapeTradesInWindow(tape, fromMs, toMs).filter((t) => t.symbol === symbol);
    const data = contractRatio(trades, { symbol, ticker, right: contract.right, date, timeframe: q.timeframe, minPremiumUsd: q.min_premium });
    return { data, meta: flowMeta(services, requestId) };
  },
});
