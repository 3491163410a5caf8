// `GET /v1/vol/history`: one row per completed session at its close, columnar (`dates[]` plus one
// array per field), from the daily store. Cost per request: docs/api.md#volatility-costs.
import { HISTORY_ADJ_COLUMNS, HISTORY_COLUMNS, VolHistoryDataSchema, VolHistoryQuerySchema, VolMetaSchema, type VolMissing } from "../../../lib/api/vol";
import type { IsoDate } from "../../../lib/market/market-data";
import { CALENDAR_FIRST_YEAR, CALENDAR_LAST_YEAR, etDateOf, sessionBounds, tradingDaysBetween } from "../../../lib/time";
import { weekendAdjusted, type SessionCloseReading } from "../../../lib/vol";
import { apiErrors } from "../../errors";
import { volMeta } from "./vol-meta";
import { sessionsBefore } from "./daily-store";
import { volRoute, type VolState } from "./vol-route";

/** Widest window, calendar days (reference). */
const HISTORY_MAX_DAYS = 800;

const DAY_MS = 86_400_000;
const dayNumber = (d: IsoDate) => Math.floor(Date.parse(`${d}T00:00:00Z`) / DAY_MS);
const isoOfDay = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** The window's dates lie in the years the NYSE calendar covers (sessions are known only there). */
const CALENDAR_FIRST_DATE = `${CALENDAR_FIRST_YEAR}-01-01`;
const CALENDAR_LAST_DATE = `${CALENDAR_LAST_YEAR}-12-31`;
const maxDate = (a: IsoDate, b: IsoDate) => (a > b ? a : b);

function checkCalendarDate(param: "from" | "to", date: IsoDate): void {
  if (date < CALENDAR_FIRST_DATE || date > CALENDAR_LAST_DATE) {
    throw apiErrors.invalidParameter(param, `must be a date from ${CALENDAR_FIRST_DATE} to ${CALENDAR_LAST_DATE} (the years the NYSE calendar covers; got ${date}).`);
  }
}

/** Weekdays (Monday to Friday) in `[from, to]`: holidays are not discounted (reference). */
export function weekdaysBetween(from: IsoDate, to: IsoDate): number {
  let n = 0;
  for (let d = dayNumber(from); d <= dayNumber(to); d++) {
    const wd = new Date(d * DAY_MS).getUTCDay();
    if (wd !== 0 && wd !== 6) n++;
  }
  return n;
}

/** Credits of a history request: 1 per 10 symbol-weekdays, rounded up, at least 1. */
export function historyCost(symbols: number, from: IsoDate, to: IsoDate): number {
  return Math.max(1, Math.ceil((symbols * weekdaysBetween(from, to)) / 10));
}

/**
 * The `*_adj` columns of `rows` (one symbol's window readings, oldest first): each session's
 * reading over its weekday factor from the readings of the `state.historySessions` sessions
 * before it, exactly as `iv` adjusts a live reading (docs/methodology.md#weekend-adjusted-history-columns).
 */
async function adjustedColumns(state: VolState, symbol: string, rows: readonly SessionCloseReading[], fields: readonly string[]) {
  const wanted = fields.filter((f): f is keyof typeof HISTORY_ADJ_COLUMNS => f in HISTORY_ADJ_COLUMNS);
  const out: Record<string, (number | null)[]> = {};
  if (wanted.length === 0 || rows.length === 0) return out;
  const n = state.historySessions;
  const before = await state.daily.before(symbol, rows[0].date, n);
  const all = [...before, ...rows];
  const dates = all.map((r) => r.date);
  // First date of each window row's lookback: the n-th trading session before it.
  const windowStart = rows.map((r) => sessionsBefore(r.date, n)[0] ?? r.date);
  for (const f of wanted) {
    const tenor = HISTORY_ADJ_COLUMNS[f];
    const values = all.map((r) => r[tenor] ?? Number.NaN);
    out[f] = rows.map((r, j) => {
      const i = before.length + j;
      let lo = 0;
      while (lo < i && dates[lo] < windowStart[j]) lo++;
      return weekendAdjusted(dates.slice(lo, i), values.slice(lo, i), r.date, r[tenor]);
    });
  }
  return out;
}

/** `GET /v1/vol/history`. */
export const volHistoryRoute = volRoute({
  host: "base",
  module: "volatility",
  method: "GET",
  path: "/v1/vol/history",
  operationId: "getVolHistory",
  // `check` has resolved the default window into the query before the cost is read.
  cost: (q) => historyCost(q.symbols.length, q.from!, q.to!),
  entitlement: "volatility",
  query: VolHistoryQuerySchema,
  symbolsOf: (q) => q.symbols,
  check: (q, { nowMs }) => {
    const to = q.to ?? etDateOf(nowMs);
    checkCalendarDate("to", to);
    const from = q.from ?? maxDate(isoOfDay(dayNumber(to) - 30), CALENDAR_FIRST_DATE);
    checkCalendarDate("from", from);
    if (from > to) throw apiErrors.invalidParameter("from", "must not be after `to`.");
    if (dayNumber(to) - dayNumber(from) > HISTORY_MAX_DAYS) {
      throw apiErrors.rangeTooLarge(`The window from ${from} to ${to} is longer than ${HISTORY_MAX_DAYS} calendar days.`, { max_days: HISTORY_MAX_DAYS });
    }
    q.from = from;
    q.to = to;
  },
  data: VolHistoryDataSchema,
  meta: VolMetaSchema,
  cacheControl: "private, max-age=60",
  summary: "Daily volatility history per symbol",
  description:
    "One row per completed session at its close: close, SVX per tenor, term slope, 30-day risk reversal, tilt and the " +
    "one-day move that close priced for the next session (em_1d_pct), and the weekend-adjusted SVX readings (svx1d_adj ... svx6m_adj). Columnar: dates[] and one array per field. Costs 1 " +
    "credit per 10 symbol-weekdays of the window, rounded up, at least 1 (holidays count).",
  tags: ["Volatility"],
  handler: async ({ query, state, nowMs, services }) => {
    const covered = await state.coverage.all();
    if (!query.symbols.some((s) => covered.has(s))) throw apiErrors.symbolNotFound(query.symbols);
    const from = query.from!;
    const to = query.to!;
    const dates = tradingDaysBetween(from, to).filter((d) => sessionBounds(d).closeMs <= nowMs);
    const missing: VolMissing[] = [];
    const symbols = [];
    let newest: number | null = null;
    for (const s of query.symbols) {
      if (!covered.has(s)) {
        missing.push({ symbol: s, reason: "not_covered" });
        continue;
      }
      const rows: SessionCloseReading[] = [];
      for (const d of dates) {
        const r = await state.daily.reading(s, d);
        if (r) rows.push(r);
      }
      if (rows.length === 0) {
        missing.push({ symbol: s, reason: "no_history" });
        continue;
      }
      newest = Math.max(newest ?? -Infinity, rows[rows.length - 1].closeMs);
      const columns: Record<string, (number | null)[]> = {};
      const adjusted = await adjustedColumns(state, s, rows, query.fields);
      for (const f of query.fields) columns[f] = f in HISTORY_ADJ_COLUMNS ? adjusted[f] : rows.map(HISTORY_COLUMNS[f as keyof typeof HISTORY_COLUMNS]);
      symbols.push({ symbol: s, dates: rows.map((r) => r.date), columns });
    }
    return {
      data: { from, to, symbols, missing },
      meta: volMeta({ module: "history", nowMs, asOfMs: newest, cached: false, simulated: services.market.simulated }),
    };
  },
});
