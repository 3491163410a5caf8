// GET /v1/aggregate/{ticker}: the composite and its VWF/SDF/FIR for trailing timeframes (1h..90d),
// the short-vs-long trend and an optional moneyness split (flowseeker.yaml `getAggregate`).
// Priced by range: 3 credits per started 30 days of summed window length.
// @see docs/methodology.md#flow-timeframe-aggregate
import type { z } from "zod";
import {
  AGGREGATE_TIMEFRAMES,
  flowSums,
  mergeSums,
  moneynessAggregates,
  moneynessAggregatesFromSums,
  moneynessSums,
  timeframeAggregate,
  trendAnalysis,
  type AggregateTimeframe,
  type FlowSums,
  type ScoredTrade,
} from "../../../../lib/flow";
import { aggregateCost, AggregateDataSchema, AggregateQuerySchema, EXPIRATION_BUCKETS, FlowRefTickerParamsSchema } from "../../../../lib/api/flow-feed";
import { previousTradingDay, sessionBounds } from "../../../../lib/time";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute, type FlowState } from "../flow-route";
import { yieldToTimers } from "../sessions/session-summary";
import { FLOW_FIRST_DATE, resolveFlowDate, resolveFlowTicker, sessionTape, sessionUptoMs, tapeTrades, tapeTradesInWindow } from "../sessions/tape";
import { tickerOfPath } from "../shared/path-symbols";

type Query = z.output<typeof AggregateQuerySchema>;

/** The moneyness and expiration filters as one predicate. */
function tradeFilter(q: Query): (t: ScoredTrade) => boolean {
  const m = q.moneyness_filter === "all" ? null : q.moneyness_filter.toUpperCase();
  const e = q.expiration_filter === "all" ? null : EXPIRATION_BUCKETS[q.expiration_filter];
  return (t) => (m === null || t.moneyness === m) && (e === null || (t.dte >= e.minDte && t.dte <= e.maxDte));
}

/**
 * One session's sums after the filters; decayed sums are taken at the session's end (the caller
 * rescales them to the window's end). Memoised per ticker, session extent, filters and half-life.
 */
async function sessionSums(state: FlowState, ticker: string, date: string, nowMs: number, q: Query): Promise<FlowSums> {
  const uptoMs = sessionUptoMs(date, nowMs);
  const halfLifeMs = q.time_decay ? q.time_decay_half_life * 60_000 : 0;
  const key = `aggsums|${ticker}|${date}|${uptoMs}|${q.moneyness_filter}|${q.expiration_filter}|${halfLifeMs}`;
  let p = state.memo.get(key) as Promise<FlowSums> | undefined;
  if (!p) {
    p = sessionTape(state, ticker, date, nowMs, { cache: uptoMs < sessionBounds(date).closeMs }).then((tape) =>
      flowSums(tapeTrades(tape).filter(tradeFilter(q)), halfLifeMs ? { refMs: uptoMs, halfLifeMs } : undefined),
    );
    state.memo.set(key, p);
    p.catch(() => state.memo.set(key, undefined));
  }
  return p;
}

/** One session's per-moneyness sums after the filters (no decay), memoised like `sessionSums`. */
async function sessionMoneynessSums(state: FlowState, ticker: string, date: string, nowMs: number, q: Query): Promise<FlowSums[]> {
  const uptoMs = sessionUptoMs(date, nowMs);
  const key = `aggmoney|${ticker}|${date}|${uptoMs}|${q.moneyness_filter}|${q.expiration_filter}`;
  let p = state.memo.get(key) as Promise<FlowSums[]> | undefined;
  if (!p) {
    p = sessionTape(state, ticker, date, nowMs, { cache: uptoMs < sessionBounds(date).closeMs }).then((tape) => moneynessSums(tapeTrades(tape).filter(tradeFilter(q))));
    state.memo.set(key, p);
    p.catch(() => state.memo.set(key, undefined));
  }
  return p;
}

/** The `n` sessions ending with `date`, newest first (none before the first session with data). */
function sessionsEnding(date: string, n: number): string[] {
  const out: string[] = [];
  for (let d = date; out.length < n && d >= FLOW_FIRST_DATE; d = previousTradingDay(d)) out.push(d);
  return out;
}

export const aggregateRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/aggregate/:ticker",
  operationId: "getAggregate",
  cost: (q) => aggregateCost(q.timeframes),
  query: AggregateQuerySchema,
  params: FlowRefTickerParamsSchema,
  symbolsOf: tickerOfPath,
  data: AggregateDataSchema,
  summary: "Composite flow sentiment across timeframes",
  description:
    "For each requested timeframe (`1h`, `4h` of the session so far; `1d`, `7d`, `30d`, `90d` trading sessions ending on `date`): the " +
    "composite (0.4 VWF + 0.35 SDF + 0.25 FIR), its direction and strength labels, confidence, sweep alignment, counts and optionally " +
    "the component split; plus the shortest-vs-longest trend and an optional moneyness split. Priced 3 credits per started 30 days of " +
    "summed window length (`all` = 130 days = 15 credits).",
  tags: ["Analytics"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId, signal }) => {
    const ticker = await resolveFlowTicker(state, p.ticker);
    const date = resolveFlowDate(q.date, nowMs);
    const endMs = sessionUptoMs(date, nowMs);
    const halfLifeMs = q.time_decay_half_life * 60_000;
    const keep = tradeFilter(q);
    const byTimeframe: Record<string, ReturnType<typeof timeframeAggregate>> = {};
    const tradesOf = new Map<AggregateTimeframe, ScoredTrade[]>();
    for (const tf of q.timeframes) {
      const spec = AGGREGATE_TIMEFRAMES[tf];
      let sums: FlowSums;
      if (spec.minutes !== null) {
        const tape = await sessionTape(state, ticker, date, nowMs);
        const trades = tapeTradesInWindow(tape, Math.max(tape.openMs, endMs - spec.minutes * 60_000), endMs).filter(keep);
        tradesOf.set(tf, trades);
        sums = flowSums(trades, q.time_decay ? { refMs: endMs, halfLifeMs } : undefined);
      } else {
        const dates = sessionsEnding(date, spec.sessions);
        const parts: FlowSums[] = [];
        for (const d of dates) {
          await yieldToTimers();
          if (signal.aborted) throw signal.reason;
          parts.push(await sessionSums(state, ticker, d, nowMs, q));
        }
        const scale = q.time_decay ? dates.map((d) => Math.pow(0.5, (endMs - sessionUptoMs(d, nowMs)) / halfLifeMs)) : undefined;
        sums = mergeSums(parts, scale);
      }
      byTimeframe[tf] = timeframeAggregate(sums, { breakdown: q.include_breakdown, decayed: q.time_decay });
    }
    const shortestFirst = [...q.timeframes].sort((a, b) => lengthMinutes(a) - lengthMinutes(b));
    const data: z.output<typeof AggregateDataSchema> = {
      ticker,
      generatedAt: new Date(services.wallNowMs()).toISOString(),
      byTimeframe,
      trend: trendAnalysis(shortestFirst.map((t) => byTimeframe[t].composite)),
    };
    if (q.include_moneyness) {
      const first = q.timeframes[0];
      const trades = tradesOf.get(first);
      if (trades) data.byMoneyness = moneynessAggregates(trades);
      else {
        // Per-session category sums (memoised), merged: no session's trades are held at once.
        const perSession: FlowSums[][] = [];
        for (const d of sessionsEnding(date, AGGREGATE_TIMEFRAMES[first].sessions)) {
          await yieldToTimers();
          if (signal.aborted) throw signal.reason;
          perSession.push(await sessionMoneynessSums(state, ticker, d, nowMs, q));
        }
        data.byMoneyness = moneynessAggregatesFromSums([0, 1, 2, 3, 4].map((k) => mergeSums(perSession.map((s) => s[k]))));
      }
    }
    return { data, meta: flowMeta(services, requestId) };
  },
});

/** A timeframe's length in minutes of trading (a session counted as 390), for ordering. */
function lengthMinutes(t: AggregateTimeframe): number {
  const s = AGGREGATE_TIMEFRAMES[t];
  return s.minutes ?? s.sessions * 390;
}
