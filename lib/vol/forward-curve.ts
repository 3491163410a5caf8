import type { IsoDate } from "../market/market-data";
import { monthlyExpiration } from "../symbols";
import { isTradingDay, previousTradingDay, sessionBounds } from "../time";
import type { ChainTerms } from "./chain-terms";
import { CURVE_FLAT_REL, MINUTE_MS, MINUTES_PER_YEAR, SVX_TENOR_MINUTES } from "./defaults";

/** One point of the futures-style curve: forward 30-day SVX from a VX-style settlement. */
interface ForwardSvxPoint {
  /** VX-style settlement date (the Wednesday 30 days before the next standard expiration). */
  settle: IsoDate;
  /** Minutes from the board to the settlement's 09:30 ET open. */
  minutes: number;
  /** `100 sqrt((w(N + 30d) - w(N)) 525,600 / 43,200)`, vol points. */
  forwardSvx: number;
}

/** The curve's summary fields (the reference's names). */
export interface ForwardSvxCurve {
  points: ForwardSvxPoint[];
  /** `contango` / `backwardation` / `flat` from the first two points (`CURVE_FLAT_REL`). */
  vx_curve_state: "contango" | "backwardation" | "flat" | null;
  /** `100 (m2 / m1 - 1)`: what the front point gains (contango) rolling into the second. */
  vx_roll_pct: number | null;
  /** `100 (m1 / svx30 - 1)`: the front point against the spot 30-day reading. */
  vx_m1_vs_vix_pct: number | null;
}

/**
 * The VX-style settlement date of month `m`: the Wednesday 30 days before the standard monthly
 * expiration of the following month, or the trading day before it when that Wednesday is a
 * holiday (Cboe's VIX futures rule).
 *
 * @example vxSettlementDate(2024, 5) // "2024-05-22" (June 2024 standard: 2024-06-21)
 * @see docs/methodology.md#forward-svx-curve
 */
export function vxSettlementDate(year: number, month: number): IsoDate {
  const ny = month === 12 ? year + 1 : year;
  const nm = month === 12 ? 1 : month + 1;
  // The standard expiration is a Friday (or the Thursday before a holiday Friday); count from the Friday.
  const std = monthlyExpiration(ny, nm);
  const friday = new Date(`${std}T12:00:00Z`);
  if (friday.getUTCDay() === 4) friday.setUTCDate(friday.getUTCDate() + 1);
  friday.setUTCDate(friday.getUTCDate() - 30);
  const wed = friday.toISOString().slice(0, 10);
  return isTradingDay(wed) ? wed : previousTradingDay(wed);
}

/**
 * The futures-style SVX curve of a board: at each of the next `count` VX-style settlements (at
 * their 09:30 ET open), the model-free forward 30-day implied vol from the board's constant-maturity
 * total variance `w(N)` ([Constant maturity](#constant-maturity)):
 * `100 sqrt((w(N + 43,200) - w(N)) x 525,600 / 43,200)`. A point is left out when its far end is
 * past the board's last usable term (no extrapolation) or the forward variance is not positive.
 * No convexity adjustment: a VX future prices the square root, below this by Jensen's inequality.
 *
 * @example forwardSvxCurve(chainTerms(spxwBoard), svx30)?.points[0].forwardSvx
 * @see docs/methodology.md#forward-svx-curve
 */
export function forwardSvxCurve(terms: Pick<ChainTerms, "asOfMs" | "varianceTo" | "expirations">, svx30: number | null, count = 6): ForwardSvxCurve {
  const lastMinutes = terms.expirations.length > 0 ? terms.expirations[terms.expirations.length - 1].tMinutes : 0;
  const points: ForwardSvxPoint[] = [];
  const start = new Date(terms.asOfMs);
  let y = start.getUTCFullYear();
  let m = start.getUTCMonth() + 1;
  for (let guard = 0; points.length < count && guard < count + 24; guard++) {
    const settle = vxSettlementDate(y, m);
    m = m === 12 ? 1 : m + 1;
    if (m === 1) y++;
    const minutes = (sessionBounds(settle).openMs - terms.asOfMs) / MINUTE_MS;
    if (!(minutes > 0)) continue;
    const far = minutes + SVX_TENOR_MINUTES.svx30;
    if (far > lastMinutes) break;
    const w1 = terms.varianceTo(minutes)?.totalVariance;
    const w2 = terms.varianceTo(far)?.totalVariance;
    if (w1 === undefined || w2 === undefined || !(w2 > w1)) continue;
    points.push({ settle, minutes, forwardSvx: 100 * Math.sqrt(((w2 - w1) * MINUTES_PER_YEAR) / SVX_TENOR_MINUTES.svx30) });
  }
  const m1 = points[0]?.forwardSvx ?? null;
  const m2 = points[1]?.forwardSvx ?? null;
  let state: ForwardSvxCurve["vx_curve_state"] = null;
  if (m1 !== null && m2 !== null) state = m2 > (1 + CURVE_FLAT_REL) * m1 ? "contango" : m2 < (1 - CURVE_FLAT_REL) * m1 ? "backwardation" : "flat";
  return {
    points,
    vx_curve_state: state,
    vx_roll_pct: m1 !== null && m2 !== null ? 100 * (m2 / m1 - 1) : null,
    vx_m1_vs_vix_pct: m1 !== null && svx30 !== null && svx30 > 0 ? 100 * (m1 / svx30 - 1) : null,
  };
}
