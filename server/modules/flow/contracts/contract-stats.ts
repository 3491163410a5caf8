// GET /v1/contract/{symbol}/stats and /v1/contract/bulk/stats: contracts' session rows (the
// top-contract screener's row plus its date), flowseeker.yaml `getContractStats`, `getContractBulkStats`.
// @see docs/methodology.md#flow-daily-rollups-and-the-screener
import {
  ContractBulkStatsDataSchema,
  ContractBulkStatsQuerySchema,
  ContractStatsSchema,
  ReferenceContractSymbolParamsSchema,
  SessionDateQuerySchema,
} from "../../../../lib/api/flow";
import { ApiError } from "../../../errors";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { sessionSummary } from "../sessions/session-summary";
import { resolveFlowContract, resolveFlowDate } from "../sessions/tape";
import { contractRootOfPath, rootOfSymbol } from "../shared/path-symbols";

export const contractStatsRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/contract/:symbol/stats",
  operationId: "getContractStats",
  cost: 1,
  query: SessionDateQuerySchema,
  params: ReferenceContractSymbolParamsSchema,
  symbolsOf: contractRootOfPath,
  data: ContractStatsSchema,
  summary: "Session stats of one contract",
  description:
    "Premium, volume, open interest and its change, volume at the bid, ask and mid, VWAP, last price, IV, trade count and sweep and " +
    "multi-leg volume of one contract for one session. 404 `NOT_FOUND` when it did not trade that session.",
  tags: ["Contract"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId }) => {
    const { symbol, ticker } = await resolveFlowContract(state, p.symbol);
    const date = resolveFlowDate(q.date, nowMs);
    const row = (await sessionSummary(state, ticker, date, nowMs)).contracts.find((c) => c.symbol === symbol);
    if (!row) throw new ApiError(404, "not_found", `No trades of ${symbol} on ${date}.`);
    return { data: { ...row, date }, meta: flowMeta(services, requestId) };
  },
});

export const contractBulkStatsRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/contract/bulk/stats",
  operationId: "getContractBulkStats",
  cost: 5,
  query: ContractBulkStatsQuerySchema,
  symbolsOf: (q) => [...new Set(q.symbols.map(rootOfSymbol))],
  data: ContractBulkStatsDataSchema,
  summary: "Session stats of several contracts",
  description:
    "The `/v1/contract/{symbol}/stats` record of each requested contract that traded on `date`, in the order asked; contracts of unknown roots are dropped (404 when none is known).",
  tags: ["Contract"],
  handler: async ({ query: q, state, nowMs, services, requestId, signal }) => {
    const date = resolveFlowDate(q.date, nowMs);
    const resolved = [];
    for (const raw of q.symbols) {
      try {
        resolved.push(await resolveFlowContract(state, raw, "symbols"));
      } catch (e) {
        if (e instanceof ApiError && e.code === "symbol_not_found") continue; // unknown root: dropped
        throw e;
      }
    }
    if (resolved.length === 0) throw new ApiError(404, "symbol_not_found", "None of the requested contracts belongs to a served ticker.");
    const data = [];
    for (const { symbol, ticker } of resolved) {
      if (signal.aborted) throw signal.reason;
      const row = (await sessionSummary(state, ticker, date, nowMs)).contracts.find((c) => c.symbol === symbol);
      if (row) data.push({ ...row, date });
    }
    return { data, meta: flowMeta(services, requestId) };
  },
});
