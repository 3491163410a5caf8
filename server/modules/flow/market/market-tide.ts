// GET /v1/market/tide: market-wide net call and net put premium per bucket and cumulative, over
// one or more sessions, with SPY's price (flowseeker.yaml `getMarketTide`).
// @see docs/methodology.md#flow-market-tide
import { MarketTideDataSchema, MarketTideMetaSchema, MarketTideQuerySchema } from "../../../../lib/api/flow-market";
import { marketTideBars, type TideSession } from "../../../../lib/flow";
import { sessionBounds } from "../../../../lib/time";
import { apiErrors } from "../../../errors";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute, type FlowState } from "../flow-route";
import { trailingSessions } from "../sessions/market-scan";
import { tideOf } from "../sessions/market-session-table";
import { scanTickers } from "../sessions/session-summary";
import { resolveFlowDate, sessionUptoMs } from "../sessions/tape";

/** Credits: 3 per started 30 sessions; with `exclude_deep_itm`, 3 per session (reference). */
const MARKET_TIDE_COST = { perBlock: 3, blockSessions: 30, perDeepItmSession: 3 } as const;
/** Widest `interval` for intraday buckets and for `exclude_deep_itm`, sessions (reference). */
const MARKET_TIDE_MAX_SESSIONS = { intraday: 30, deepItm: 5 } as const;

/** Sessions of an `interval` such as `30D`. */
const sessionsOf = (interval: string) => Number(interval.slice(0, -1));

/** SPY's minute closes from the open (NaN where no bar), for the price overlay. */
async function spyCloses(state: FlowState, date: string, minutes: number): Promise<Float64Array> {
  const { openMs } = sessionBounds(date);
  const out = new Float64Array(minutes).fill(NaN);
  if (minutes === 0) return out;
  const bars = await state.services.market.minuteBars("SPY", openMs, openMs + minutes * 60_000);
  for (let i = 0; i < bars.t.length; i++) {
    const m = Math.floor((bars.t[i] - openMs) / 60_000);
    if (m >= 0 && m < minutes) out[m] = bars.c[i];
  }
  return out;
}

export const marketTideRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/market/tide",
  operationId: "getMarketTide",
  cost: (q) =>
    q.exclude_deep_itm
      ? MARKET_TIDE_COST.perDeepItmSession * sessionsOf(q.interval)
      : MARKET_TIDE_COST.perBlock * Math.ceil(sessionsOf(q.interval) / MARKET_TIDE_COST.blockSessions),
  query: MarketTideQuerySchema,
  check: (q) => {
    const n = sessionsOf(q.interval);
    if (q.bucket !== "1d" && q.bucket !== "1w" && n > MARKET_TIDE_MAX_SESSIONS.intraday) {
      throw apiErrors.invalidParameter("interval", `at most ${MARKET_TIDE_MAX_SESSIONS.intraday}D with bucket ${q.bucket}; use bucket 1d or 1w for longer windows.`);
    }
    if (q.exclude_deep_itm && n > MARKET_TIDE_MAX_SESSIONS.deepItm) {
      throw apiErrors.invalidParameter("interval", `at most ${MARKET_TIDE_MAX_SESSIONS.deepItm}D with exclude_deep_itm=true.`);
    }
  },
  data: MarketTideDataSchema,
  meta: MarketTideMetaSchema,
  summary: "Market-wide net call and put premium",
  description:
    "Net call premium (calls bought minus sold) and net put premium per bucket and cumulative, across the caller's plan's tickers, over " +
    "the `interval` sessions ending on `date`; a variant counting crosses too; call and put volume; SPY's price at each bucket's end. " +
    "3 credits per started 30 sessions; 3 per session with `exclude_deep_itm`.",
  tags: ["Market"],
  handler: async ({ query: q, state, nowMs, services, requestId, principal, signal }) => {
    const date = resolveFlowDate(q.date, nowMs);
    const tickers = await scanTickers(state, principal);
    const dates = trailingSessions(date, sessionsOf(q.interval));
    const sessions: TideSession[] = [];
    const filters = { excludeMultiLeg: q.exclude_multi_leg, excludeDeepItm: q.exclude_deep_itm };
    for (const d of dates) {
      const { openMs, closeMs } = sessionBounds(d);
      const minutes = Math.min(Math.ceil((sessionUptoMs(d, nowMs) - openMs) / 60_000), Math.round((closeMs - openMs) / 60_000));
      // A finished session's summed tide from its market-wide table when there is one (docs/methodology.md#flow-market-session-table).
      const tide = await tideOf(state, tickers, d, minutes, nowMs, filters, signal);
      sessions.push({ date: d, minutes, ...tide, spyClose: await spyCloses(state, d, minutes) });
    }
    const bars = marketTideBars(sessions, q.bucket, filters);
    return {
      data: { interval: q.interval, bucket: q.bucket, bars },
      meta: flowMeta(services, requestId, { dateStart: dates[0] ?? date, dateEnd: date, sessions: dates.length }),
    };
  },
});
