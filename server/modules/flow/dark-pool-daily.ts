// GET /v1/dark-pool/daily: dark-pool totals per ticker per day, or per ticker over a range
// (flowseeker.yaml `getDarkPoolDaily`). @see docs/methodology.md#dark-pool-levels-and-daily-totals
import { z } from "zod";
import { DAILY_SORTS, dailyPctAvgVol, darkPoolDailyRows, sortDarkPoolDailyRows } from "../../../lib/flow/dark-pool-daily";
import type { DarkPoolRow } from "../../../lib/flow/dark-pool-trades";
import { apiErrors } from "../../errors";
import { dateParam, enumParam, intParam, numberParam, symbolsParam } from "../params";
import { calendarDates, nameSetParam, tradeDateRange } from "./dark-pool-params";
import { averageDailyVolume, darkPoolDay, symbolTable } from "./dark-pool-tape";
import { flowMeta, flowRoute } from "./flow-route";

/** Longest range, calendar days (the reference's cap). */
const MAX_SPAN_DAYS = 366;

const query = z.object({
  date: dateParam("Single ET trade date; default today (ET)."),
  date_start: dateParam("Inclusive start of a range (span at most 366 days)."),
  date_end: dateParam("Inclusive end of a range; default today when only `date_start` is given."),
  tickers: symbolsParam(50, "Comma-separated tickers (at most 50); omit to rank every name.").optional(),
  sectors: nameSetParam("Comma-separated GICS sectors (case-insensitive)."),
  industries: nameSetParam("Comma-separated GICS industries (case-insensitive)."),
  min_notional: numberParam({ min: 0, description: "Minimum total notional per row, USD (default 0)." }),
  group_by: enumParam(["day", "ticker"], "day", "`day`: a row per ticker per day; `ticker`: a row per ticker over the range."),
  sort: enumParam(DAILY_SORTS, "notional", "Sort key; `date` needs group_by=day."),
  order: enumParam(["asc", "desc"], "desc", "Direction of `sort`."),
  limit: intParam({ min: 1, max: 5000, default: 500, description: "Page size." }),
  offset: intParam({ min: 0, max: 100_000, default: 0, description: "Rows to skip." }),
});

const RowSchema = z.object({
  date: z.string().nullable().meta({ description: "Trade date; null with group_by=ticker." }),
  ticker: z.string(),
  sector: z.string(),
  industry: z.string(),
  prints: z.number().int(),
  shares: z.number().int(),
  notional: z.number(),
  vwap: z.number().meta({ description: "notional / shares, USD." }),
  blockPrints: z.number().int().meta({ description: "Prints of at least USD 1,000,000." }),
  blockNotional: z.number(),
  largestPrint: z.number().meta({ description: "Largest single print, USD." }),
  days: z.number().int(),
  pctAvgVol: z.number().nullable().meta({ description: "Average daily dark-pool shares as a percent of ADV; null when unknown." }),
});

export const darkPoolDailyRoute = flowRoute({
  host: "flow",
  module: "flow",
  method: "GET",
  path: "/v1/dark-pool/daily",
  operationId: "getDarkPoolDaily",
  cost: 3,
  entitlement: "flow",
  query,
  symbolsOf: (q) => q.tickers ?? [],
  check: (q, { nowMs }) => {
    if (q.sort === "date" && q.group_by !== "day") throw apiErrors.invalidParameter("sort", "`date` needs group_by=day.");
    tradeDateRange(q, nowMs, MAX_SPAN_DAYS);
  },
  data: z.array(RowSchema),
  meta: z.object({
    timestamp: z.string(),
    requestId: z.string(),
    dateStart: z.string(),
    dateEnd: z.string(),
    groupBy: z.enum(["day", "ticker"]),
    limit: z.number().int(),
    offset: z.number().int(),
    count: z.number().int(),
    hasMore: z.boolean(),
  }),
  summary: "Dark-pool totals by ticker and day",
  description: "Prints, shares, notional, VWAP, USD 1M+ blocks and the largest print per ticker, per day or summed over the range.",
  tags: ["Dark Pool"],
  handler: async ({ query: q, state, nowMs, services, requestId }) => {
    const table = await symbolTable(state);
    let tickers: string[] | null = null;
    if (q.tickers) {
      tickers = q.tickers.filter((t) => table.has(t));
      if (tickers.length === 0) throw apiErrors.symbolNotFound(q.tickers);
    }
    const range = tradeDateRange(q, nowMs, MAX_SPAN_DAYS);
    const days: [string, DarkPoolRow[]][] = [];
    for (const date of calendarDates(range.start, range.end)) {
      const rows = await darkPoolDay(state, date, tickers, nowMs);
      const kept = q.sectors || q.industries
        ? rows.filter((r) => (!q.sectors || q.sectors.has(r.sector.toLowerCase())) && (!q.industries || q.industries.has(r.industry.toLowerCase())))
        : rows;
      if (kept.length > 0) days.push([date, kept]);
    }
    const describe = (t: string) => ({ sector: table.get(t)?.sector ?? "Unknown", industry: table.get(t)?.industry ?? "Unknown" });
    const rows = darkPoolDailyRows(days, q.group_by, describe).filter((r) => r.notional >= (q.min_notional ?? 0));
    const page = sortDarkPoolDailyRows(rows, q.sort, q.order).slice(q.offset, q.offset + q.limit);
    // ADV before the row's date, or before the range's last date for a whole-range row.
    for (const r of page) r.pctAvgVol = dailyPctAvgVol(r, await averageDailyVolume(state, r.ticker, r.date ?? range.end));
    return {
      data: page,
      meta: {
        ...flowMeta(services, requestId),
        dateStart: range.start,
        dateEnd: range.end,
        groupBy: q.group_by,
        limit: q.limit,
        offset: q.offset,
        count: page.length,
        hasMore: page.length === q.limit,
      },
    };
  },
});
