// GET /v1/dark-pool/levels/{ticker}: off-exchange shares and notional per price bucket over a
// window (flowseeker.yaml `getDarkPoolLevels`). @see docs/methodology.md#dark-pool-levels-and-daily-totals
import { z } from "zod";
import { darkPoolLevels, LEVEL_SORTS } from "../../../lib/flow/dark-pool-levels";
import type { DarkPoolRow } from "../../../lib/flow/dark-pool-trades";
import { etDateOf } from "../../../lib/time";
import { apiErrors } from "../../errors";
import { dateParam, enumParam, intParam, numberParam } from "../params";
import { addCalendarDays, calendarDates, countCalendarDays, tickerPath } from "./dark-pool-params";
import { darkPoolDay, symbolTable } from "./dark-pool-tape";
import { flowMeta, flowRoute } from "./flow-route";

/** Longest window, calendar days. */
const MAX_SPAN_DAYS = 180;

const query = z.object({
  date_start: dateParam("Inclusive start date; replaces `lookback_days` (span at most 180 days)."),
  date_end: dateParam("Inclusive end date; default today (ET)."),
  lookback_days: intParam({ min: 1, max: MAX_SPAN_DAYS, default: 30, description: "Calendar days back from `date_end`." }),
  bucket: numberParam({ min: 0.01, description: "Bucket width, USD; omit for the power of ten nearest 0.1% of the window's VWAP." }),
  sort: enumParam(LEVEL_SORTS, "notional", "Ranking of the levels, largest first."),
  limit: intParam({ min: 1, max: 500, default: 50, description: "Levels returned." }),
});

const LevelSchema = z.object({
  price: z.number().meta({ description: "Lower edge of the bucket, USD." }),
  prints: z.number().int(),
  shares: z.number().int(),
  notional: z.number(),
  pctOfNotional: z.number().meta({ description: "Percent of the window's dark-pool notional." }),
  blockPrints: z.number().int().meta({ description: "Prints of at least USD 1,000,000." }),
  blockNotional: z.number(),
});

export const darkPoolLevelsRoute = flowRoute({
  host: "flow",
  module: "flow",
  method: "GET",
  path: "/v1/dark-pool/levels/:ticker",
  operationId: "getDarkPoolLevels",
  cost: 3,
  entitlement: "flow",
  query,
  params: tickerPath,
  symbolsOf: (_q, p) => [p.ticker],
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
  data: z.array(LevelSchema),
  meta: z.object({
    timestamp: z.string(),
    requestId: z.string(),
    ticker: z.string(),
    dateStart: z.string(),
    dateEnd: z.string(),
    bucket: z.number(),
    totalShares: z.number().int(),
    totalNotional: z.number(),
  }),
  summary: "Dark-pool volume by price level",
  description: "Off-exchange prints, shares and notional per price bucket of a ticker over a window, largest first (read as support and resistance).",
  tags: ["Dark Pool"],
  handler: async ({ query: q, params, state, nowMs, services, requestId }) => {
    if (!(await symbolTable(state)).has(params.ticker)) throw apiErrors.symbolNotFound([params.ticker]);
    const dateEnd = q.date_end ?? etDateOf(nowMs);
    const dateStart = q.date_start ?? addCalendarDays(dateEnd, -q.lookback_days);
    const prints: DarkPoolRow[] = [];
    for (const date of calendarDates(dateStart, dateEnd)) for (const r of await darkPoolDay(state, date, [params.ticker], nowMs)) prints.push(r);
    const result = darkPoolLevels(prints, q.bucket ?? null, q.sort);
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
