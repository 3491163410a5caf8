// GET /v1/flow/{ticker}/baseline: per time-of-day bucket, the mean and standard deviation of trade
// count, premium and FIR over the trailing sessions (flowseeker.yaml `getFlowBaseline`; the
// distribution behind the momentum z-scores). @see docs/methodology.md#flow-bull-bear-and-baseline
import { aggressionOf, classifySide, dteDays, flowBaseline, premiumUsd } from "../../../../lib/flow";
import { FLOW_BASELINE_BUCKET_MINUTES, FlowBaselineDataSchema, FlowBaselineQuerySchema, FlowRefTickerParamsSchema } from "../../../../lib/api/flow-feed";
import type { OptionPrint } from "../../../../lib/market/market-data";
import { isCrossPrint } from "../../../../lib/market/prints/conditions";
import { previousTradingDay, sessionBounds } from "../../../../lib/time";
import { apiErrors } from "../../../errors";
import { checkBounds } from "../shared/trade-filters";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { yieldToTimers } from "../sessions/session-summary";
import { FLOW_FIRST_DATE, currentFlowDate, resolveFlowTicker, sessionPrints } from "../sessions/tape";
import { tickerOfPath } from "../shared/path-symbols";

/** `HH:MM` of minutes after midnight. */
const hhmm = (min: number) => `${String(Math.floor(min / 60)).padStart(2, "0")}:${String(min % 60).padStart(2, "0")}`;

/** What the baseline reads of a print: time, right, premium and direction (no Flow Score needed). */
function baselineTrade(p: OptionPrint) {
  return {
    tsMs: p.tsMs,
    right: p.right,
    premiumUsd: premiumUsd(p.price, p.size),
    aggression: isCrossPrint(p) ? 0 : aggressionOf(classifySide(p.price, p.nbboBid, p.nbboAsk)),
  };
}

export const flowBaselineRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/flow/:ticker/baseline",
  operationId: "getFlowBaseline",
  cost: 3,
  query: FlowBaselineQuerySchema,
  params: FlowRefTickerParamsSchema,
  symbolsOf: tickerOfPath,
  check: (q) => {
    checkBounds(q, [["min_dte", "max_dte"]]);
    if (q.start_time_of_day >= q.end_time_of_day) {
      throw apiErrors.invalidParameter("start_time_of_day", `must be before \`end_time_of_day\` (${hhmm(q.start_time_of_day)} >= ${hhmm(q.end_time_of_day)}).`);
    }
  },
  data: FlowBaselineDataSchema,
  summary: "Time-of-day flow baseline",
  description:
    "For each bucket of the regular session between `start_time_of_day` and `end_time_of_day` (ET), the mean and sample standard " +
    "deviation of trade count, premium and FIR over the `lookback_days` sessions before the current one.",
  tags: ["Flow"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId, signal }) => {
    const started = services.wallNowMs();
    const ticker = await resolveFlowTicker(state, p.ticker);
    const sessions = [];
    let d = currentFlowDate(nowMs);
    for (let k = 0; k < q.lookback_days; k++) {
      d = previousTradingDay(d);
      if (d < FLOW_FIRST_DATE) break;
      await yieldToTimers();
      if (signal.aborted) throw signal.reason;
      const day = d;
      const prints = await sessionPrints(state, ticker, day, sessionBounds(day).closeMs);
      const inDte = (x: OptionPrint) => {
        const dte = dteDays(day, x.expiry);
        return (q.min_dte === undefined || dte >= q.min_dte) && (q.max_dte === undefined || dte <= q.max_dte);
      };
      sessions.push({ date: day, trades: prints.filter(inDte).map(baselineTrade) });
    }
    const startTimeOfDay = hhmm(q.start_time_of_day);
    const endTimeOfDay = hhmm(q.end_time_of_day);
    const buckets = flowBaseline(sessions, { bucketMinutes: FLOW_BASELINE_BUCKET_MINUTES[q.bucket], startTimeOfDay, endTimeOfDay });
    return {
      data: {
        ticker,
        bucket: q.bucket,
        lookbackDays: q.lookback_days,
        startTimeOfDay,
        endTimeOfDay,
        buckets,
        queryTimeMs: Math.max(0, Math.round(services.wallNowMs() - started)),
      },
      meta: flowMeta(services, requestId),
    };
  },
});
