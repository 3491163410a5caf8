// What both chart routes share: the range cap and the window's sessions (the bars' baselines are
// chart-baseline-cache.ts). @see docs/methodology.md#flow-chart-baselines
import { CHART_BUCKETS, CHART_MAX_DAYS, type ChartBucket, type ChartSession } from "../../../../lib/flow";
import { previousTradingDay, sessionBounds } from "../../../../lib/time";
import { apiErrors } from "../../../errors";
import { currentFlowDate, FLOW_FIRST_DATE, sessionUptoMs } from "../sessions/tape";

/** 400 `range_too_large` when an intraday bucket asks for more than 30 trading days. */
export function checkChartRange(q: { interval: number; bucket: ChartBucket }): void {
  if (CHART_BUCKETS[q.bucket] !== null && q.interval > CHART_MAX_DAYS.intraday) {
    throw apiErrors.rangeTooLarge(
      `interval ${q.interval}D is too long for bucket ${q.bucket}: at most ${CHART_MAX_DAYS.intraday}D with an intraday bucket (${CHART_MAX_DAYS.daily}D with 1d or 1w).`,
      { param: "interval" },
    );
  }
}

/** The `days` trading sessions ending with the current one, oldest first (none before the first with data). */
export function chartSessions(days: number, nowMs: number): ChartSession[] {
  const out: ChartSession[] = [];
  for (let d = currentFlowDate(nowMs); out.length < days && d >= FLOW_FIRST_DATE; d = previousTradingDay(d)) {
    const { openMs, closeMs } = sessionBounds(d);
    out.unshift({ date: d, openMs, closeMs, uptoMs: sessionUptoMs(d, nowMs) });
  }
  return out;
}
