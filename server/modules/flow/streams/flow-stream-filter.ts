// The live-feed filters of `/v1/flow/stream` (reference vocabulary) as one predicate over a scored
// trade, and the checks between parameters. See docs/api.md#flow-stream.
import type { FlowStreamQuery } from "../../../../lib/api/flow-stream";
import type { ScoredTrade } from "../../../../lib/flow";
import type { PremiumBand } from "../../../../lib/flow/premium-percentile";
import { apiErrors } from "../../../errors";
import { checkBounds } from "../shared/trade-filters";

/** The filters a topic applies (the query without its ticker lists, cursor and refused `limit`). */
export type FlowStreamFilter = Omit<FlowStreamQuery, "ticker" | "exclude_ticker" | "limit" | "lastEventId" | "show_stocks" | "show_etf" | "show_indices">;

/** The filter fields of a parsed query, in a fixed order (so equal filters give equal topic keys). */
export function streamFilterOf(q: FlowStreamQuery): FlowStreamFilter {
  const { ticker: _t, exclude_ticker: _x, limit: _l, lastEventId: _e, show_stocks: _s, show_etf: _f, show_indices: _i, ...filter } = q;
  return Object.fromEntries(
    Object.entries(filter)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  ) as FlowStreamFilter;
}

/** Cross-field rules: every `min_` at most its `max_`, and no pair of toggles that excludes everything. */
export function checkStreamQuery(q: FlowStreamQuery): void {
  checkBounds(q, [
    ["min_premium", "max_premium"],
    ["min_size", "max_size"],
    ["min_dte", "max_dte"],
    ["min_oi", "max_oi"],
    ["min_vol_oi", "max_vol_oi"],
    ["min_iv", "max_iv"],
    ["min_flow_score", "max_flow_score"],
  ]);
  if (q.only_multi_leg && q.exclude_multi_leg) throw apiErrors.invalidParameter("exclude_multi_leg", "cannot be true together with `only_multi_leg`.");
  if (!q.show_calls && !q.show_puts) throw apiErrors.invalidParameter("show_calls", "`show_calls` and `show_puts` cannot both be false (nothing would stream).");
  if (!q.show_stocks && !q.show_etf && !q.show_indices) {
    throw apiErrors.invalidParameter("show_stocks", "`show_stocks`, `show_etf` and `show_indices` cannot all be false (nothing would stream).");
  }
}

/**
 * Whether a side label passes the five side toggles: `BB` below bid, `B` at the bid, `AB`/`M`/`BA`
 * between the quotes (`show_mid`), `A` at the ask, `AA` above the ask; `N` (no usable NBBO) and
 * crosses (no aggressor) are not gated by side.
 */
function sidePasses(t: ScoredTrade, f: FlowStreamFilter): boolean {
  if (t.isCross) return true;
  switch (t.side) {
    case "BB":
      return f.show_below_bid;
    case "B":
      return f.show_bid;
    case "AB":
    case "M":
    case "BA":
      return f.show_mid;
    case "A":
      return f.show_ask;
    case "AA":
      return f.show_above_ask;
    default:
      return true;
  }
}

/** An optional value within optional inclusive bounds; a null value fails once either bound is set. */
function within(v: number | null, lo: number | undefined, hi: number | undefined): boolean {
  if (lo === undefined && hi === undefined) return true;
  if (v === null) return false;
  return (lo === undefined || v >= lo) && (hi === undefined || v <= hi);
}

/** True when a scored trade (with its premium band, null when none) passes every filter. */
export function streamTradePasses(t: ScoredTrade, band: PremiumBand | null, f: FlowStreamFilter): boolean {
  return (
    (t.right === "C" ? f.show_calls : f.show_puts) &&
    within(t.premiumUsd, f.min_premium, f.max_premium) &&
    within(t.size, f.min_size, f.max_size) &&
    within(t.dte, f.min_dte, f.max_dte) &&
    (!f.only_0dte || t.dte === 0) &&
    within(t.openInterest, f.min_oi, f.max_oi) &&
    within(t.volOiRatio, f.min_vol_oi, f.max_vol_oi) &&
    within(t.iv, f.min_iv, f.max_iv) &&
    (!f.only_sweeps || t.isSweep) &&
    (!f.only_crosses || t.isCross) &&
    (!f.only_multi_leg || t.isMultiLeg) &&
    (!f.exclude_multi_leg || !t.isMultiLeg) &&
    within(t.flowScore, f.min_flow_score, f.max_flow_score) &&
    (f.abs_min_flow_score === undefined || Math.abs(t.flowScore) >= f.abs_min_flow_score) &&
    (f.min_percentile === undefined || (band !== null && band >= f.min_percentile)) &&
    sidePasses(t, f)
  );
}
