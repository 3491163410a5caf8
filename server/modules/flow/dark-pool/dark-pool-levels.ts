// GET /v1/dark-pool/levels/{ticker}: off-exchange shares and notional per price bucket over a
// window (flowseeker.yaml `getDarkPoolLevels`). @see docs/methodology.md#dark-pool-levels-and-daily-totals
import {
  DARK_POOL_LEVELS_MAX_SPAN_DAYS as MAX_SPAN_DAYS,
  DarkPoolLevelsDataSchema,
  DarkPoolLevelsMetaSchema,
  DarkPoolLevelsQuerySchema,
  DarkPoolTickerParamsSchema,
} from "../../../../lib/api/flow";
import { autoLevelBucket, bucketLevels, levelTotals, rankedLevels, type DarkPoolLevels, type LevelBook, type LevelSort } from "../../../../lib/flow/dark-pool-levels";
import { computeOffLoop, DARK_POOL_LEVELS } from "../../../daily-store/compute-pool";
import type { DarkPoolRow } from "../../../../lib/flow/dark-pool-trades";
import { etDateOf } from "../../../../lib/time";
import { apiErrors } from "../../../errors";
import { timeSlicer } from "../../../yield-to-loop";
import { addCalendarDays, calendarDates, countCalendarDays } from "../shared/date-params";
import { darkPoolDay, symbolTable } from "./dark-pool-tape";
import { flowMeta, flowRoute, type FlowState } from "../flow-route";
import { tickerOfPath } from "../shared/path-symbols";

/** One levels request's window (what a compute task carries). */
export interface LevelsWindow {
  ticker: string;
  dateStart: string;
  dateEnd: string;
  bucket: number | null;
  sort: LevelSort;
}

/**
 * The levels of a ticker's off-exchange prints over a window, every level (the caller slices).
 * On a request loop (`sliced`) the days are bucketed one per slice, the loop's other work between.
 * @see docs/methodology.md#dark-pool-levels-and-daily-totals
 */
export async function windowLevels(state: FlowState, w: LevelsWindow, nowMs: number, sliced = false): Promise<DarkPoolLevels> {
  const days: DarkPoolRow[][] = [];
  for (const date of calendarDates(w.dateStart, w.dateEnd)) days.push(await darkPoolDay(state, date, [w.ticker], nowMs));
  const totals = levelTotals(days);
  const width = w.bucket ?? autoLevelBucket(totals.vwap);
  const byEdge: LevelBook = new Map();
  const slice = sliced ? timeSlicer() : null;
  for (const day of days) {
    bucketLevels(byEdge, day, width);
    await slice?.();
  }
  return rankedLevels(byEdge, totals, width, w.sort);
}

export const darkPoolLevelsRoute = flowRoute({
  host: "flow",
  module: "flow",
  method: "GET",
  path: "/v1/dark-pool/levels/:ticker",
  operationId: "getDarkPoolLevels",
  cost: 3,
  entitlement: "flow",
  query: DarkPoolLevelsQuerySchema,
  params: DarkPoolTickerParamsSchema,
  symbolsOf: tickerOfPath,
  check: (q, { nowMs }) => {
    const end = q.date_end ?? etDateOf(nowMs);
    const start = q.date_start ?? addCalendarDays(end, -q.lookback_days);
    if (start > end) throw apiErrors.invalidParameter("date_start", "must not be after `date_end`.");
    // The span counts like lookback_days: date_end minus date_start.
    const span = countCalendarDays(start, end) - 1;
    if (span > MAX_SPAN_DAYS) {
      throw apiErrors.rangeTooLarge(`date_end - date_start is ${span} days; at most ${MAX_SPAN_DAYS}.`, { requested_days: span, max_days: MAX_SPAN_DAYS });
    }
  },
  data: DarkPoolLevelsDataSchema,
  meta: DarkPoolLevelsMetaSchema,
  summary: "Dark-pool volume by price level",
  description: "Off-exchange prints, shares and notional per price bucket of a ticker over a window, largest first (read as support and resistance).",
  tags: ["Dark Pool"],
  handler: async ({ query: q, params, state, nowMs, services, requestId, signal }) => {
    if (!(await symbolTable(state)).has(params.ticker)) throw apiErrors.symbolNotFound([params.ticker]);
    const dateEnd = q.date_end ?? etDateOf(nowMs);
    const dateStart = q.date_start ?? addCalendarDays(dateEnd, -q.lookback_days);
    const window = { ticker: params.ticker, dateStart, dateEnd, bucket: q.bucket ?? null, sort: q.sort };
    // A month of a large ticker's prints (~1M objects for SPY) is read and bucketed in a compute
    // worker: only the levels cross to the loop.
    const result = await computeOffLoop(services.computePool, { kind: DARK_POOL_LEVELS, ...window, nowMs }, () => windowLevels(state, window, nowMs, true), signal);
    return {
      data: result.levels.slice(0, q.limit),
      meta: {
        ...flowMeta(services, requestId),
        ticker: params.ticker,
        dateStart,
        dateEnd,
        bucket: result.bucketUsd,
        totalShares: result.totalShares,
        totalNotional: result.totalNotional,
      },
    };
  },
});
