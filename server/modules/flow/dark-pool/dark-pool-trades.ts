// GET /v1/dark-pool/trades: filtered off-exchange prints, paged by cursor (time) or offset (rank).
// Spec "Flow endpoints" (`/v1/dark-pool/trades` parameters and rules 1-4).
import type { z } from "zod";
import { DARK_POOL_TRADES, DarkPoolTradesDataSchema, DarkPoolTradesMetaSchema, DarkPoolTradesQuerySchema } from "../../../../lib/api/flow";
import {
  decodeDarkPoolCursor,
  matchesDarkPoolFilter,
  pageByRank,
  pageByTime,
  pctOfAvgVolume,
  type DarkPoolFilter,
  type DarkPoolRow,
} from "../../../../lib/flow/dark-pool-trades";
import { etDateOf, etInstant } from "../../../../lib/time";
import { apiErrors } from "../../../errors";
import { memoizeJson } from "../../../http/json-body";
import { calendarDates, tradeDateRange } from "../shared/date-params";
import { averageDailyVolume, darkPoolDay, memoMatches, symbolTable } from "./dark-pool-tape";
import { flowMeta, flowRoute, type FlowState } from "../flow-route";

type Query = z.output<typeof DarkPoolTradesQuerySchema>;
type TradeItem = z.output<typeof DarkPoolTradesDataSchema>[number];

const ITEMS = new WeakMap<DarkPoolRow, TradeItem>();

/**
 * A print's response row, built and serialised once per print (a day's rows live as long as its
 * tape, and the average daily volume of a date never changes): a page is the join of memoized
 * texts, and a warm page awaits nothing per row. See bench/README.md#dark-pool-trades-warm-path.
 */
async function tradeItem(state: FlowState, r: DarkPoolRow): Promise<TradeItem> {
  const adv = await averageDailyVolume(state, r.ticker, etDateOf(r.tsMs));
  const item = memoizeJson({
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
  ITEMS.set(r, item);
  return item;
}

function check(q: Query, { nowMs }: { nowMs: number }): void {
  const minNotional = q.min_notional ?? DARK_POOL_TRADES.defaultMinNotionalUsd;
  if (!q.tickers && minNotional < DARK_POOL_TRADES.marketWideMinNotionalUsd) {
    throw apiErrors.invalidParameter(
      "min_notional",
      `must be at least ${DARK_POOL_TRADES.marketWideMinNotionalUsd} without \`tickers\` (pass \`tickers\` for smaller prints).`,
    );
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
      // A day without prints has nothing to filter, and may have no ET instants (2200-01-01 with `time_start`).
      if (rows.length === 0) continue;
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
  query: DarkPoolTradesQuerySchema,
  symbolsOf: (q) => q.tickers ?? [],
  check,
  data: DarkPoolTradesDataSchema,
  meta: DarkPoolTradesMetaSchema,
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
    const data: TradeItem[] = [];
    for (const r of page.rows) data.push(ITEMS.get(r) ?? (await tradeItem(state, r)));
    return {
      data,
      meta: flowMeta(services, requestId, { limit: q.limit, offset, count: data.length, hasMore: data.length === q.limit, nextCursor: page.nextCursor }),
    };
  },
});
