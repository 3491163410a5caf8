// Index against constituents: the Magnificent Seven's implied vol against QQQ's (`dispersion` of
// `/v1/vol/market`). @see docs/methodology.md#dispersion
import { DISPERSION_MIN_MEMBERS } from "./defaults";

/** One day's dispersion reading from SVX30s in vol points. */
export interface DispersionReading {
  /** Members with a reading. */
  n: number;
  /** Equal-weight mean of the members' SVX30. */
  members_svx30: number | null;
  index_svx30: number | null;
  /** `members_svx30 - index_svx30`, vol points: wide when the members move apart. */
  spread: number | null;
  /** `members_svx30 / index_svx30`. */
  ratio: number | null;
  /** Implied correlation of the equal-weight basket that the index's variance implies. */
  implied_corr: number | null;
}

/**
 * Dispersion from the index's SVX30 and the members' (null or NaN where unread), equal weights
 * `w = 1/n` over the members read: `implied_corr = (sI^2 - sum w^2 si^2) / ((sum w si)^2 - sum w^2 si^2)`
 * (Cboe's implied-correlation form). Everything null under `DISPERSION_MIN_MEMBERS` members or
 * without the index; the correlation is reported as computed (QQQ is not the basket, so it can
 * leave [-1, 1]).
 *
 * @example dispersionReading(22.1, [28, 31, 45, 30, 29, 33, 52]).implied_corr
 * @see docs/methodology.md#dispersion
 */
export function dispersionReading(indexSvx30: number | null, members: readonly (number | null)[]): DispersionReading {
  const vols = members.filter((v): v is number => v !== null && Number.isFinite(v) && v > 0);
  const n = vols.length;
  const none = { n, members_svx30: null, index_svx30: indexSvx30, spread: null, ratio: null, implied_corr: null };
  if (n < DISPERSION_MIN_MEMBERS || indexSvx30 === null || !(indexSvx30 > 0)) return none;
  const w = 1 / n;
  let sum = 0;
  let sumSq = 0;
  for (const v of vols) {
    sum += (w * v) / 100;
    sumSq += (w * v * w * v) / 1e4;
  }
  const sI = indexSvx30 / 100;
  const den = sum * sum - sumSq;
  const avg = 100 * sum;
  return {
    n,
    members_svx30: avg,
    index_svx30: indexSvx30,
    spread: avg - indexSvx30,
    ratio: avg / indexSvx30,
    implied_corr: den > 0 ? (sI * sI - sumSq) / den : null,
  };
}
