// One screener row per covered symbol: the headline readings of every module, flat, under the
// spec's sortable names (docs/methodology.md#screener-fields). Memoised per symbol and minute.
import type { ScreenerSortField } from "../../../lib/api/vol";
import type { IsoDate } from "../../../lib/market/market-data";
import { isoUtc } from "../../../lib/positioning/iso-utc";
import { coneHorizonTargets, impliedMove, ivRankPercentiles, optionVolume, reportInstantMs, skew30, spotVolCorrelation, vrp, type CurveState } from "../../../lib/vol";
import { MINUTE_MS, SVX_TENOR_MINUTES } from "../../../lib/vol/defaults";
import { eventsOf, ivOf, sigmaOf, symbolInputs, tiltOf, type SymbolInputs } from "./module-objects";
import type { VolState } from "./vol-route";
import { timeSlicer } from "../../yield-to-loop";

/** How much of an SVX reading's interpolation a scheduled report falls inside. */
type EarningsOverlap = "none" | "partial" | "full";

/** One screener row. */
export type ScreenerRow = Record<ScreenerSortField, number | null> & {
  symbol: string;
  asOf: string;
  sector: string;
  quality: "good" | "fair" | "thin";
  curve: CurveState | null;
  earnings_overlap_9d: EarningsOverlap | null;
  earnings_overlap_30d: EarningsOverlap | null;
};

/**
 * Overlap of a report with the SVX reading of `tenorMinutes` at `asOfMs`: `none` when the report
 * is after the target instant (outside the reading), `full` when it is inside and both the near
 * and next terms settle after it (each term's variance includes it), `partial` when it is inside
 * but the near term settles before it (the interpolation spans the report).
 *
 * @see docs/methodology.md#screener-fields
 */
function earningsOverlap(x: SymbolInputs, reportMs: number, tenorMinutes: number): EarningsOverlap | null {
  const read = x.live.terms.varianceTo(tenorMinutes);
  if (!read) return null;
  if (reportMs > x.live.board.asOfMs + tenorMinutes * MINUTE_MS) return "none";
  const nearSettle = read.near?.settleMs ?? null;
  return nearSettle !== null && nearSettle < reportMs ? "partial" : "full";
}

/** The screener row of `symbol` at `nowMs`, or null without a live board. */
export async function screenerRow(state: VolState, symbol: string, info: { sector: string; type: string }, nowMs: number): Promise<ScreenerRow | null> {
  const x = await symbolInputs(state, symbol, nowMs);
  if (!x) return null;
  const key = `row|${symbol}|${x.live.board.asOfMs}`;
  let p = state.memo.get(key) as Promise<ScreenerRow> | undefined;
  if (!p) {
    p = buildRow(state, x, info);
    state.memo.set(key, p);
  }
  return p;
}

async function buildRow(state: VolState, x: SymbolInputs, info: { sector: string; type: string }): Promise<ScreenerRow> {
  const { board, terms } = x.live;
  // Each module is tens of ms on a cold symbol (tilt reads its premium lows): sliced.
  const slice = timeSlicer();
  const iv = await ivOf(state, x);
  await slice();
  const skew = skew30(board, terms);
  const rrSeries = [...x.history.map((r) => r.rr25_30 ?? Number.NaN), skew?.rr25_30 ?? Number.NaN];
  const t = await tiltOf(state, x);
  await slice();
  const sg = await sigmaOf(state, x);
  await slice();
  const ev = await eventsOf(state, x);
  await slice();
  const oneDay = coneHorizonTargets(board.asOfMs).find((h) => h.name === "1d");
  const em1d = oneDay?.settleMs ? (impliedMove(terms, oneDay.settleMs)?.em1Pct ?? null) : null;
  const closes = [...x.history.map((r) => r.close), board.spot];
  const svx30s = [...x.history.map((r) => r.svx30 ?? Number.NaN), iv.svx30 ?? Number.NaN];
  const reportMs = ev ? reportInstantMs({ date: ev.date as IsoDate, timing: ev.timing }) : null;
  // No earnings calendar for an index: its overlaps are unknown (null), a stock without a
  // scheduled report has none.
  const overlap = (tenor: number): EarningsOverlap | null => (info.type === "index" ? null : reportMs === null ? "none" : earningsOverlap(x, reportMs, tenor));
  return {
    symbol: x.live.symbol,
    asOf: isoUtc(board.asOfMs),
    sector: info.sector,
    quality: iv.quality,
    curve: iv.curve,
    svx30: iv.svx30,
    svx1d: iv.svx1d,
    svx30_pct_1y: iv.pct_by.svx30["1y"],
    svx1d_pct_1y: iv.pct_by.svx1d["1y"],
    svx9_pct_1y: iv.pct_by.svx9["1y"],
    svx3m_pct_1y: iv.pct_by.svx3m["1y"],
    iv_rank: iv.iv_rank,
    iv_pct: iv.iv_pct,
    ratio_vix: iv.ratio_vix,
    term_slope: iv.term_slope,
    rr25_30: skew?.rr25_30 ?? null,
    skew_pct_1y: ivRankPercentiles(rrSeries).iv_pct,
    tilt_21: t.tilt_21,
    tilt_z: t.tilt_z,
    tilt_pct_1y: t.tilt_pct_1y,
    em_1d_pct: em1d,
    running_sigma: sg?.running_sigma ?? null,
    sigma_odds_pct: sg?.sigma_odds_pct ?? null,
    expected_vrp: vrp(closes, svx30s).expected_vrp,
    // The report's own move only: the straddle estimate spans the whole expiry (docs/methodology.md#screener-fields).
    event_move_pct: ev?.implied_move_pct ?? null,
    days_to_event: ev?.days_to_event ?? null,
    opt_vol: optionVolume(board),
    spot: board.spot,
    spot_vol_corr: spotVolCorrelation(closes, svx30s),
    // The headline's cheap side (docs/methodology.md#premium-low-and-cheap-from-low).
    cheap_from_low_pct: t.headline ? (t.headline.cheap === "put" ? t.headline.put_from_low_pct : t.headline.call_from_low_pct) : null,
    day_pace: sg?.day_pace ?? null,
    day_reprice: sg?.day_reprice ?? null,
    earnings_overlap_9d: overlap(SVX_TENOR_MINUTES.svx9),
    earnings_overlap_30d: overlap(SVX_TENOR_MINUTES.svx30),
  };
}
