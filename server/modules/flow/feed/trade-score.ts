// GET /v1/score/{trade_id}: one trade's scores, interpretation, spread analysis and context
// (flowseeker.yaml `getTradeScore`). Our ids name the root and minute of the tape; the reference's
// time forms name a print's exact nanosecond, found among the served tickers' prints of that
// millisecond (only the tickers a finished session's print-time index names).
// @see docs/methodology.md#flow-trade-score, docs/methodology.md#flow-trade-id-forms, docs/methodology.md#flow-print-time-index
import { tradeScore, TradeScoreSchema } from "../../../../lib/flow";
import { parseTradeRef, type TradeRef } from "../../../../lib/flow/trade-id";
import { TradeScoreParamsSchema, TradeScoreQuerySchema } from "../../../../lib/api/flow-feed";
import type { Principal } from "../../../accounts/types";
import { ApiError, apiErrors } from "../../../errors";
import type { AppServices } from "../../../services";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute, type FlowState } from "../flow-route";
import { tickersPrintingAt } from "../sessions/print-time-index";
import { flowUniverse, resolveFlowInstantDate, sessionTape, sessionUptoMs, tapeIndexAt, tapeTrades } from "../sessions/tape";

const FORMS = "our `tradeId` (ROOT-<epoch minute>-<n>), `flow_<hex nanoseconds>_<index>`, a bare hex nanosecond time, or raw nanoseconds (18-19 digits)";

/** The ticker whose tape carries a root (itself, or the universe entry listing it), or null. */
async function tickerOfRoot(state: FlowState, root: string): Promise<string | null> {
  const universe = await flowUniverse(state);
  return universe.has(root) ? root : ([...universe.values()].find((s) => s.optionRoots.includes(root))?.ticker ?? null);
}

/**
 * The ticker and print id of a time reference: the prints stamped exactly `tsNs` across the served
 * tickers (universe order, then tape order, each print once); the `index`-th of them.
 */
async function locateByTime(state: FlowState, ref: Extract<TradeRef, { kind: "time" }>, raw: string, nowMs: number) {
  const ms = Number(BigInt(ref.tsNs) / 1_000_000n);
  const date = resolveFlowInstantDate(ms, nowMs, "trade_id");
  if (ms >= sessionUptoMs(date, nowMs)) throw notFound(raw, `no print at that time (the session of ${date} has not reached it).`);
  const seen = new Set<string>();
  const hits: { ticker: string; id: string }[] = [];
  // A finished session's print-time index names the tickers printing in that millisecond; else every ticker is read.
  const tickers = (await tickersPrintingAt(state, date, ms, nowMs)) ?? [...(await flowUniverse(state)).keys()];
  for (const ticker of tickers) {
    for (const p of await state.services.market.optionPrints(ticker, ms, ms + 1)) {
      if (p.tsNs === ref.tsNs && !seen.has(p.id)) {
        seen.add(p.id);
        hits.push({ ticker, id: p.id });
      }
    }
    if (hits.length > ref.index) break;
  }
  const hit = hits[ref.index];
  if (!hit) throw notFound(raw, `no print with index ${ref.index} at ${ref.tsNs} ns (${hits.length} printed at that time).`);
  return { ...hit, date, minuteMs: ms - (ms % 60_000) };
}

function notFound(raw: string, why: string): ApiError {
  return new ApiError(404, "not_found", `Unknown trade_id "${raw.slice(0, 40)}": ${why} Accepted forms: ${FORMS}.`);
}

/** 403 when the caller's plan does not cover the ticker a time reference resolved to (refunded). */
async function assertTickerEntitled(services: AppServices, principal: Principal | null, ticker: string): Promise<void> {
  if (principal) await services.accounts.assertEntitled(principal, "flow", [ticker]);
}

export const tradeScoreRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/score/:trade_id",
  operationId: "getTradeScore",
  cost: 1,
  query: TradeScoreQuerySchema,
  params: TradeScoreParamsSchema,
  symbolsOf: (_q, p) => {
    const ref = parseTradeRef(p.trade_id);
    return ref?.kind === "feed" ? [ref.root] : [];
  },
  data: TradeScoreSchema,
  summary: "Scoring detail of one trade",
  description:
    "The sentiment (its Flow Score), urgency and confidence of one trade from the flow feed, its direction and intent, where it " +
    "printed in the spread and its context (contract, premium, size, sweep or block, DTE, moneyness). `trade_id` is the feed's " +
    "`tradeId`, or the print's exact time as `flow_<hex nanoseconds>_<index>`, bare hex nanoseconds or decimal nanoseconds.",
  tags: ["Scoring"],
  handler: async ({ params: p, state, nowMs, services, requestId, principal }) => {
    const raw = p.trade_id.trim();
    const ref = parseTradeRef(raw);
    if (!ref) throw apiErrors.invalidParameter("trade_id", `must be ${FORMS}.`);
    let ticker: string;
    let id: string;
    let date: string;
    let minuteMs: number;
    if (ref.kind === "feed") {
      const t = await tickerOfRoot(state, ref.root);
      if (!t) throw new ApiError(404, "symbol_not_found", `Unknown trade_id "${raw.slice(0, 32)}": its root ${ref.root} is not served.`);
      ({ id, minuteMs } = ref);
      ticker = t;
      date = resolveFlowInstantDate(minuteMs, nowMs, "trade_id");
    } else {
      ({ ticker, id, date, minuteMs } = await locateByTime(state, ref, raw, nowMs));
      await assertTickerEntitled(services, principal, ticker);
    }
    const tape = await sessionTape(state, ticker, date, nowMs);
    const trades = tapeTrades(tape);
    for (let i = tapeIndexAt(tape, minuteMs), hi = tapeIndexAt(tape, minuteMs + 60_000); i < hi; i++) {
      if (trades[i].id.toUpperCase() === id.toUpperCase()) return { data: tradeScore(trades[i], ticker), meta: flowMeta(services, requestId) };
    }
    throw new ApiError(404, "not_found", `No trade ${raw.slice(0, 40)} on the ${ticker} tape of ${date} (trade_id: ${FORMS}).`);
  },
});
