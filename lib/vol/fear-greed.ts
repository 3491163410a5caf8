// A fear-and-greed score of the S&P complex, 0 (fear) .. 100 (greed), from readings the complex
// already has. @see docs/methodology.md#fear-and-greed
import { FEAR_GREED_BANDS, FEAR_GREED_MIN_COMPONENTS, FEAR_GREED_MOMENTUM_SESSIONS } from "./defaults";
import { ivRankPercentiles } from "./iv-rank";

export type FearGreedLabel = "extreme_fear" | "fear" | "neutral" | "greed" | "extreme_greed";

/** The score, its label and its components (each 0-100, null where history does not allow). */
export interface FearGreed {
  score: number | null;
  label: FearGreedLabel | null;
  components: { vol_level: number | null; term: number | null; skew: number | null; momentum: number | null };
}

/** Daily series, oldest first, today's reading last, NaN where missing. */
export interface FearGreedInputs {
  svx30: ArrayLike<number>;
  svx3m: ArrayLike<number>;
  rr25_30: ArrayLike<number>;
  close: ArrayLike<number>;
}

const pct = (xs: ArrayLike<number>): number | null => ivRankPercentiles(xs).iv_pct;

/** The label of a score: bands at 25, 45, 55 and 75. */
export function fearGreedLabel(score: number): FearGreedLabel {
  const [a, b, c, d] = FEAR_GREED_BANDS;
  return score < a ? "extreme_fear" : score < b ? "fear" : score <= c ? "neutral" : score <= d ? "greed" : "extreme_greed";
}

/**
 * Four components, each a one-year IV percentile (0-100) oriented so that high means calm:
 * `vol_level = 100 - pct(SVX30)`, `term = 100 - pct(SVX30 / SVX3M)`, `skew = pct(rr25_30)` (a less
 * negative risk reversal, less put demand), `momentum = pct(close / close 20 sessions back - 1)`.
 * The score is their mean with at least three present, else null.
 *
 * @example fearGreed({ svx30, svx3m, rr25_30, close }).score
 * @see docs/methodology.md#fear-and-greed
 */
export function fearGreed(x: FearGreedInputs): FearGreed {
  const m = FEAR_GREED_MOMENTUM_SESSIONS;
  const ratio = Array.from(x.svx30, (v, i) => (x.svx3m[i] > 0 ? v / x.svx3m[i] : Number.NaN));
  const ret = Array.from(x.close, (v, i) => (i >= m && x.close[i - m] > 0 ? v / x.close[i - m] - 1 : Number.NaN));
  const flip = (p: number | null) => (p === null ? null : 100 - p);
  const components = { vol_level: flip(pct(x.svx30)), term: flip(pct(ratio)), skew: pct(x.rr25_30), momentum: pct(ret) };
  const present = Object.values(components).filter((v): v is number => v !== null);
  const score = present.length >= FEAR_GREED_MIN_COMPONENTS ? present.reduce((a, b) => a + b, 0) / present.length : null;
  return { score, label: score === null ? null : fearGreedLabel(score), components };
}
