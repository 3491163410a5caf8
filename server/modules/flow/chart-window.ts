// What both chart routes share: the range cap, the window's sessions and the bars' 30-session
// time-of-day baselines. @see docs/methodology.md#flow-chart-baselines
import { CHART_BASELINE_SESSIONS, CHART_BUCKETS, CHART_MAX_DAYS, rvol, type BarBaseline, type ChartBucket, type ChartSession, type RvolSession } from "../../../lib/flow";
import { addTradingDays, previousTradingDay, sessionBounds, tradingDaysBetween } from "../../../lib/time";
import { apiErrors } from "../../errors";
import type { FlowState } from "./flow-route";
import { yieldToTimers } from "./session-summary";
import { currentFlowDate, FLOW_FIRST_DATE, sessionPrints, sessionUptoMs } from "./tape";

/** 400 `range_too_large` when an intraday bucket asks for more than 30 trading days. */
export function checkChartRange(q: { interval: number; bucket: ChartBucket }): void {
  if (CHART_BUCKETS[q.bucket] !== null && q.interval > CHART_MAX_DAYS.intraday) {
    throw apiErrors.rangeTooLarge(`interval ${q.interval}D is too long for bucket ${q.bucket}: at most ${CHART_MAX_DAYS.intraday}D with an intraday bucket (${CHART_MAX_DAYS.daily}D with 1d or 1w).`, { param: "interval" });
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

/**
 * Each bar's baseline by bar start (ms): the RVOL average of the same time of day over the
 * {@link CHART_BASELINE_SESSIONS} sessions before the window (those from the first with data), for
 * one contract or the whole ticker. `view` holds the window's sessions with their prints.
 */
export async function chartBaselines(
  state: FlowState,
  ticker: string,
  scope: { kind: "contract"; symbol: string } | { kind: "ticker" },
  view: readonly RvolSession[],
  bucket: ChartBucket,
  nowMs: number,
  signal: AbortSignal,
): Promise<Map<number, BarBaseline>> {
  const out = new Map<number, BarBaseline>();
  if (view.length === 0) return out;
  const first = view[0].date;
  const baseline = tradingDaysBetween(addTradingDays(first, -CHART_BASELINE_SESSIONS), previousTradingDay(first)).filter((d) => d >= FLOW_FIRST_DATE);
  if (baseline.length === 0) return out;
  const sessions: RvolSession[] = [];
  for (const d of baseline) {
    await yieldToTimers();
    if (signal.aborted) throw signal.reason;
    sessions.push({ date: d, prints: await sessionPrints(state, ticker, d, sessionBounds(d).closeMs) });
  }
  const options = {
    date: view[view.length - 1].date, interval: `${view.length}D`, bucket, avgPeriod: `${CHART_BASELINE_SESSIONS}d`,
    asOfMs: nowMs, orderBy: "time", order: "asc", format: "full",
  } as const;
  const all = [...sessions, ...view];
  const bars = (scope.kind === "contract" ? rvol(scope, all, options).bars : rvol(scope, all, options).bars) ?? [];
  for (const b of bars) {
    if (b.avgVolume !== null && b.avgPremium !== null) out.set(Date.parse(b.timestamp), { avgVolume: b.avgVolume, avgPremium: b.avgPremium });
  }
  return out;
}
