import { MINUTES_PER_YEAR } from "./defaults";

/** A term as the interpolation reads it. */
export interface TermPoint {
  /** Minutes to settlement. */
  tMinutes: number;
  /** Annualised variance of the term (decimal^2 per year). */
  varianceAnnual: number;
}

/** How a constant-maturity variance was read. */
export type InterpolationMethod = "interpolated" | "single" | "extrapolated";

/** Total implied variance to a target maturity and the weights that made it. */
export interface ConstantMaturityVariance {
  targetMinutes: number;
  /** Total variance to the target, `sigma^2 T` (decimal^2). */
  totalVariance: number;
  /** `totalVariance * 525,600 / targetMinutes`. */
  varianceAnnual: number;
  /** Weight of the near term's total variance (`(N2 - Nt)/(N2 - N1)`), 1 for a single term. */
  weightNear: number;
  /** Weight of the next term's total variance (`(Nt - N1)/(N2 - N1)`). */
  weightNext: number;
  method: InterpolationMethod;
}

/**
 * Cboe's constant-maturity step: total variance linear in minutes between a near term
 * (`N1 <= Nt`) and a next term (`N2 >= Nt`),
 * `w = T1 s1^2 (N2 - Nt)/(N2 - N1) + T2 s2^2 (Nt - N1)/(N2 - N1)`. With one term only (the other
 * side is missing, or it sits exactly at the target) the term's annualised variance is held flat:
 * `w = s^2 Nt / 525,600` (`method` "single" when the term is at the target, else "extrapolated").
 *
 * @example
 * constantMaturityVariance({ tMinutes: 35_924, varianceAnnual: 0.01846292 },
 *   { tMinutes: 46_394, varianceAnnual: 0.01882101 }, 43_200).varianceAnnual; // 0.13685821^2
 * @see docs/methodology.md#constant-maturity
 */
export function constantMaturityVariance(near: TermPoint | null, next: TermPoint | null, targetMinutes: number): ConstantMaturityVariance | null {
  const nt = targetMinutes;
  const single = (p: TermPoint, weightNear: number): ConstantMaturityVariance => ({
    targetMinutes: nt,
    totalVariance: (p.varianceAnnual * nt) / MINUTES_PER_YEAR,
    varianceAnnual: p.varianceAnnual,
    weightNear,
    weightNext: 1 - weightNear,
    method: p.tMinutes === nt ? "single" : "extrapolated",
  });
  if (near && next && next.tMinutes > near.tMinutes) {
    const n1 = near.tMinutes;
    const n2 = next.tMinutes;
    const wNear = (n2 - nt) / (n2 - n1);
    const wNext = (nt - n1) / (n2 - n1);
    const totalVariance = (n1 / MINUTES_PER_YEAR) * near.varianceAnnual * wNear + (n2 / MINUTES_PER_YEAR) * next.varianceAnnual * wNext;
    return {
      targetMinutes: nt,
      totalVariance,
      varianceAnnual: (totalVariance * MINUTES_PER_YEAR) / nt,
      weightNear: wNear,
      weightNext: wNext,
      method: "interpolated",
    };
  }
  if (near) return single(near, 1);
  if (next) return single(next, 0);
  return null;
}

/**
 * An index level from an annualised variance: `100 sqrt(variance)` (vol points).
 *
 * @example varianceToIndex(0.04) // 20
 * @see docs/methodology.md#constant-maturity
 */
export function varianceToIndex(varianceAnnual: number): number {
  return 100 * Math.sqrt(varianceAnnual);
}
