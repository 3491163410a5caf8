// GET /v1/chain-bull-bear/{ticker} and /v1/contract-bull-bear/{symbol}: bull/bear pressure by
// volume with the option type folded in (calls bought and puts sold are bullish), over the trailing
// `timeframe` of a session (flowseeker.yaml `getChainBullBear`, `getContractBullBear`).
// @see docs/methodology.md#flow-bull-bear-and-baseline
import type { z } from "zod";
import {
  ChainBullBearSchema,
  ChainTimeframeQuerySchema,
  ContractBullBearSchema,
  ContractTimeframeQuerySchema,
  FlowTickerParamsSchema,
  ReferenceContractSymbolParamsSchema,
} from "../../../../lib/api/flow";
import { bullBear, timeframeWindow, type ScoredTrade } from "../../../../lib/flow";
import { checkBounds } from "../shared/trade-filters";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute, type FlowState } from "../flow-route";
import { resolveFlowContract, resolveFlowDate, resolveFlowTicker, sessionTape, tapeTradesInWindow } from "../sessions/tape";
import { contractRootOfPath, tickerOfPath } from "../shared/path-symbols";

const totals = (trades: readonly ScoredTrade[]) => ({
  tradeCount: trades.length,
  totalVolume: trades.reduce((s, t) => s + t.size, 0),
  totalPremium: Math.round(trades.reduce((s, t) => s + t.premiumUsd, 0) * 100) / 100,
});

/** Chain filters of the bull/bear read. */
interface ChainBullBearQuery {
  date?: string;
  timeframe: "5m" | "15m" | "1h" | "4h" | "1d";
  option_type: "call" | "put" | "all";
  min_premium?: number;
  min_dte?: number;
  max_dte?: number;
}

/** The chain bull/bear read of a ticker (also composed by the `flow_context` tool). */
async function chainBullBear(state: FlowState, rawTicker: string, q: ChainBullBearQuery, nowMs: number): Promise<z.output<typeof ChainBullBearSchema>> {
  const ticker = await resolveFlowTicker(state, rawTicker);
  const date = resolveFlowDate(q.date, nowMs);
  const tape = await sessionTape(state, ticker, date, nowMs);
  const { fromMs, toMs } = timeframeWindow(date, q.timeframe, nowMs);
  const right = q.option_type === "call" ? "C" : q.option_type === "put" ? "P" : null;
  const trades = tapeTradesInWindow(tape, fromMs, toMs).filter(
    (t) =>
      (right === null || t.right === right) &&
      (q.min_premium === undefined || t.premiumUsd >= q.min_premium) &&
      (q.min_dte === undefined || t.dte >= q.min_dte) &&
      (q.max_dte === undefined || t.dte <= q.max_dte),
  );
  return { ticker, date, timeframe: q.timeframe, ...totals(trades), ...bullBear(trades) };
}

export const chainBullBearRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/chain-bull-bear/:ticker",
  operationId: "getChainBullBear",
  cost: 3,
  query: ChainTimeframeQuerySchema,
  params: FlowTickerParamsSchema,
  symbolsOf: tickerOfPath,
  check: (q) => checkBounds(q, [["min_dte", "max_dte"]]),
  data: ChainBullBearSchema,
  summary: "Chain-level bull/bear pressure, call/put aware",
  description:
    "Shares of the chain's volume that are bullish (calls bought, puts sold), bearish (puts bought, calls sold) or neutral over the " +
    "trailing `timeframe` of the session, with call-only and put-only bullish shares and an interpretation.",
  tags: ["Ratios"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId }) => ({
    data: await chainBullBear(state, p.ticker, q, nowMs),
    meta: flowMeta(services, requestId),
  }),
});

export const contractBullBearRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/contract-bull-bear/:symbol",
  operationId: "getContractBullBear",
  cost: 1,
  query: ContractTimeframeQuerySchema,
  params: ReferenceContractSymbolParamsSchema,
  symbolsOf: contractRootOfPath,
  data: ContractBullBearSchema,
  summary: "Bull/bear pressure of one contract",
  description: "The contract's volume split into bullish, bearish and neutral with its option type folded in, over the trailing `timeframe` of the session.",
  tags: ["Ratios"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId }) => {
    const { symbol, ticker, contract } = await resolveFlowContract(state, p.symbol);
    const date = resolveFlowDate(q.date, nowMs);
    const tape = await sessionTape(state, ticker, date, nowMs);
    const { fromMs, toMs } = timeframeWindow(date, q.timeframe, nowMs);
    const trades = tapeTradesInWindow(tape, fromMs, toMs).filter((t) => t.symbol === symbol && (q.min_premium === undefined || t.premiumUsd >= q.min_premium));
    const { metrics, interpretation } = bullBear(trades);
    return {
      data: {
        symbol,
        ticker,
        optionType: contract.right === "C" ? "CALL" : "PUT",
        date,
        timeframe: q.timeframe,
        ...totals(trades),
        metrics: { bullPct: metrics.bullPct, bearPct: metrics.bearPct, neutralPct: metrics.neutralPct, bullBearRatio: metrics.bullBearRatio },
        interpretation,
      },
      meta: flowMeta(services, requestId),
    };
  },
});
