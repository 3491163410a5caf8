// `GET /v1/vol/derived`: the daily series behind the charts, per symbol, from the daily store:
// SVX30/SVX1D, close, risk reversal, the point-in-time usual-range band of SVX30, realized against
// implied (rv20, VRP), spot-vol correlation and earnings-eve sessions.
// Formulas: docs/methodology.md#volatility-derived-series.
import type { z } from "zod";
import { realizedVolPerSession, reactionSessions, spotVolCorrelation, vrp, type SessionCloseReading } from "../../../lib/vol";
import { nextTradingDay, sessionBounds, sessionDateAt } from "../../../lib/time";
import { apiErrors } from "../../errors";
import { VolDerivedDataSchema, type VolDerivedSeriesSchema, VolMetaSchema, VolSymbolsQuerySchema, type VolMissing } from "../../../lib/api/vol";
import { volMeta } from "./vol-meta";
import { volRoute, type VolState } from "./vol-route";

/** Sessions behind each day's band, and the fewest that make one. */
const BAND_WINDOW = 252;
const BAND_MIN = 20;

/** Quantile `p` (0-1) of finite `xs` with linear interpolation between order statistics (R type 7). */
export function quantile(xs: readonly number[], p: number): number | null {
  const v = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const h = (v.length - 1) * p;
  const lo = Math.floor(h);
  return v[lo] + (h - lo) * ((v[Math.min(lo + 1, v.length - 1)] ?? v[lo]) - v[lo]);
}

/** The derived series of one symbol from its daily readings (oldest first). */
export function derivedSeries(rows: readonly SessionCloseReading[], reportEves: readonly string[]): z.output<typeof VolDerivedSeriesSchema> {
  const svx30 = rows.map((r) => r.svx30 ?? Number.NaN);
  const closes = rows.map((r) => r.close);
  const band = { p20: [] as (number | null)[], p50: [] as (number | null)[], p80: [] as (number | null)[] };
  const rv20: (number | null)[] = [];
  rows.forEach((_, i) => {
    const window = svx30.slice(Math.max(0, i - BAND_WINDOW), i).filter(Number.isFinite);
    const ok = window.length >= BAND_MIN;
    band.p20.push(ok ? quantile(window, 0.2) : null);
    band.p50.push(ok ? quantile(window, 0.5) : null);
    band.p80.push(ok ? quantile(window, 0.8) : null);
    rv20.push(i >= 20 ? realizedVolPerSession(closes.slice(i - 20, i + 1), 20) : null);
  });
  const v = vrp(closes, svx30);
  const dates = rows.map((r) => r.date);
  return {
    dates,
    close: closes,
    svx30: rows.map((r) => r.svx30),
    svx1d: rows.map((r) => r.svx1d),
    rr25_30: rows.map((r) => r.rr25_30),
    band,
    ivrv: {
      rv20: rv20.map((x) => (x === null ? null : 100 * x * Math.sqrt(252))),
      vrp: rv20.map((x, i) => (x === null || rows[i].svx30 === null ? null : rows[i].svx30! - 100 * x * Math.sqrt(252))),
      expected_vrp: v.expected_vrp,
      vrp_pct_1y: v.vrp_pct_1y,
      overpaid_share_pct: v.overpaid_share_pct,
    },
    spot_vol_corr: spotVolCorrelation(closes, svx30),
    earnings_eve: dates.filter((d) => reportEves.includes(d)),
  };
}

async function reportEves(state: VolState, symbol: string, from: string, to: string): Promise<string[]> {
  const info = (await state.coverage.all()).get(symbol)?.info;
  if (!info || info.type === "index") return [];
  return (await state.services.market.earnings(info.underlying, from, to)).map((e) => reactionSessions(e).before);
}

/** `GET /v1/vol/derived`: 3 credits (reference). */
export const volDerivedRoute = volRoute({
  host: "base",
  module: "volatility",
  method: "GET",
  path: "/v1/vol/derived",
  operationId: "getVolDerived",
  cost: 3,
  entitlement: "volatility",
  query: VolSymbolsQuerySchema,
  symbolsOf: (q) => q.symbols,
  data: VolDerivedDataSchema,
  meta: VolMetaSchema,
  cacheControl: "private, max-age=60",
  summary: "Daily derived series per symbol: usual range, realized against implied",
  description:
    "Per symbol over the stored daily history: SVX30, SVX1D, close and 30-day risk reversal; the usual-range band of SVX30 " +
    "(20th, 50th and 80th percentiles of the sessions before each day, up to 252); 20-session realized vol and the VRP " +
    "series with today's expected VRP, its percentile and the overpaid share; spot-vol correlation; sessions that were the " +
    "last close before a report. Updated once per session. 3 credits per call.",
  tags: ["Volatility"],
  handler: async ({ query, state, nowMs, services }) => {
    const covered = await state.coverage.all();
    if (!query.symbols.some((s) => covered.has(s))) throw apiErrors.symbolNotFound(query.symbols);
    const symbols = [];
    const missing: VolMissing[] = [];
    let newest: number | null = null;
    for (const s of query.symbols) {
      if (!covered.has(s)) {
        missing.push({ symbol: s, reason: "not_covered" });
        continue;
      }
      const live = await state.daily.before(s, nextSessionOf(nowMs), state.historySessions);
      if (live.length === 0) {
        missing.push({ symbol: s, reason: "no_history" });
        continue;
      }
      newest = Math.max(newest ?? -Infinity, live[live.length - 1].closeMs);
      const eves = await reportEves(state, s, live[0].date, live[live.length - 1].date);
      symbols.push({ symbol: s, derived: derivedSeries(live, eves) });
    }
    return { data: { symbols, missing }, meta: volMeta({ module: "derived", nowMs, asOfMs: newest, cached: false, simulated: services.market.simulated }) };
  },
});

/** The session after the last completed one at `nowMs` (so `before` returns completed sessions only). */
function nextSessionOf(nowMs: number): string {
  const today = sessionDateAt(nowMs);
  return sessionBounds(today).closeMs <= nowMs ? nextTradingDay(today) : today;
}
