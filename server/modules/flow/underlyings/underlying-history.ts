// GET /v1/underlying/{ticker}/history: one row per trading day with activity between two dates
// (spec "Flow endpoints", `/v1/underlying/{ticker}/history` parameters; record "Ticker daily history row").
import { FlowTickerParamsSchema, UnderlyingHistoryDataSchema, UnderlyingHistoryQuerySchema } from "../../../../lib/api/flow";
import { tradingDaysBetween } from "../../../../lib/time";
import { apiErrors } from "../../../errors";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { summariesByDate } from "../sessions/session-summary";
import { resolveFlowDate, resolveFlowTicker } from "../sessions/tape";
import { tickerOfPath } from "../shared/path-symbols";

/** Longest window, calendar days (our bound; the spec gives none): about 22 sessions. */
const HISTORY_MAX_CALENDAR_DAYS = 31;

const DAY_MS = 86_400_000;

export const underlyingHistoryRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/underlying/:ticker/history",
  operationId: "getUnderlyingHistory",
  cost: 5,
  query: UnderlyingHistoryQuerySchema,
  params: FlowTickerParamsSchema,
  symbolsOf: tickerOfPath,
  check: (q) => {
    if (q.start_date > q.end_date) throw apiErrors.invalidParameter("start_date", "must not be after `end_date`.");
    const days = (Date.parse(q.end_date) - Date.parse(q.start_date)) / DAY_MS;
    if (days > HISTORY_MAX_CALENDAR_DAYS) {
      throw apiErrors.rangeTooLarge(`The window from start_date to end_date spans ${days} calendar days; at most ${HISTORY_MAX_CALENDAR_DAYS}.`, {
        requested_days: days,
        max_days: HISTORY_MAX_CALENDAR_DAYS,
      });
    }
  },
  data: UnderlyingHistoryDataSchema,
  summary: "Daily aggregates for a ticker",
  description:
    "Premium, volume, call/put split and net premium of the ticker's option trades, one row per trading day with activity, oldest first. " +
    "Windows span at most 31 calendar days; today's row covers the session so far.",
  tags: ["Underlying"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId, signal }) => {
    const ticker = await resolveFlowTicker(state, p.ticker);
    const last = resolveFlowDate(undefined, nowMs);
    const start = q.start_date < "2023-03-28" ? "2023-03-28" : q.start_date;
    // biome-ignore lint/complexity/useMathMinMax: ISO dates, compared as strings
    const end = q.end_date > last ? last : q.end_date;
    if (start > end) return { data: [], meta: flowMeta(services, requestId) };
    const dates = tradingDaysBetween(start, end);
    const rows = (await summariesByDate(state, ticker, dates, nowMs, signal)).flatMap((s) => (s.row ? [s.row] : []));
    return { data: rows, meta: flowMeta(services, requestId) };
  },
});
