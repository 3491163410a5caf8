// `GET /v1/marks` and `GET /v1/timescale_marks` on {atlas_url}: the UDF chart marks. Each session's
// parts come from session-marks.ts (memoised once the session is finished); lib/price/marks.ts
// turns them into marks.
// Rules and thresholds: docs/methodology.md#chart-marks; costs: docs/api.md#chart-marks.
import { BarMarksSchema, MarksQuerySchema, TimescaleMarksSchema } from "../../../lib/api/marks";
import type { SymbolInfo } from "../../../lib/market/market-data";
import { earningsMarks, kingChangeMarks, MARK_RULES, mergeBarMarks } from "../../../lib/price/marks";
import { CALENDAR_FIRST_YEAR, CALENDAR_LAST_YEAR, etDateOf, etInstant, sessionBounds, tradingDaysBetween, type IsoDate } from "../../../lib/time";
import { cacheShareBytes } from "../../cache/cache-budget";
import { PRICE_SPLIT, priceRoute } from "./price-route";
import { resolveSymbol } from "./resolve-symbol";
import { sessionMarkParts } from "./session-marks";

/** Credits per call of each marks route. */
const MARKS_COST = 1;

const SECOND = 1000;

/** The instants of the years the NYSE calendar covers, `[from, to)`: no session lies outside them. */
const CALENDAR_FROM_MS = etInstant(`${CALENDAR_FIRST_YEAR}-01-01`, "00:00");
const CALENDAR_TO_MS = etInstant(`${CALENDAR_LAST_YEAR + 1}-01-01`, "00:00");

/**
 * The ET dates of the first and last instant of `[fromS, toS)` clipped to the calendar and to
 * `uptoMs`, or null when nothing is left (a UDF client may ask from 0 or far ahead: no marks, no error).
 */
function calendarWindow(fromS: number, toS: number, uptoMs = Number.POSITIVE_INFINITY): [IsoDate, IsoDate] | null {
  const fromMs = Math.max(fromS * SECOND, CALENDAR_FROM_MS);
  const lastMs = Math.min(toS * SECOND, uptoMs, CALENDAR_TO_MS) - 1;
  return lastMs >= fromMs ? [etDateOf(fromMs), etDateOf(lastMs)] : null;
}

/** The ET session dates of `[fromS, toS)`, not after `nowMs`. */
function sessionsOf(fromS: number, toS: number, nowMs: number): IsoDate[] {
  const dates = calendarWindow(fromS, toS, nowMs);
  return dates ? tradingDaysBetween(dates[0], dates[1]) : [];
}

/** The positioning board charted for a ticker: its first option root (SPX -> SPXW). */
const heatmapSymbolOf = (info: SymbolInfo) => info.optionRoots[0] ?? info.ticker;

/** `GET /v1/marks`: king-node changes, large sweeps and dark-pool blocks of the window's latest sessions. */
export const marksRoute = priceRoute({
  host: "atlas",
  module: "price",
  method: "GET",
  path: "/v1/marks",
  operationId: "getMarks",
  cost: MARKS_COST,
  entitlement: "price",
  query: MarksQuerySchema,
  symbolsOf: (q) => [q.symbol],
  data: BarMarksSchema,
  envelope: false,
  cacheControl: "private, max-age=60",
  summary: "Chart marks: king-node changes, large sweeps, dark-pool blocks (UDF marks)",
  description:
    `Marks on bars in [from, to) (Unix seconds) over at most the window's latest ${MARK_RULES.maxSessions} trading sessions: a king-node ` +
    `change (K) sampled every ${MARK_RULES.kingStepMinutes} minutes of the regular session, each options sweep of at least ` +
    `$${MARK_RULES.sweepMinPremiumUsd.toLocaleString("en-US")} premium (S, green bought, red sold) and each off-exchange print of at least ` +
    `$${MARK_RULES.blockMinNotionalUsd.toLocaleString("en-US")} notional (D). Each carries \`url\`, the minute's heatmap. ${MARKS_COST} credit.`,
  tags: ["History"],
  handler: async (ctx) => {
    const { query, services, nowMs } = ctx;
    const info = await resolveSymbol(services, query.symbol, false);
    const root = heatmapSymbolOf(info);
    const dates = sessionsOf(query.from, query.to, nowMs).slice(-MARK_RULES.maxSessions);
    if (dates.length === 0) return { data: [] };
    const fromMs = Math.max(query.from * SECOND, sessionBounds(dates[0], { extended: true }).openMs);
    const toMs = Math.min(query.to * SECOND, nowMs);
    const inWindow = (ms: number) => ms >= fromMs && ms < toMs;
    const parts = [];
    for (const date of dates) {
      parts.push(
        await sessionMarkParts({
          market: services.market,
          kernels: services.kernels,
          ticker: info.ticker,
          root,
          date,
          nowMs,
          signal: ctx.signal,
          cacheBytes: cacheShareBytes(services.cacheBytes, "price") * PRICE_SPLIT.marks,
        }),
      );
    }
    const kings = parts.flatMap((p) => p.kings).filter((k) => inWindow(k.tsMs));
    const events = parts.flatMap((p) => p.events).filter((e) => inWindow(e.tsMs));
    return {
      data: mergeBarMarks(
        kingChangeMarks(root, kings),
        events.map((e) => e.mark),
      ),
    };
  },
});

/** `GET /v1/timescale_marks`: earnings dates in the window, on the time scale. */
export const timescaleMarksRoute = priceRoute({
  host: "atlas",
  module: "price",
  method: "GET",
  path: "/v1/timescale_marks",
  operationId: "getTimescaleMarks",
  cost: MARKS_COST,
  entitlement: "price",
  query: MarksQuerySchema,
  symbolsOf: (q) => [q.symbol],
  data: TimescaleMarksSchema,
  envelope: false,
  cacheControl: "private, max-age=3600",
  summary: "Time-scale marks: earnings dates (UDF timescale_marks)",
  description:
    "Earnings releases of the symbol whose session lies in [from, to) (Unix seconds), at 09:30 ET (before the open) or " +
    `16:00 ET (after the close), each with \`url\`, the heatmap at that minute. ${MARKS_COST} credit.`,
  tags: ["History"],
  handler: async ({ query, services }) => {
    const info = await resolveSymbol(services, query.symbol, false);
    const dates = calendarWindow(query.from, query.to);
    if (!dates) return { data: [] };
    const events = await services.market.earnings(info.ticker, dates[0], dates[1]);
    const marks = earningsMarks(heatmapSymbolOf(info), events).filter((m) => m.time >= query.from && m.time < query.to);
    return { data: marks };
  },
});
