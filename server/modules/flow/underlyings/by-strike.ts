// GET /v1/underlying/{ticker}/by-strike and /v1/underlying/{ticker}/by-strike/{strike}/expirations:
// premium and volume by strike (with open interest and max pain) and one strike by expiration,
// over one session or the last week (flowseeker.yaml `getUnderlyingByStrike`,
// `getUnderlyingStrikeExpirations`). @see docs/methodology.md#flow-strike-distribution
import type { z } from "zod";
import {
  type BY_STRIKE_INTERVALS,
  ByStrikeQuerySchema,
  FlowTickerParamsSchema,
  StrikeExpirationsDataSchema,
  StrikeExpirationsParamsSchema,
  UnderlyingByStrikeDataSchema,
} from "../../../../lib/api/flow";
import { type DTE_FILTERS, inDteFilter, strikeDistribution, strikeExpirations, type DistributionTrade } from "../../../../lib/flow/strike-distribution";
import { addTradingDays, tradingDaysBetween } from "../../../../lib/time";
import { apiErrors } from "../../../errors";
import { addCalendarDays } from "../shared/date-params";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute, type FlowState } from "../flow-route";
import { FLOW_FIRST_DATE, flowUniverse, resolveFlowDate, resolveFlowTicker, sessionTape, sessionUptoMs, tapeTrades, type SessionTape } from "../sessions/tape";
import { tickerOfPath } from "../shared/path-symbols";

/** The sessions an interval covers, ending on `date`. */
function sessionsOf(date: string, interval: (typeof BY_STRIKE_INTERVALS)[number]): string[] {
  const from = interval === "1D" ? date : interval === "1W" ? addTradingDays(date, -4) : addCalendarDays(date, -6);
  // biome-ignore lint/complexity/useMathMinMax: ISO dates, compared as strings
  return tradingDaysBetween(from < FLOW_FIRST_DATE ? FLOW_FIRST_DATE : from, date);
}

/** The interval's trades in the DTE bucket, and the last session's tape (its board gives OI). */
async function windowTrades(state: FlowState, ticker: string, q: z.output<typeof ByStrikeQuerySchema>, nowMs: number) {
  const date = resolveFlowDate(q.date, nowMs);
  const trades: DistributionTrade[] = [];
  let last: SessionTape | null = null;
  for (const d of sessionsOf(date, q.interval)) {
    last = await sessionTape(state, ticker, d, nowMs);
    for (const t of tapeTrades(last)) if (inDteFilter(t.dte, q.dte_filter)) trades.push(t);
  }
  return { date, trades, last: last! };
}

/** Open interest per strike of the opening board, over the expirations in the DTE bucket. */
function openInterestByStrike(tape: SessionTape, filter: (typeof DTE_FILTERS)[number]): Map<number, { callOi: number; putOi: number }> {
  const out = new Map<number, { callOi: number; putOi: number }>();
  const b = tape.board;
  if (!b) return out;
  const dayMs = Date.parse(`${tape.date}T00:00:00Z`);
  const dteOf = b.expirations.map((e) => Math.round((Date.parse(`${e}T00:00:00Z`) - dayMs) / 86_400_000));
  for (let i = 0; i < b.strikeIndex.length; i++) {
    if (!inDteFilter(dteOf[b.expIndex[i]], filter)) continue;
    const k = b.strikes[b.strikeIndex[i]];
    const o = out.get(k) ?? { callOi: 0, putOi: 0 };
    if (b.right[i] === 1) o.callOi += b.oi[i];
    else o.putOi += b.oi[i];
    out.set(k, o);
  }
  return out;
}

export const underlyingByStrikeRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/underlying/:ticker/by-strike",
  operationId: "getUnderlyingByStrike",
  cost: 3,
  query: ByStrikeQuerySchema,
  params: FlowTickerParamsSchema,
  symbolsOf: tickerOfPath,
  data: UnderlyingByStrikeDataSchema,
  summary: "Premium and volume by strike",
  description: "Call and put volume, premium and open interest per traded strike over the interval, with totals, the put/call volume ratio, the top strike and max pain.",
  tags: ["Underlying"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId }) => {
    const ticker = await resolveFlowTicker(state, p.ticker);
    const { date, trades, last } = await windowTrades(state, ticker, q, nowMs);
    const underlying = (await flowUniverse(state)).get(ticker)?.underlying ?? ticker;
    const underlyingPrice = await services.market.spot(underlying, sessionUptoMs(date, nowMs) - 1);
    const dist = strikeDistribution(trades, openInterestByStrike(last, q.dte_filter));
    return { data: { ticker, interval: q.interval, dteFilter: q.dte_filter, underlyingPrice, ...dist }, meta: flowMeta(services, requestId) };
  },
});

export const underlyingStrikeExpirationsRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/underlying/:ticker/by-strike/:strike/expirations",
  operationId: "getUnderlyingStrikeExpirations",
  cost: 1,
  query: ByStrikeQuerySchema,
  params: StrikeExpirationsParamsSchema,
  symbolsOf: tickerOfPath,
  data: StrikeExpirationsDataSchema,
  summary: "One strike's premium and volume by expiration",
  description: "For one strike of the ticker, call and put volume and premium per expiration over the interval, nearest first.",
  tags: ["Underlying"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId }) => {
    const ticker = await resolveFlowTicker(state, p.ticker);
    if (!(p.strike > 0)) throw apiErrors.invalidParameter("strike", "must be a positive strike price.");
    const { trades } = await windowTrades(state, ticker, q, nowMs);
    return { data: { ticker, strike: p.strike, interval: q.interval, ...strikeExpirations(trades, p.strike) }, meta: flowMeta(services, requestId) };
  },
});
