// GET /v1/dark-pool/daily: dark-pool totals per ticker per day, or per ticker over a range
// (flowseeker.yaml `getDarkPoolDaily`). @see docs/methodology.md#dark-pool-levels-and-daily-totals
import { DarkPoolDailyDataSchema, DarkPoolDailyMetaSchema, DarkPoolDailyQuerySchema } from "../../../../lib/api/flow";
import { dailyPctAvgVol, darkPoolDailyRows, sortDarkPoolDailyRows } from "../../../../lib/flow/dark-pool-daily";
import type { DarkPoolRow } from "../../../../lib/flow/dark-pool-trades";
import { apiErrors } from "../../../errors";
import { calendarDates, tradeDateRange } from "../shared/date-params";
import { averageDailyVolume, darkPoolDay, symbolTable } from "./dark-pool-tape";
import { flowMeta, flowRoute } from "../flow-route";

/** Longest range, calendar days (the reference's cap). */
const MAX_SPAN_DAYS = 366;

export const darkPoolDailyRoute = flowRoute({
  host: "flow",
  module: "flow",
  method: "GET",
  path: "/v1/dark-pool/daily",
  operationId: "getDarkPoolDaily",
  cost: 3,
  entitlement: "flow",
  query: DarkPoolDailyQuerySchema,
  symbolsOf: (q) => q.tickers ?? [],
  check: (q, { nowMs }) => {
    if (q.sort === "date" && q.group_by !== "day") throw apiErrors.invalidParameter("sort", "`date` needs group_by=day.");
    tradeDateRange(q, nowMs, MAX_SPAN_DAYS);
  },
  data: DarkPoolDailyDataSchema,
  meta: DarkPoolDailyMetaSchema,
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
      const kept =
        q.sectors || q.industries
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
