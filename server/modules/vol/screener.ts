// `GET /v1/vol/screener` (spec "Volatility endpoints"): one row per covered symbol, sorted on any
// sortable field, `min_`/`max_` bounds on each, exact `curve`/`sector`/`quality` filters, unknown
// parameters a 400, rows missing the sort field last, thin chains not ranked.
import { SCREENER_SORT_FIELDS, VolMetaSchema, VolScreenerDataSchema, VolScreenerQuerySchema, type ScreenerSortField, type VolScreenerQuery } from "../../../lib/api/vol";
import { ApiError } from "../../errors";
import { memoizeJsonOnce } from "./live-reading";
import { screenerRow, type ScreenerRow } from "./screener-row";
import { volMeta } from "./vol-meta";
import { volRoute, type VolState } from "./vol-route";

/** Seconds a client waits before retrying while the daily store warms up. */
const WARMING_RETRY_AFTER_S = 30;

/** The bounds of a query, resolved once: `[field, lo, hi]` for each bounded field. */
type Bounds = [ScreenerSortField, number | undefined, number | undefined][];

function boundsOf(q: VolScreenerQuery): Bounds {
  const out: Bounds = [];
  for (const f of SCREENER_SORT_FIELDS) {
    const lo = q[`min_${f}`] ?? q.filters[`min_${f}`];
    const hi = q[`max_${f}`] ?? q.filters[`max_${f}`];
    if (lo !== undefined || hi !== undefined) out.push([f, lo, hi]);
  }
  return out;
}

/** True when `row` passes every filter of the query. */
export function passes(row: ScreenerRow, q: VolScreenerQuery, bounds: Bounds = boundsOf(q)): boolean {
  if (q.curve !== undefined && row.curve !== q.curve) return false;
  if (q.sector !== undefined && row.sector !== q.sector) return false;
  if (q.quality !== undefined && row.quality !== q.quality) return false;
  for (const [f, lo, hi] of bounds) {
    const v = row[f];
    if (v === null || (lo !== undefined && v < lo) || (hi !== undefined && v > hi)) return false;
  }
  return true;
}

/**
 * Order of the screener: ranked rows (chain not thin, sort field present) by the field, ties by
 * symbol; then rows missing the field; then thin chains (not ranked). Ranks number the first group.
 */
export function rankRows(rows: readonly ScreenerRow[], sort: ScreenerSortField, order: "asc" | "desc"): (ScreenerRow & { rank: number | null })[] {
  const bySymbol = (a: ScreenerRow, b: ScreenerRow) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0);
  const sign = order === "asc" ? 1 : -1;
  const ranked = rows.filter((r) => r.quality !== "thin" && r[sort] !== null);
  ranked.sort((a, b) => sign * (a[sort]! - b[sort]!) || bySymbol(a, b));
  const missing = rows.filter((r) => r.quality !== "thin" && r[sort] === null).sort(bySymbol);
  const thin = rows.filter((r) => r.quality === "thin").sort(bySymbol);
  return [...ranked.map((r, i) => ({ ...r, rank: i + 1 })), ...[...missing, ...thin].map((r) => ({ ...r, rank: null }))];
}

/**
 * The rows of every covered symbol at `nowMs` (symbols without a board have none). `yieldBetween`:
 * the background refresh lets requests run between symbols; a request computes straight through.
 */
export async function universeRows(state: VolState, nowMs: number, options: { yieldBetween?: boolean } = {}): Promise<ScreenerRow[]> {
  const covered = await state.coverage.all();
  const rows: ScreenerRow[] = [];
  for (const { symbol, info } of covered.values()) {
    const row = await screenerRow(state, symbol, info, nowMs);
    if (row) rows.push(row);
    if (options.yieldBetween) await new Promise((resolve) => setImmediate(resolve));
  }
  return rows;
}

/** One minute's rows with what every request of that minute reuses. */
interface MinuteRows {
  rows: ScreenerRow[];
  /** Newest board instant among the rows (the meta's `asOf`). */
  newestMs: number | null;
  /** Ranked (filtered, sorted) lists per query shape: a warm request only slices one. */
  ordered: Map<string, RankedRow[]>;
}

type RankedRow = ScreenerRow & { rank: number | null };

/** The memo key of one minute's rows. */
const minuteKey = (nowMs: number) => `rows|${Math.floor(nowMs / 60_000)}`;

/** The rows of the minute of `nowMs`, computed once (by the background refresh or the first request). */
export function minuteRows(state: VolState, nowMs: number, options: { yieldBetween?: boolean } = {}): Promise<MinuteRows> {
  const key = minuteKey(nowMs);
  let p = state.memo.get(key) as Promise<MinuteRows> | undefined;
  if (!p) {
    p = universeRows(state, nowMs, options).then((rows) => {
      const newest = rows.reduce((m, r) => Math.max(m, Date.parse(r.asOf)), -Infinity);
      return { rows, newestMs: Number.isFinite(newest) ? newest : null, ordered: new Map() };
    });
    state.memo.set(key, p);
    p.catch(() => state.memo.set(key, undefined));
  }
  return p;
}

/** The filtered, ranked rows of a query at one minute (memoised per query shape). */
function orderedRows(m: MinuteRows, q: VolScreenerQuery): RankedRow[] {
  const bounds = boundsOf(q);
  const key = JSON.stringify([q.sort, q.order, q.curve, q.sector, q.quality, bounds]);
  let out = m.ordered.get(key);
  if (!out) {
    out = rankRows(
      m.rows.filter((r) => passes(r, q, bounds)),
      q.sort,
      q.order,
    ).map(memoizeJsonOnce);
    // Query shapes are few in practice; a client varying bounds freely cannot grow this past a cap.
    if (m.ordered.size >= ORDERED_PER_MINUTE) m.ordered.delete(m.ordered.keys().next().value!);
    m.ordered.set(key, out);
  }
  return out;
}

/** Ranked lists kept per minute (distinct sort, order and filter combinations). */
const ORDERED_PER_MINUTE = 64;

/** How often the background refresh looks at the market clock for a new minute, ms. */
export const REFRESH_POLL_MS = 1_000;

/**
 * Keeps the screener's rows one step ahead: once the screener has been asked for, each new market
 * minute's rows are computed in the background as soon as the minute starts (yielding between
 * symbols), so a request at a new minute finds them done or in progress. Started by the first
 * screener call; the timer never keeps the process alive.
 */
function startMinuteRefresh(state: VolState): void {
  if (state.refreshTimer) return;
  let last = Math.floor(state.services.clock.now() / 60_000);
  const timer = setInterval(() => {
    const now = state.services.clock.now();
    const minute = Math.floor(now / 60_000);
    if (minute === last) return;
    last = minute;
    void minuteRows(state, now, { yieldBetween: true }).catch(() => undefined);
  }, REFRESH_POLL_MS);
  timer.unref();
  state.refreshTimer = timer;
}

/** `GET /v1/vol/screener`: 5 credits per call, up to 500 rows (spec). */
export const screenerRoute = volRoute({
  host: "base",
  module: "volatility",
  method: "GET",
  path: "/v1/vol/screener",
  operationId: "getVolScreener",
  cost: 5,
  entitlement: "volatility",
  query: VolScreenerQuerySchema,
  unknownQuery: "reject",
  data: VolScreenerDataSchema,
  meta: VolMetaSchema,
  cacheControl: "private, max-age=5",
  summary: "Screen every covered symbol",
  description:
    "One row per covered symbol with its headline readings (SVX and percentiles, IV rank, ratio to the S&P reading, term " +
    "slope, skew, tilt, expected move, sigma, day pace and reprice, next report, VRP, option volume, spot-vol correlation), " +
    "its sector, chain quality, curve state and earnings-overlap labels. Sort on any sortable field; min_<field> and " +
    "max_<field> bound any of them; curve, sector and quality match exactly. Unknown parameters are a 400. Rows missing " +
    "the sort field come after the ranked rows, and thin chains are not ranked (rank null, last). 5 credits per call, up " +
    "to 500 rows. While the daily history loads after a start the answer is 503 warming_up (refunded, Retry-After).",
  tags: ["Volatility"],
  handler: async ({ query, state, nowMs, services }) => {
    const warm = state.warmUp();
    if (!state.warmProgress()?.finished) {
      const p = state.warmProgress();
      void warm.catch(() => undefined);
      // Never "0 of 0": before the warm-up (or the background fill it waits for) has planned its steps, say it is starting.
      const where = p && p.total > 0 ? `${p.done} of ${p.total} steps done` : "starting";
      throw new ApiError(503, "warming_up", `Volatility history is loading (${where}); retry after Retry-After.`, {
        headers: { "Retry-After": String(WARMING_RETRY_AFTER_S) },
        details: { retry_after: WARMING_RETRY_AFTER_S },
      });
    }
    startMinuteRefresh(state);
    const cached = state.memo.has(minuteKey(nowMs));
    const m = await minuteRows(state, nowMs);
    const ordered = orderedRows(m, query);
    return {
      data: { rows: ordered.slice(query.offset, query.offset + query.limit), total: ordered.length, offset: query.offset, limit: query.limit, sort: query.sort },
      meta: volMeta({ module: "screener", nowMs, asOfMs: m.newestMs, cached, simulated: services.market.simulated }),
    };
  },
});
