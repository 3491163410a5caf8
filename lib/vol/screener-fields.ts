import type { ChainSnapshot, IsoDate } from "../market/market-data";
import { SPOT_VOL_CORR_SESSIONS } from "./defaults";

/**
 * Contracts traded so far in the board's session across the whole chain (`opt_vol`).
 *
 * @example optionVolume(chain)
 * @see docs/methodology.md#screener-fields
 */
export function optionVolume(chain: ChainSnapshot): number {
  let v = 0;
  for (let i = 0; i < chain.volume.length; i++) {
    // biome-ignore lint/complexity/useMathMinMax: a NaN volume counts as 0 here; Math.max would propagate it
    v += chain.volume[i] > 0 ? chain.volume[i] : 0;
  }
  return v;
}

/**
 * `spot_vol_corr`: Pearson correlation of daily log returns of the close and daily changes of
 * SVX30 (vol points) over the last 60 sessions (`SPOT_VOL_CORR_SESSIONS`); pairs with a missing
 * value are skipped; null with fewer than 20 pairs or no dispersion.
 *
 * @example spotVolCorrelation(closes, svx30) // about -0.8 on an index
 * @see docs/methodology.md#screener-fields
 */
export function spotVolCorrelation(closes: ArrayLike<number>, svx30: ArrayLike<number>, sessions: number = SPOT_VOL_CORR_SESSIONS): number | null {
  const n = Math.min(closes.length, svx30.length);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = Math.max(1, n - sessions); i < n; i++) {
    const x = Math.log(closes[i] / closes[i - 1]);
    const y = svx30[i] - svx30[i - 1];
    if (Number.isFinite(x) && Number.isFinite(y)) {
      xs.push(x);
      ys.push(y);
    }
  }
  if (xs.length < 20) return null;
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : null;
}

/**
 * `days_to_event`: calendar days from the session date to the event date (0 on the day).
 *
 * @example daysToEvent("2024-05-01", "2024-05-02") // 1
 * @see docs/methodology.md#screener-fields
 */
export function daysToEvent(sessionDate: IsoDate, eventDate: IsoDate): number {
  return Math.round((Date.parse(`${eventDate}T12:00:00Z`) - Date.parse(`${sessionDate}T12:00:00Z`)) / 86_400_000);
}
