import type { ChainSnapshot, EarningsEvent, IsoDate } from "../market/market-data";
import { nextTradingDay, previousTradingDay, sessionBounds } from "../time";
import type { ChainTerms } from "./chain-terms";
import { expirationQuotes } from "./chain-terms";
import { MINUTES_PER_YEAR, VRP_FORWARD_SESSIONS } from "./defaults";
import { ivPercentile } from "./iv-rank";

/** The instant a report is modelled at: the open for `bmo`, the close for `amc`. @see docs/methodology.md#events-and-vrp */
export function reportInstantMs(e: Pick<EarningsEvent, "date" | "timing">): number {
  const b = sessionBounds(e.date);
  return e.timing === "bmo" ? b.openMs : b.closeMs;
}

/** Sessions whose closes bracket a report: the last close before it and the first close after it. */
export function reactionSessions(e: Pick<EarningsEvent, "date" | "timing">): { before: IsoDate; after: IsoDate } {
  return e.timing === "bmo" ? { before: previousTradingDay(e.date), after: e.date } : { before: e.date, after: nextTradingDay(e.date) };
}

/** A report's move priced by the board. */
export interface EventMove {
  /** 1-sigma move of the report alone, percent (`100 sqrt(e)`); null when only the estimate exists. */
  implied_move_pct: number | null;
  /** True when `implied_move_pct` could not be separated and `estimate_move_pct` is all there is. */
  estimate: boolean;
  /** ATM straddle of the first expiration after the report over spot, percent (the rough estimate). */
  estimate_move_pct: number | null;
  /** Event variance `e` (decimal^2) and the diffusive variance rate `v` (per year) it was separated from. */
  eventVariance: number | null;
  varianceRateAnnual: number | null;
  expirations: IsoDate[];
}

/**
 * The move a board prices into a report, separating event variance from the term structure:
 * with the first two usable expirations settling after the report (total variances `w2`, `w3`
 * at `T2 < T3`), `w = v T + e` gives `v = (w3 - w2)/(T3 - T2)` and `e = w2 - v T2`;
 * `implied_move_pct = 100 sqrt(e)` when `e > 0` and `v > 0`. Otherwise only the straddle estimate
 * exists (`estimate: true`, `implied_move_pct` null): the ATM straddle (strike nearest the
 * forward) of the first expiration after the report over spot. Null when no expiration settles
 * after the report.
 *
 * @example eventImpliedMove(chain, chainTerms(chain), reportInstantMs(next))?.implied_move_pct
 * @see docs/methodology.md#events-and-vrp
 */
export function eventImpliedMove(chain: ChainSnapshot, terms: ChainTerms, reportMs: number): EventMove | null {
  const after: number[] = [];
  terms.expirations.forEach((e, k) => {
    if (e.settleMs > reportMs && after.length < 2 && terms.term(k)) after.push(k);
  });
  if (after.length === 0) return null;
  const t = (k: number) => terms.expirations[k].tMinutes / MINUTES_PER_YEAR;
  let e: number | null = null;
  let v: number | null = null;
  if (after.length === 2) {
    const [k2, k3] = after;
    const w2 = terms.term(k2)!.totalVariance;
    const w3 = terms.term(k3)!.totalVariance;
    const vv = (w3 - w2) / (t(k3) - t(k2));
    const ee = w2 - vv * t(k2);
    if (ee > 0 && vv > 0) {
      e = ee;
      v = vv;
    }
  }
  const k2 = after[0];
  const term = terms.term(k2)!;
  const q = expirationQuotes(chain, terms.expirations[k2].expIndex);
  let best = -1;
  for (let i = 0; i < q.strike.length; i++) {
    if (!(q.callBid[i] > 0 && q.putBid[i] > 0)) continue;
    if (best < 0 || Math.abs(q.strike[i] - term.forward) < Math.abs(q.strike[best] - term.forward)) best = i;
  }
  const straddle = best < 0 ? null : (q.callBid[best] + q.callAsk[best] + q.putBid[best] + q.putAsk[best]) / 2;
  return {
    implied_move_pct: e === null ? null : 100 * Math.sqrt(e),
    estimate: e === null,
    estimate_move_pct: straddle === null ? null : (100 * straddle) / chain.spot,
    eventVariance: e,
    varianceRateAnnual: v,
    expirations: after.map((k) => terms.expirations[k].expiration),
  };
}

/** Median and mean of absolute past report moves (percent), and the priced move against the median. */
export interface PastMoves {
  median_move_pct: number | null;
  mean_move_pct: number | null;
  /** `implied_move_pct / median_move_pct`: above 1, the report is priced above its typical move. */
  implied_vs_median: number | null;
  reports: number;
}

/**
 * Summary of past reaction moves (signed percent, close before to close after the report).
 *
 * @example pastMoveStats([3.1, -5.2, 1.4], 4.0).median_move_pct // 3.1
 * @see docs/methodology.md#events-and-vrp
 */
export function pastMoveStats(movesPct: readonly number[], impliedMovePct: number | null): PastMoves {
  const abs = movesPct.map(Math.abs).sort((a, b) => a - b);
  const n = abs.length;
  const median = n === 0 ? null : n % 2 ? abs[(n - 1) / 2] : (abs[n / 2 - 1] + abs[n / 2]) / 2;
  const mean = n === 0 ? null : abs.reduce((a, b) => a + b, 0) / n;
  return {
    median_move_pct: median,
    mean_move_pct: mean,
    implied_vs_median: impliedMovePct !== null && median !== null && median > 0 ? impliedMovePct / median : null,
    reports: n,
  };
}

/** VRP readings from daily closes and SVX30 (vol points), oldest first, ending today. */
export interface VrpReading {
  /** 20-session realized vol, annualised (`sqrt(252)`), vol points. */
  rv20: number | null;
  /** `svx30 - rv20` today, vol points. */
  expected_vrp: number | null;
  /** Percentile of today's expected VRP among the trailing 252 sessions' (see IV percentile). */
  vrp_pct_1y: number | null;
  /** Share of trailing sessions (up to 252, with 21 sessions after them known) whose SVX30 exceeded the realized vol of the next 21 sessions, percent. */
  overpaid_share_pct: number | null;
}

/**
 * VRP from a daily series of closes and SVX30 readings.
 *
 * @example vrp(closes, svx30).expected_vrp
 * @see docs/methodology.md#events-and-vrp
 */
export function vrp(closes: ArrayLike<number>, svx30: ArrayLike<number>): VrpReading {
  const n = closes.length;
  const rvAt = (end: number, len: number): number | null => {
    if (end - len < 0 || end >= n) return null;
    let s = 0;
    for (let i = end - len + 1; i <= end; i++) s += Math.log(closes[i] / closes[i - 1]) ** 2;
    return 100 * Math.sqrt((s / len) * 252);
  };
  const expected = (i: number): number => {
    const rv = rvAt(i, 20);
    return rv === null || !Number.isFinite(svx30[i]) ? Number.NaN : svx30[i] - rv;
  };
  const rv20 = rvAt(n - 1, 20);
  const today = expected(n - 1);
  const hist: number[] = [];
  for (let i = Math.max(0, n - 1 - 252); i < n - 1; i++) hist.push(expected(i));
  let paid = 0;
  let known = 0;
  for (let i = Math.max(0, n - 1 - VRP_FORWARD_SESSIONS - 252); i + VRP_FORWARD_SESSIONS < n; i++) {
    const fwd = rvAt(i + VRP_FORWARD_SESSIONS, VRP_FORWARD_SESSIONS);
    if (fwd === null || !Number.isFinite(svx30[i])) continue;
    known++;
    if (svx30[i] > fwd) paid++;
  }
  return {
    rv20,
    expected_vrp: Number.isFinite(today) ? today : null,
    vrp_pct_1y: Number.isFinite(today) && hist.some(Number.isFinite) ? ivPercentile(hist, today) : null,
    overpaid_share_pct: known === 0 ? null : (100 * paid) / known,
  };
}
