// GET /v1/dark-pool/trades: filtered off-exchange prints, paged by cursor (time) or offset (rank).
// Spec "Flow endpoints" (`/v1/dark-pool/trades` parameters and rules 1-4).
import { z } from "zod";
import {
  decodeDarkPoolCursor,
  matchesDarkPoolFilter,
  pageByRank,
  pageByTime,
  pctOfAvgVolume,
  type DarkPoolFilter,
  type DarkPoolRow,
} from "../../../lib/flow/dark-pool-trades";
import { etDateOf, etInstant } from "../../../lib/time";
import { apiErrors } from "../../errors";
import { dateParam, enumParam, intParam, numberParam, optionalEnumParam, optionalIntParam, symbolsParam } from "../params";
import { calendarDates, clockTimeParam, instantNsParam, nameSetParam, tradeDateRange } from "./dark-pool-params";
import { averageDailyVolume, darkPoolDay, memoMatches, symbolTable } from "./dark-pool-tape";
import { flowMeta, flowRoute, type FlowState } from "./flow-route";

/** Spec defaults and limits of the route. */
export const DARK_POOL_TRADES = {
  defaultMinNotionalUsd: 1_000_000,
  /** Rule 1: without `tickers`, `min_notional` must be at least this. */
  marketWideMinNotionalUsd: 100_000,
  maxSpanDays: 31,
  maxTickers: 50,
} as const;

const query = z.object({
  tickers: symbolsParam(DARK_POOL_TRADES.maxTickers, "Comma-separated tickers (at most 50); omit for every name.").optional(),
  date: dateParam("Single ET trade date; default today (ET)."),
  date_start: dateParam("Inclusive start of an ET trade-date range (span at most 31 days)."),
  date_end: dateParam("Inclusive end of an ET trade-date range; default today when only `date_start` is given."),
  time_start: clockTimeParam("Inclusive start of the ET time-of-day window, HH:MM."),
  time_end: clockTimeParam("Inclusive end of the ET time-of-day window, HH:MM (the whole minute counts)."),
  min_notional: numberParam({ min: 0, description: "Minimum notional, USD; default 1000000; 0 returns every print of the requested tickers; at least 100000 without `tickers`." }),
  max_notional: numberParam({ min: 0, description: "Maximum notional, USD." }),
  min_price: numberParam({ min: 0, description: "Minimum price, USD per share." }),
  max_price: numberParam({ min: 0, description: "Maximum price, USD per share." }),
  min_size: optionalIntParam({ min: 0, description: "Minimum size, shares." }),
  max_size: optionalIntParam({ min: 0, description: "Maximum size, shares." }),
  min_avg_vol: numberParam({ min: 0, description: "Minimum `pctAvgVol` (percent of average daily volume); prints with unknown ADV are excluded." }),
  max_avg_vol: numberParam({ min: 0, description: "Maximum `pctAvgVol`; prints with unknown ADV are excluded." }),
  sectors: nameSetParam("Comma-separated GICS sectors (case-insensitive)."),
  industries: nameSetParam("Comma-separated GICS industries (case-insensitive)."),
  venue: optionalEnumParam(["FINN", "FINC"], "Reporting venue; omit for both."),
  limit: intParam({ min: 1, max: 5000, default: 500, description: "Page size." }),
  offset: optionalIntParam({ min: 0, max: 50_000, description: "Rows to skip (default 0); not with `cursor`." }),
  order: enumParam(["asc", "desc"], "desc", "Direction of `sort`."),
  sort: enumParam(["time", "notional", "size"], "time", "`time` pages by cursor; `notional` and `size` by offset."),
  cursor: z.string().max(400).optional().meta({ description: "`meta.nextCursor` of the previous page (time sort only), with the same filters." }),
  after: instantNsParam("Only prints strictly after this instant (ISO-8601 or epoch nanoseconds)."),
  before: instantNsParam("Only prints strictly before this instant (ISO-8601 or epoch nanoseconds)."),
});

type Query = z.output<typeof query>;

/** One print as served. */
export const DarkPoolPrintSchema = z.object({
  timestamp: z.string().meta({ description: "Trade time, ISO-8601 UTC (milliseconds)." }),
  ticker: z.string(),
  price: z.number(),
  size: z.number().int(),
  notional: z.number().meta({ description: "price x size, USD." }),
  venue: z.enum(["FINN", "FINC"]),
  sector: z.string(),
  industry: z.string(),
  pctAvgVol: z.number().nullable().meta({ description: "Size as a percent of the average daily volume; null when unknown." }),
});

const meta = z.object({
  timestamp: z.string(),
  requestId: z.string(),
  limit: z.number().int(),
  offset: z.number().int(),
  count: z.number().int(),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
});

function check(q: Query, { nowMs }: { nowMs: number }): void {
  const minNotional = q.min_notional ?? DARK_POOL_TRADES.defaultMinNotionalUsd;
  if (!q.tickers && minNotional < DARK_POOL_TRADES.marketWideMinNotionalUsd) {
    throw apiErrors.invalidParameter("min_notional", `must be at least ${DARK_POOL_TRADES.marketWideMinNotionalUsd} without \`tickers\` (pass \`tickers\` for smaller prints).`);
  }
  if (q.cursor !== undefined) {
    if (q.offset !== undefined) throw apiErrors.invalidParameter("offset", "cannot be combined with `cursor`.");
    if (q.sort !== "time") throw apiErrors.invalidParameter("cursor", "applies to sort=time only; page `sort=notional` and `sort=size` by `offset`.");
    decodeDarkPoolCursor(q.cursor);
  }
  tradeDateRange(q, nowMs, DARK_POOL_TRADES.maxSpanDays);
}

/** The filter of one trade date (the time-of-day window becomes instants of that date). */
function filterFor(q: Query, date: string): DarkPoolFilter {
  return {
    minNotionalUsd: q.min_notional ?? DARK_POOL_TRADES.defaultMinNotionalUsd,
    maxNotionalUsd: q.max_notional,
    minPrice: q.min_price,
    maxPrice: q.max_price,
    minSize: q.min_size,
    maxSize: q.max_size,
    venue: q.venue,
    sectors: q.sectors,
    industries: q.industries,
    afterNs: q.after?.tsNs,
    beforeNs: q.before?.tsNs,
    fromMs: q.time_start === undefined ? undefined : etInstant(date, hhmm(q.time_start)),
    toMs: q.time_end === undefined ? undefined : etInstant(date, hhmm(q.time_end)) + 60_000,
  };
}

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** The query fields that pick rows (not the paging ones), as a memo key. */
function filterKey(q: Query, tickers: string[] | null): string {
  const { cursor: _c, offset: _o, limit: _l, order: _d, sort: _s, tickers: _t, sectors, industries, ...rest } = q;
  return JSON.stringify([tickers, sectors && [...sectors].sort(), industries && [...industries].sort(), rest]);
}

/** The matching prints over the call's trade dates, in time order. */
async function matchingRows(state: FlowState, q: Query, tickers: string[] | null, nowMs: number): Promise<DarkPoolRow[]> {
  const range = tradeDateRange(q, nowMs, DARK_POOL_TRADES.maxSpanDays);
  const minNotional = q.min_notional ?? DARK_POOL_TRADES.defaultMinNotionalUsd;
  const days: [string, DarkPoolRow[]][] = [];
  for (const date of calendarDates(range.start, range.end)) days.push([date, await darkPoolDay(state, date, tickers, nowMs, minNotional)]);
  const version = days.map(([, rows]) => rows.length).join(",");
  return memoMatches(state, filterKey(q, tickers), version, async () => {
    const out: DarkPoolRow[] = [];
    const byAvgVol = q.min_avg_vol !== undefined || q.max_avg_vol !== undefined;
    for (const [date, rows] of days) {
      const f = filterFor(q, date);
      for (const row of rows) {
        if (!matchesDarkPoolFilter(row, f)) continue;
        if (byAvgVol) {
          const pct = pctOfAvgVolume(row.size, await averageDailyVolume(state, row.ticker, date));
          if (pct === null || (q.min_avg_vol !== undefined && pct < q.min_avg_vol) || (q.max_avg_vol !== undefined && pct > q.max_avg_vol)) continue;
        }
        out.push(row);
      }
    }
    return out;
  });
}

export const darkPoolTradesRoute = flowRoute({
  host: "flow",
  module: "flow",
  method: "GET",
  path: "/v1/dark-pool/trades",
  operationId: "getDarkPoolTrades",
  cost: 5,
  entitlement: "flow",
  query,
  symbolsOf: (q) => q.tickers ?? [],
  check,
  data: z.array(DarkPoolPrintSchema),
  meta,
  summary: "Paginated off-exchange prints",
  description:
    "Off-exchange (TRF) prints filtered by ticker, date, time of day, notional, price, size, share of average volume, " +
    "sector, industry and venue. Time order pages by `cursor` without gaps or repeats while new prints arrive " +
    "(`order=asc` always returns a cursor for polling); `sort=notional`/`size` page by `offset`.",
  tags: ["Dark Pool"],
  handler: async ({ query: q, state, nowMs, services, requestId }) => {
    let tickers: string[] | null = null;
    if (q.tickers) {
      const table = await symbolTable(state);
      tickers = q.tickers.filter((t) => table.has(t));
      if (tickers.length === 0) throw apiErrors.symbolNotFound(q.tickers);
    }
    const rows = await matchingRows(state, q, tickers, nowMs);
    const offset = q.offset ?? 0;
    const page =
      q.sort === "time"
        ? pageByTime(rows, { order: q.order, limit: q.limit, offset, cursor: q.cursor === undefined ? undefined : decodeDarkPoolCursor(q.cursor) })
        : { rows: pageByRank(rows, { sort: q.sort, order: q.order, limit: q.limit, offset }), nextCursor: null };
    const data = [];
    for (const r of page.rows) {
      const adv = await averageDailyVolume(state, r.ticker, etDateOf(r.tsMs));
      data.push({
        timestamp: new Date(r.tsMs).toISOString(),
        ticker: r.ticker,
        price: r.price,
        size: r.size,
        notional: r.notionalUsd,
        venue: r.venue,
        sector: r.sector,
        industry: r.industry,
        pctAvgVol: pctOfAvgVolume(r.size, adv),
      });
    }
    return {
      data,
      meta: flowMeta(services, requestId, { limit: q.limit, offset, count: data.length, hasMore: data.length === q.limit, nextCursor: page.nextCursor }),
    };
  },
});
