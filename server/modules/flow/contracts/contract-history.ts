// GET /v1/contract/{symbol}/history: one contract's session rows over a date range
// (flowseeker.yaml `getContractHistory`). @see docs/methodology.md#flow-contract-history
import { CONTRACT_HISTORY_MAX_DAYS, ContractHistoryDataSchema, ContractHistoryQuerySchema, FlowRefContractParamsSchema } from "../../../../lib/api/flow-contracts";
import { contractHistoryRow } from "../../../../lib/flow/contract-history";
import { parseOptionSymbol } from "../../../../lib/symbols";
import { etDateOf, tradingDaysBetween } from "../../../../lib/time";
import { apiErrors } from "../../../errors";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { sessionSummary, yieldToTimers } from "../sessions/session-summary";
import { FLOW_FIRST_DATE, resolveFlowContract } from "../sessions/tape";

const DAY_MS = 86_400_000;

/** The root a symbol names, for the plan's symbol check (the handler reports malformed symbols). */
function rootOf(raw: string): string {
  try {
    return parseOptionSymbol(raw.toUpperCase()).root;
  } catch {
    return raw.trim().toUpperCase();
  }
}

export const contractHistoryRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/contract/:symbol/history",
  operationId: "getContractHistory",
  cost: 5,
  query: ContractHistoryQuerySchema,
  params: FlowRefContractParamsSchema,
  symbolsOf: (_q, p) => [rootOf(p.symbol)],
  check: (q, { nowMs }) => {
    if (q.start_date < FLOW_FIRST_DATE) throw apiErrors.invalidParameter("start_date", `must not be before ${FLOW_FIRST_DATE} (got ${q.start_date}).`);
    const today = etDateOf(nowMs);
    if (q.end_date > today) throw apiErrors.invalidParameter("end_date", `must not be after today (${today}, ET).`);
    if (q.start_date > q.end_date) throw apiErrors.invalidParameter("start_date", "must not be after `end_date`.");
    const days = (Date.parse(q.end_date) - Date.parse(q.start_date)) / DAY_MS;
    if (days > CONTRACT_HISTORY_MAX_DAYS) {
      throw apiErrors.rangeTooLarge(`end_date - start_date is ${days} days; at most ${CONTRACT_HISTORY_MAX_DAYS}.`, { maxDays: CONTRACT_HISTORY_MAX_DAYS });
    }
  },
  data: ContractHistoryDataSchema,
  summary: "Daily history of one contract",
  description:
    "One row per session in `[start_date, end_date]` on which the contract traded, oldest first: premium, volume, open interest " +
    "and its change, bid, ask and mid volume and shares, sweep and multi-leg volume and shares, VWAP, last price, underlying price, " +
    "IV and trade count.",
  tags: ["Contract"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId, signal }) => {
    const { symbol, ticker } = await resolveFlowContract(state, p.symbol);
    const data = [];
    for (const date of tradingDaysBetween(q.start_date, q.end_date)) {
      await yieldToTimers();
      if (signal.aborted) throw signal.reason;
      const row = (await sessionSummary(state, ticker, date, nowMs)).contracts.find((c) => c.symbol === symbol);
      if (row) data.push(contractHistoryRow(date, row));
    }
    return { data, meta: flowMeta(services, requestId) };
  },
});
