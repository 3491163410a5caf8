// `GET /v1/vol/market`: the S&P volatility complex, SVX on SPXW (spec: the volatility module keys
// the S&P complex on SPXW) at 1 day, 9 days, 30 days, 3 and 6 months, their ratios, one-year
// percentiles, curve state, 30-day skew, dispersion against the Magnificent Seven, a fear-and-greed
// score, and up to 120 sessions of the main series.
import { EmptyQuerySchema } from "../../../lib/api/common";
import { VolMarketSchema, VolMetaSchema, type VolMarket } from "../../../lib/api/vol";
import { isoUtc } from "../../../lib/positioning/iso-utc";
import { dispersionReading, fearGreed, ivRankPercentiles, skew30, SVX_TENORS, type SessionCloseReading, type SvxTenor } from "../../../lib/vol";
import { DISPERSION_INDEX, DISPERSION_MEMBERS } from "../../../lib/vol/defaults";
import { forwardSvxCurve } from "../../../lib/vol/forward-curve";
import { skewIndex } from "../../../lib/vol/skew-index";
import { volOfVolPct } from "../../../lib/vol/vol-of-vol";
import { ApiError } from "../../errors";
import { liveReading } from "./live-reading";
import { ivOf, symbolInputs } from "./module-objects";
import { volMeta } from "./vol-meta";
import { REFERENCE_SYMBOL, volRoute, type VolState } from "./vol-route";

/** Sessions of history served with the complex (reference: 120). */
const MARKET_HISTORY_SESSIONS = 120;

const ratio = (a: number | null, b: number | null): number | null => (a !== null && b !== null && b > 0 ? a / b : null);

/**
 * The S&P volatility complex at `nowMs` (null without an SPXW board). The helper `market_brief`
 * calls for its volatility part.
 *
 * @see docs/methodology.md#volatility-server-readings
 */
export async function volMarket(state: VolState, nowMs: number): Promise<VolMarket | null> {
  const x = await symbolInputs(state, REFERENCE_SYMBOL, nowMs);
  if (!x) return null;
  const iv = await ivOf(state, x);
  const pct = {} as Record<SvxTenor, number | null>;
  for (const t of SVX_TENORS) pct[t] = ivRankPercentiles([...x.history.map((r) => r[t] ?? Number.NaN), iv[t] ?? Number.NaN]).iv_pct;
  const h = x.history.slice(-MARKET_HISTORY_SESSIONS);
  const vx = forwardSvxCurve(x.live.terms, iv.svx30);
  const rr25 = skew30(x.live.board, x.live.terms)?.rr25_30 ?? null;
  const history = x.history;
  const daily = (pick: (r: SessionCloseReading) => number | null, today: number | null) => [...history.map((r) => pick(r) ?? Number.NaN), today ?? Number.NaN];
  return {
    symbol: REFERENCE_SYMBOL,
    asOf: isoUtc(x.live.board.asOfMs),
    sessionDate: x.live.board.sessionDate,
    svx1d: iv.svx1d,
    svx9: iv.svx9,
    svx30: iv.svx30,
    svx3m: iv.svx3m,
    svx6m: iv.svx6m,
    ratio_9d_30d: ratio(iv.svx9, iv.svx30),
    ratio_1d_30d: ratio(iv.svx1d, iv.svx30),
    ratio_30d_3m: ratio(iv.svx30, iv.svx3m),
    pct_1y: pct,
    curve: iv.curve,
    term_slope: iv.term_slope,
    rr25_30: rr25,
    skew_index: skewIndex(x.live.terms)?.value ?? null,
    vx_curve_state: vx.vx_curve_state,
    vx_roll_pct: vx.vx_roll_pct,
    vx_m1_vs_vix_pct: vx.vx_m1_vs_vix_pct,
    vvix: volOfVolPct([...x.history.map((r) => r.svx30 ?? Number.NaN), iv.svx30 ?? Number.NaN]),
    history: { dates: h.map((r) => r.date), svx9: h.map((r) => r.svx9), svx30: h.map((r) => r.svx30), svx3m: h.map((r) => r.svx3m), close: h.map((r) => r.close) },
    dispersion: await dispersionOf(state, nowMs),
    fear_greed: fearGreed({
      svx30: daily((r) => r.svx30, iv.svx30),
      svx3m: daily((r) => r.svx3m, iv.svx3m),
      rr25_30: daily((r) => r.rr25_30, rr25),
      close: daily((r) => r.close, x.live.board.spot),
    }),
  };
}

/**
 * Dispersion of the Magnificent Seven against QQQ now, and the one-year percentile of its spread
 * among the daily readings (sessions where QQQ and at least five members have a close reading).
 * Members or an index outside the coverage count as unread.
 *
 * @see docs/methodology.md#dispersion
 */
async function dispersionOf(state: VolState, nowMs: number): Promise<VolMarket["dispersion"]> {
  const covered = await state.coverage.all();
  const live = (s: string) => (covered.has(s) ? liveReading(state, s, nowMs) : Promise.resolve(null));
  const index = await live(DISPERSION_INDEX);
  const members = await Promise.all(DISPERSION_MEMBERS.map(live));
  const now = dispersionReading(
    index?.svx.svx30?.value ?? null,
    members.map((m) => m?.svx.svx30?.value ?? null),
  );
  const spreads: number[] = [];
  if (index) {
    const day = index.board.sessionDate;
    const byDate = await Promise.all(
      DISPERSION_MEMBERS.map(async (s) => new Map(covered.has(s) ? (await state.daily.before(s, day, state.historySessions)).map((r) => [r.date, r.svx30]) : [])),
    );
    for (const r of await state.daily.before(DISPERSION_INDEX, day, state.historySessions)) {
      spreads.push(
        dispersionReading(
          r.svx30,
          byDate.map((m) => m.get(r.date) ?? null),
        ).spread ?? Number.NaN,
      );
    }
  }
  spreads.push(now.spread ?? Number.NaN);
  return { index: DISPERSION_INDEX, members: [...DISPERSION_MEMBERS], ...now, spread_pct_1y: now.spread === null ? null : ivRankPercentiles(spreads).iv_pct };
}

/** `GET /v1/vol/market`: 1 credit (reference). */
export const volMarketRoute = volRoute({
  host: "base",
  module: "volatility",
  method: "GET",
  path: "/v1/vol/market",
  operationId: "getVolMarket",
  cost: 1,
  entitlement: "volatility",
  query: EmptyQuerySchema,
  data: VolMarketSchema,
  meta: VolMetaSchema,
  cacheControl: "private, max-age=5",
  summary: "The S&P volatility complex",
  description:
    "SVX on SPXW at 1 day, 9 days, 30 days, 3 and 6 months (the VIX method on the S&P chain), their ratios and one-year " +
    "percentiles, curve state and term slope, the 30-day risk reversal, a SKEW-style index (skew_index), the futures-style curve's state and roll (vx_curve_state, vx_roll_pct, vx_m1_vs_vix_pct), a VVIX proxy (vvix, realized vol of SVX30), the Magnificent Seven's SVX30 against QQQ's (dispersion: spread, ratio, implied correlation, " +
    "one-year percentile), a fear-and-greed score from 0 to 100 with its four components (fear_greed), and up to 120 sessions of SVX9, SVX30, SVX3M and " +
    "the close. 1 credit.",
  tags: ["Volatility"],
  handler: async ({ state, nowMs, services }) => {
    const m = await volMarket(state, nowMs);
    if (!m) throw new ApiError(404, "no_data", "No S&P (SPXW) board is available.");
    return { data: m, meta: volMeta({ module: "market", nowMs, asOfMs: Date.parse(m.asOf), cached: false, simulated: services.market.simulated }) };
  },
});
