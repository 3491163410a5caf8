import { StatsDailyDataSchema, StatsDailyMetaSchema, StatsDailyQuerySchema, STATS_LIMITS } from "../../../lib/api/positioning";
import { POSITIONING_DEFAULTS as D, STATS_COMPLETE_AFTER_MS, type DailyStat } from "../../../lib/positioning";
import { countTradingDays, etDateOf, sessionBounds, tradingDaysBetween } from "../../../lib/time";
import { ApiError, apiErrors } from "../../errors";
import { attribution, FIRST_HISTORY_DATE, gridOptions } from "./grid-route";
import { positioningRoute } from "./positioning-route";
import { knownSymbols, type PositioningState } from "./service";
import { StatsPoolUnavailable } from "./stats-pool";
import { replayStatsSession, type StatsSessionTask } from "./stats-replay";

/**
 * Daily-statistics requests one account may have in flight (the spec leaves it open; a cold call
 * can replay 400 sessions). Over it: 429 `too_many_concurrent_requests`, `Retry-After: 2`.
 */
export const STATS_IN_FLIGHT_PER_ACCOUNT = 2;
export const STATS_RETRY_AFTER_S = 2;

/**
 * The replay parameters every statistics frame uses: `/v1/historical`'s defaults with the asked
 * metric, so a session's statistics equal those of its replayed frames exactly.
 */
export function statsGridQuery(metric: "gamma" | "vanna") {
  return {
    metric,
    maxStrikes: D.maxStrikes,
    maxExpirations: D.maxExpirations,
    includeEmpty: false,
    layout: "matrix" as const,
  };
}

const DAY_MS = 86_400_000;
const calendarDaysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** One session's statistics: in a pool worker when there is one, else in this thread. */
async function sessionStats(state: PositioningState, task: StatsSessionTask, signal: AbortSignal, accountId: string): Promise<DailyStat | null> {
  const pool = state.statsPool();
  if (pool && pool.size > 0) {
    try {
      return await pool.run(task, signal, accountId);
    } catch (error) {
      if (!(error instanceof StatsPoolUnavailable)) throw error;
    }
  }
  const stat = await replayStatsSession(state.services.market, state.services.kernels, task);
  await yieldToLoop();
  return stat;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `GET /v1/stats/daily`: per symbol and ET session, spot range and exposure extremes. 5 credits. */
export const statsDailyRoute = positioningRoute({
  host: "base",
  module: "positioning",
  method: "GET",
  path: "/v1/stats/daily",
  operationId: "getDailyStats",
  cost: 5,
  entitlement: "positioning",
  query: StatsDailyQuerySchema,
  check: (q, { nowMs }) => {
    const to = q.to ?? etDateOf(nowMs);
    if (q.from < FIRST_HISTORY_DATE) throw apiErrors.invalidParameter("from", `history begins on ${FIRST_HISTORY_DATE}.`);
    if (to < q.from) throw apiErrors.invalidParameter("to", "must not be before from.");
    const days = calendarDaysBetween(q.from, to);
    if (days > STATS_LIMITS.calendarDays) {
      throw apiErrors.rangeTooLarge(`from..to spans ${days} calendar days; at most ${STATS_LIMITS.calendarDays}.`);
    }
    const sessions = q.symbols.length * countTradingDays(q.from, to);
    if (sessions > STATS_LIMITS.symbolSessions) {
      throw new ApiError(
        422,
        "request_too_large",
        `${q.symbols.length} symbols x ${sessions / q.symbols.length} sessions = ${sessions} symbol-sessions; at most ${STATS_LIMITS.symbolSessions} per call.`,
      );
    }
  },
  symbolsOf: (q) => q.symbols,
  concurrency: { kind: "stats", max: () => STATS_IN_FLIGHT_PER_ACCOUNT, retryAfterS: STATS_RETRY_AFTER_S },
  data: StatsDailyDataSchema,
  meta: StatsDailyMetaSchema,
  cacheControl: "private, max-age=60",
  summary: "Daily statistics per symbol and session",
  description:
    "For each symbol and ET trading session: frame count, first and last frame, spot open/high/low/close, the smallest " +
    "and largest single strike x expiration cell, and the mean and maximum over frames of max(|smallest|, |largest|). " +
    "Frames are the one-minute boards /v1/historical replays with its default parameters (with extended=true for an extended session). Weekends and NYSE holidays " +
    "have no row; early closes have fewer frames; today stays complete=false until 30 minutes after the close. " +
    "At most 50 symbols, 31 calendar days and 400 symbol-sessions per call.",
  tags: ["Heatmap"],
  handler: async ({ query, services, state, principal, nowMs, signal }) => {
    const to = query.to ?? etDateOf(nowMs);
    const symbols = await knownSymbols(state, query.symbols);
    const cache = state.stats;
    const dates = tradingDaysBetween(query.from, to).filter((d) => sessionBounds(d, { extended: query.extended }).openMs <= nowMs);
    const options = gridOptions(statsGridQuery(query.metric));
    // Cached sessions are read now; the rest are replayed (in parallel across the pool's workers)
    // and cached once finished, then everything is assembled in request order.
    const cells: { symbol: string; date: string; key: string; stat: DailyStat | null | undefined }[] = [];
    for (const symbol of symbols) {
      for (const date of dates) {
        const key = `${symbol}|${date}|${query.extended}|${query.metric}`;
        cells.push({ symbol, date, key, stat: cache.get(key) });
      }
    }
    const missing = cells.filter((c) => c.stat === undefined);
    const allCached = missing.length === 0;
    const pooled = (state.statsPool()?.size ?? 0) > 0;
    const compute = async (c: (typeof cells)[number]) => {
      if (signal.aborted) throw signal.reason ?? apiErrors.gatewayTimeout(services.requestTimeoutMs);
      const task: StatsSessionTask = { symbol: c.symbol, date: c.date, extended: query.extended, nowMs, options };
      c.stat = await sessionStats(state, task, signal, principal?.accountId ?? "");
      const { closeMs } = sessionBounds(c.date, { extended: query.extended });
      if (nowMs >= closeMs + STATS_COMPLETE_AFTER_MS) cache.set(c.key, c.stat);
    };
    if (pooled) await Promise.all(missing.map(compute));
    else for (const c of missing) await compute(c);
    const out: { symbol: string; days: DailyStat[] }[] = [];
    for (const symbol of symbols) {
      const days = cells.filter((c) => c.symbol === symbol && c.stat).map((c) => c.stat!);
      if (days.length > 0) out.push({ symbol, days });
    }
    return {
      data: { from: query.from, to, symbols: out },
      meta: {
        metric: query.metric,
        resolution: "1m",
        mode: "historical",
        cached: allCached,
        delayed: false,
        delayMinutes: 0,
        extended: query.extended,
        simulated: services.market.simulated,
        attribution: attribution(services.market.simulated),
      },
    };
  },
});
