// GET /v1/score/{trade_id}: one trade's scores, interpretation, spread analysis and context
// (flowseeker.yaml `getTradeScore`), found from the id's root and minute on that session's tape.
// @see docs/methodology.md#flow-trade-score
import { parseTradeId, tradeScore, TradeScoreSchema } from "../../../lib/flow";
import { TradeScoreParamsSchema, TradeScoreQuerySchema } from "../../../lib/api/flow-reference-2";
import { etDateOf } from "../../../lib/time";
import { ApiError, apiErrors } from "../../errors";
import { decodedPathParam } from "./dark-pool-params";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "./flow-route";
import { flowUniverse, resolveFlowDate, sessionTape, tapeIndexAt, tapeTrades } from "./tape";

export const tradeScoreRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/score/:trade_id",
  operationId: "getTradeScore",
  cost: 1,
  query: TradeScoreQuerySchema,
  params: TradeScoreParamsSchema,
  symbolsOf: (_q, p) => [parseTradeId(decodedPathParam(p.trade_id).trim().toUpperCase())?.root ?? ""].filter((s) => s !== ""),
  data: TradeScoreSchema,
  summary: "Scoring detail of one trade",
  description:
    "The sentiment (its Flow Score), urgency and confidence of one trade from the flow feed, its direction and intent, where it " +
    "printed in the spread and its context (contract, premium, size, sweep or block, DTE, moneyness). `trade_id` is the feed's `tradeId`.",
  tags: ["Scoring"],
  handler: async ({ params: p, state, nowMs, services, requestId }) => {
    const raw = decodedPathParam(p.trade_id).trim().toUpperCase();
    const id = parseTradeId(raw);
    if (!id) throw apiErrors.invalidParameter("trade_id", "must be a trade id from /v1/flow/{ticker} (`tradeId`, ROOT-<epoch minute>-<n>).");
    const universe = await flowUniverse(state);
    const ticker = universe.has(id.root) ? id.root : [...universe.values()].find((s) => s.optionRoots.includes(id.root))?.ticker;
    if (!ticker) throw new ApiError(404, "symbol_not_found", `Unknown trade_id "${raw.slice(0, 32)}": its root ${id.root} is not served.`);
    const date = resolveFlowDate(etDateOf(id.minuteMs), nowMs, "trade_id");
    const tape = await sessionTape(state, ticker, date, nowMs);
    const trades = tapeTrades(tape);
    for (let i = tapeIndexAt(tape, id.minuteMs), hi = tapeIndexAt(tape, id.minuteMs + 60_000); i < hi; i++) {
      if (trades[i].id.toUpperCase() === raw) return { data: tradeScore(trades[i], ticker), meta: flowMeta(services, requestId) };
    }
    throw new ApiError(404, "not_found", `No trade ${raw.slice(0, 32)} on the ${ticker} tape of ${date}.`);
  },
});
