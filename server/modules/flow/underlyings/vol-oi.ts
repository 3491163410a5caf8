// GET /v1/vol-oi/{ticker}: volume against open interest by type and moneyness band, with an
// accumulation score and the share of volume that must be opening (flowseeker.yaml `getVolOi`).
// @see docs/methodology.md#flow-vol-oi
import { volOiAnalysis, type VolOiBand, type VolOiContract } from "../../../../lib/flow";
import { FlowRefTickerParamsSchema } from "../../../../lib/api/flow-feed";
import { VOL_OI_WEEK_SESSIONS, VolOiDataSchema, VolOiQuerySchema } from "../../../../lib/api/flow-underlyings";
import { parseOptionSymbol } from "../../../../lib/symbols";
import { previousTradingDay } from "../../../../lib/time";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { yieldToTimers } from "../sessions/session-summary";
import { FLOW_FIRST_DATE, openingBoard, resolveFlowDate, resolveFlowTicker, sessionTape, sessionUptoMs, tapeTrades } from "../sessions/tape";
import { tickerOfPath } from "../shared/path-symbols";

const BANDS: Record<string, VolOiBand | "all"> = { otm_10plus: "otm10plus", otm_5_10: "otm510", otm_3_5: "otm35", atm_itm: "atmItm", all: "all" };

export const volOiRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/vol-oi/:ticker",
  operationId: "getVolOi",
  cost: 1,
  query: VolOiQuerySchema,
  params: FlowRefTickerParamsSchema,
  symbolsOf: tickerOfPath,
  data: VolOiDataSchema,
  summary: "Volume against open interest",
  description:
    "Every listed contract's volume over the period against its open interest at the period's start, summed by type and by " +
    "moneyness band (at least 10%, 5-10%, 3-5% out of the money, and ATM/ITM), with a signal per type and overall, an " +
    "accumulation score (0-100) and the share of volume beyond open interest (necessarily opening).",
  tags: ["Analytics"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId, signal }) => {
    const ticker = await resolveFlowTicker(state, p.ticker);
    const date = resolveFlowDate(q.date, nowMs);
    const dates: string[] = [];
    for (let d = date; dates.length < (q.timeframe === "weekly" ? VOL_OI_WEEK_SESSIONS : 1) && d >= FLOW_FIRST_DATE; d = previousTradingDay(d)) dates.unshift(d);
    const { board, oi } = await openingBoard(state, ticker, dates[0]);
    const contracts = new Map<string, VolOiContract>();
    for (const [symbol, n] of oi) {
      const c = parseOptionSymbol(symbol);
      contracts.set(symbol, { right: c.right, strike: c.strike, volume: 0, oi: n });
    }
    let spot = board?.spot ?? 0;
    for (const d of dates) {
      await yieldToTimers();
      if (signal.aborted) throw signal.reason;
      const tape = await sessionTape(state, ticker, d, nowMs, { cache: d === date });
      for (const t of tapeTrades(tape)) {
        let c = contracts.get(t.symbol);
        if (!c) {
          c = { right: t.right, strike: t.strike, volume: 0, oi: 0 };
          contracts.set(t.symbol, c);
        }
        c.volume += t.size;
        spot = t.underlyingPrice;
      }
    }
    const result = volOiAnalysis(contracts.values(), spot, { optionType: q.option_type, band: BANDS[q.moneyness], minOi: q.min_oi });
    return {
      data: { ticker, timestamp: new Date(sessionUptoMs(date, nowMs)).toISOString(), timeframe: q.timeframe, ...result },
      meta: flowMeta(services, requestId),
    };
  },
});
