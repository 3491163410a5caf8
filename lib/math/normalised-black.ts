import { erfc, erfcx } from "./erf";

/**
 * The normalised Black function of Peter Jäckel's "Let's Be Rational" (Wilmott, January 2015,
 * pp. 40-53): b(x, s, theta) = theta * [exp(x/2) Phi(theta (x/s + s/2)) - exp(-x/2) Phi(theta (x/s - s/2))]
 * with x = ln(F/K) and s = sigma sqrt(T), i.e. the undiscounted Black price divided by sqrt(F K).
 * Evaluated in four regions (asymptotic expansion, small-s expansion, Cody erfc/erfcx forms) so
 * that out-of-the-money values keep full relative precision down to 1e-300.
 *
 * Port of the reference implementation (www.jaeckel.org/LetsBeRational.7z):
 *   Copyright © 2013-2023 Peter Jäckel. Permission to use, copy, modify, and distribute this
 *   software is freely granted, provided that this notice is preserved.
 *
 * @see docs/methodology.md#normalised-black-function
 */

export const DBL_EPSILON = 2.220446049250313e-16;
export const DBL_MIN = 2.2250738585072014e-308;
export const DBL_MAX = Number.MAX_VALUE;
const SQRT_DBL_MIN = Math.sqrt(DBL_MIN);
const FOURTH_ROOT_DBL_EPSILON = Math.sqrt(Math.sqrt(DBL_EPSILON));
const SIXTEENTH_ROOT_DBL_EPSILON = Math.sqrt(Math.sqrt(FOURTH_ROOT_DBL_EPSILON));
const ONE_OVER_SQRT_TWO_PI = 0.3989422804014327;
const HALF_LN_TWO_PI = 0.9189385332046728;
const SQRT_PI_OVER_TWO = 1.2533141373155003;
const SQRT_HALF = Math.SQRT1_2;
/** eta: |h| beyond which the asymptotic expansion is used. */
const ASYMPTOTIC_THRESHOLD = -10;
/** tau: s/2 below which the small-s expansion is used. */
const SMALL_T_THRESHOLD = 2 * SIXTEENTH_ROOT_DBL_EPSILON;

/**
 * Normalised intrinsic value max(theta (exp(x/2) - exp(-x/2)), 0) = 2 sinh(|x|/2) when in the
 * money, by its Taylor series near x = 0 so that tiny x keeps relative precision.
 */
export function normalisedIntrinsic(x: number, theta: number): number {
  if (theta * x <= 0) return 0;
  const x2 = x * x;
  if (x2 < 98 * FOURTH_ROOT_DBL_EPSILON) {
    return Math.abs(x * (1 + x2 * (1 / 24 + x2 * (1 / 1920 + x2 * (1 / 322560 + x2 / 92897280)))));
  }
  const bMax = Math.exp(0.5 * x);
  return Math.abs(bMax - 1 / bMax);
}

/** Normalised vega db/ds = exp(-((x/s)^2 + (s/2)^2) / 2) / sqrt(2 pi). */
export function normalisedVega(x: number, s: number): number {
  const ax = Math.abs(x);
  if (ax <= 0) return ONE_OVER_SQRT_TWO_PI * Math.exp(-0.125 * s * s);
  if (s <= 0 || s <= ax * SQRT_DBL_MIN) return 0;
  const h = x / s;
  const t = 0.5 * s;
  return ONE_OVER_SQRT_TWO_PI * Math.exp(-0.5 * (h * h + t * t));
}

/** ln of the normalised vega, finite where the vega itself underflows. */
export function lnNormalisedVega(x: number, s: number): number {
  if (Math.abs(x) <= 0) return -HALF_LN_TWO_PI - 0.125 * s * s;
  if (s <= 0) return -DBL_MAX;
  const h = x / s;
  const t = 0.5 * s;
  return -HALF_LN_TWO_PI - 0.5 * (h * h + t * t);
}

/**
 * b / vega for h = x/s < -10 and t = s/2 < |h| - 10 + tau: the 17th-order asymptotic expansion of
 * A(h, t) = (r/t) [Y(h+t) - Y(h-t)], Y = Phi/phi, in q = (h/r)^2 with e = (t/h)^2, r = (h+t)(h-t)
 * (Abramowitz & Stegun 26.2.12). The term of order q^k is (-1)^k (2k-1)!! 2 sum_j C(2k+1, 2j+1) e^j.
 */
function asymptoticExpansionOverVega(h: number, t: number): number {
  const e = (t / h) * (t / h);
  const r = (h + t) * (h - t);
  const q = (h / r) * (h / r);
  const sum =
    2 +
    q *
      (-6 +
        e * -2 +
        3 *
          q *
          (10 +
            e * (20 + e * 2) +
            5 *
              q *
              (-14 +
                e * (-70 + e * (-42 + e * -2)) +
                7 *
                  q *
                  (18 +
                    e * (168 + e * (252 + e * (72 + e * 2))) +
                    9 *
                      q *
                      (-22 +
                        e * (-330 + e * (-924 + e * (-660 + e * (-110 + e * -2)))) +
                        11 *
                          q *
                          (26 +
                            e * (572 + e * (2574 + e * (3432 + e * (1430 + e * (156 + e * 2))))) +
                            13 *
                              q *
                              (-30 +
                                e * (-910 + e * (-6006 + e * (-12870 + e * (-10010 + e * (-2730 + e * (-210 + e * -2)))))) +
                                15 *
                                  q *
                                  (34 +
                                    e * (1360 + e * (12376 + e * (38896 + e * (48620 + e * (24752 + e * (4760 + e * (272 + e * 2))))))) +
                                    17 *
                                      q *
                                      (-38 +
                                        e * (-1938 + e * (-23256 + e * (-100776 + e * (-184756 + e * (-151164 + e * (-54264 + e * (-7752 + e * (-342 + e * -2)))))))) +
                                        19 *
                                          q *
                                          (42 +
                                            e *
                                              (2660 +
                                                e *
                                                  (40698 + e * (232560 + e * (587860 + e * (705432 + e * (406980 + e * (108528 + e * (11970 + e * (420 + e * 2))))))))) +
                                            21 *
                                              q *
                                              (-46 +
                                                e *
                                                  (-3542 +
                                                    e *
                                                      (-67298 +
                                                        e *
                                                          (-490314 +
                                                            e *
                                                              (-1634380 +
                                                                e * (-2704156 + e * (-2288132 + e * (-980628 + e * (-201894 + e * (-17710 + e * (-506 + e * -2)))))))))) +
                                                23 *
                                                  q *
                                                  (50 +
                                                    e *
                                                      (4600 +
                                                        e *
                                                          (106260 +
                                                            e *
                                                              (961400 +
                                                                e *
                                                                  (4085950 +
                                                                    e *
                                                                      (8914800 +
                                                                        e *
                                                                          (10400600 +
                                                                            e * (6537520 + e * (2163150 + e * (354200 + e * (25300 + e * (600 + e * 2))))))))))) +
                                                    25 *
                                                      q *
                                                      (-54 +
                                                        e *
                                                          (-5850 +
                                                            e *
                                                              (-161460 +
                                                                e *
                                                                  (-1776060 +
                                                                    e *
                                                                      (-9373650 +
                                                                        e *
                                                                          (-26075790 +
                                                                            e *
                                                                              (-40116600 +
                                                                                e *
                                                                                  (-34767720 +
                                                                                    e *
                                                                                      (-16872570 +
                                                                                        e * (-4440150 + e * (-592020 + e * (-35100 + e * (-702 + e * -2)))))))))))) +
                                                        27 *
                                                          q *
                                                          (58 +
                                                            e *
                                                              (7308 +
                                                                e *
                                                                  (237510 +
                                                                    e *
                                                                      (3121560 +
                                                                        e *
                                                                          (20030010 +
                                                                            e *
                                                                              (69194580 +
                                                                                e *
                                                                                  (135727830 +
                                                                                    e *
                                                                                      (155117520 +
                                                                                        e *
                                                                                          (103791870 +
                                                                                            e *
                                                                                              (40060020 +
                                                                                                e * (8584290 + e * (950040 + e * (47502 + e * (812 + e * 2))))))))))))) +
                                                            29 *
                                                              q *
                                                              (-62 +
                                                                e *
                                                                  (-8990 +
                                                                    e *
                                                                      (-339822 +
                                                                        e *
                                                                          (-5259150 +
                                                                            e *
                                                                              (-40320150 +
                                                                                e *
                                                                                  (-169344630 +
                                                                                    e *
                                                                                      (-412506150 +
                                                                                        e *
                                                                                          (-601080390 +
                                                                                            e *
                                                                                              (-530365050 +
                                                                                                e *
                                                                                                  (-282241050 +
                                                                                                    e *
                                                                                                      (-88704330 +
                                                                                                        e *
                                                                                                          (-15777450 +
                                                                                                            e *
                                                                                                              (-1472562 + e * (-62930 + e * (-930 + e * -2)))))))))))))) +
                                                                31 *
                                                                  q *
                                                                  (66 +
                                                                    e *
                                                                      (10912 +
                                                                        e *
                                                                          (474672 +
                                                                            e *
                                                                              (8544096 +
                                                                                e *
                                                                                  (77134200 +
                                                                                    e *
                                                                                      (387073440 +
                                                                                        e *
                                                                                          (1146332880 +
                                                                                            e *
                                                                                              (2074316640 +
                                                                                                e *
                                                                                                  (2333606220 +
                                                                                                    e *
                                                                                                      (1637618400 +
                                                                                                        e *
                                                                                                          (709634640 +
                                                                                                            e *
                                                                                                              (185122080 +
                                                                                                                e *
                                                                                                                  (27768312 +
                                                                                                                    e *
                                                                                                                      (2215136 +
                                                                                                                        e * (81840 + e * (1056 + e * 2))))))))))))))) +
                                                                    33 *
                                                                      q *
                                                                      (-70 +
                                                                        e *
                                                                          (-13090 +
                                                                            e *
                                                                              (-649264 +
                                                                                e *
                                                                                  (-13449040 +
                                                                                    e *
                                                                                      (-141214920 +
                                                                                        e *
                                                                                          (-834451800 +
                                                                                            e *
                                                                                              (-2952675600 +
                                                                                                e *
                                                                                                  (-6495886320 +
                                                                                                    e *
                                                                                                      (-9075135300 +
                                                                                                        e *
                                                                                                          (-8119857900 +
                                                                                                            e *
                                                                                                              (-4639918800 +
                                                                                                                e *
                                                                                                                  (-1668903600 +
                                                                                                                    e *
                                                                                                                      (-367158792 +
                                                                                                                        e *
                                                                                                                          (-47071640 +
                                                                                                                            e *
                                                                                                                              (-3246320 +
                                                                                                                                e *
                                                                                                                                  (-104720 +
                                                                                                                                    e *
                                                                                                                                      (-1190 +
                                                                                                                                        e *
                                                                                                                                          -2)))))))))))))))))))))))))))))))));
  const bOverVega = (t / r) * sum;
  return Math.abs(Math.max(bOverVega, 0));
}

/**
 * b / vega for h <= 0 and t = s/2 < tau: Y(h+t) - Y(h-t) expanded to twelfth order in t, with
 * a = 1 + h Y(h), Y(h) = sqrt(pi/2) erfcx(-h / sqrt 2).
 */
function smallTExpansionOverVega(h: number, t: number): number {
  const a = 1 + h * SQRT_PI_OVER_TWO * erfcx(-SQRT_HALF * h);
  const w = t * t;
  const h2 = h * h;
  const bOverVega =
    2 *
    t *
    (a +
      w *
        ((-1 + 3 * a + a * h2) / 6 +
          w *
            ((-7 + 15 * a + h2 * (-1 + 10 * a + a * h2)) / 120 +
              w *
                ((-57 + 105 * a + h2 * (-18 + 105 * a + h2 * (-1 + 21 * a + a * h2))) / 5040 +
                  w *
                    ((-561 + 945 * a + h2 * (-285 + 1260 * a + h2 * (-33 + 378 * a + h2 * (-1 + 36 * a + a * h2)))) / 362880 +
                      w *
                        ((-6555 + 10395 * a + h2 * (-4680 + 17325 * a + h2 * (-840 + 6930 * a + h2 * (-52 + 990 * a + h2 * (-1 + 55 * a + a * h2))))) / 39916800 +
                          ((-89055 +
                            135135 * a +
                            h2 * (-82845 + 270270 * a + h2 * (-20370 + 135135 * a + h2 * (-1926 + 25740 * a + h2 * (-75 + 2145 * a + h2 * (-1 + 78 * a + a * h2)))))) *
                            w) /
                            6227020800))))));
  return Math.abs(Math.max(bOverVega, 0));
}

/**
 * b(x, s) for x <= 0 through Cody's erfc and erfcx, choosing per term the form that needs the
 * fewest exponentials (Jäckel, 2017): with u = -h/sqrt2, v = t/sqrt2,
 * 2b = exp(x/2) erfc(u - v) - exp(-x/2) erfc(u + v) = exp(-u^2 - v^2) [erfcx(u - v) - erfcx(u + v)].
 */
function normalisedBlackCallWithCody(x: number, s: number): number {
  const h = x / s;
  const t = 0.5 * s;
  const q1 = -SQRT_HALF * (h + t);
  const q2 = -SQRT_HALF * (h - t);
  let twoB: number;
  if (q1 < 0.46875) {
    twoB = q2 < 0.46875 ? Math.exp(0.5 * x) * erfc(q1) - Math.exp(-0.5 * x) * erfc(q2) : Math.exp(0.5 * x) * erfc(q1) - Math.exp(-0.5 * (h * h + t * t)) * erfcx(q2);
  } else {
    twoB = q2 < 0.46875 ? Math.exp(-0.5 * (h * h + t * t)) * erfcx(q1) - Math.exp(-0.5 * x) * erfc(q2) : Math.exp(-0.5 * (h * h + t * t)) * (erfcx(q1) - erfcx(q2));
  }
  return Math.abs(Math.max(0.5 * twoB, 0));
}

/** True when (x/s, s/2) is in the asymptotic-expansion region; no division by s. */
function inAsymptoticRegion(x: number, s: number): boolean {
  return x < s * ASYMPTOTIC_THRESHOLD && 0.5 * s * s + x < s * (SMALL_T_THRESHOLD + ASYMPTOTIC_THRESHOLD);
}

/**
 * Normalised Black call b(x, s) = exp(x/2) Phi(x/s + s/2) - exp(-x/2) Phi(x/s - s/2); in the money
 * (x > 0) as intrinsic plus the out-of-the-money value at -x.
 *
 * @example normalisedBlackCall(0, 0.2) // 0.07965567455405798 = Phi(0.1) - Phi(-0.1)
 * @see docs/methodology.md#normalised-black-function
 */
export function normalisedBlackCall(x: number, s: number): number {
  if (x > 0) return normalisedIntrinsic(x, 1) + normalisedBlackCall(-x, s);
  if (s <= 0) return normalisedIntrinsic(x, 1);
  if (inAsymptoticRegion(x, s)) return asymptoticExpansionOverVega(x / s, 0.5 * s) * normalisedVega(x, s);
  if (0.5 * s < SMALL_T_THRESHOLD) return smallTExpansionOverVega(x / s, 0.5 * s) * normalisedVega(x, s);
  return normalisedBlackCallWithCody(x, s);
}

/**
 * b(x, s) / vega(x, s) for x <= 0, given ln vega; stays finite and accurate where b and the
 * vega underflow (used by the lowest branch of the implied-volatility iteration).
 */
export function normalisedBlackCallOverVega(x: number, s: number, lnVega: number): number {
  if (x > 0) return normalisedIntrinsic(x, 1) * Math.exp(-lnVega) + normalisedBlackCallOverVega(-x, s, lnVega);
  if (s <= 0) return normalisedIntrinsic(x, 1) * Math.exp(-lnVega);
  if (inAsymptoticRegion(x, s)) return asymptoticExpansionOverVega(x / s, 0.5 * s);
  if (0.5 * s < SMALL_T_THRESHOLD) return smallTExpansionOverVega(x / s, 0.5 * s);
  return normalisedBlackCallWithCody(x, s) * Math.exp(-lnVega);
}

/**
 * Normalised Black price b(x, s, theta) for a call (theta = +1) or put (theta = -1): the
 * undiscounted Black price divided by sqrt(F K), with x = ln(F/K), s = sigma sqrt(T).
 * Puts use the reciprocal-strike symmetry b(x, s, -1) = b(-x, s, +1).
 *
 * @example normalisedBlack(Math.log(100 / 150), 0.2, 1) // 0.001571554433850014 (out-of-the-money call)
 * @see docs/methodology.md#normalised-black-function
 */
export function normalisedBlack(x: number, s: number, theta: number): number {
  return normalisedBlackCall(theta < 0 ? -x : x, s);
}

/**
 * Complementary normalised Black b_max - b = exp(x/2) Phi(-x/s - s/2) + exp(-x/2) Phi(x/s - s/2),
 * computed as (erfcx((t+h)/sqrt2) + erfcx((t-h)/sqrt2)) exp(-(h^2+t^2)/2) / 2 without cancellation.
 */
export function complementaryNormalisedBlack(x: number, s: number): number {
  const h = x / s;
  const t = 0.5 * s;
  return 0.5 * (erfcx((t + h) * SQRT_HALF) + erfcx((t - h) * SQRT_HALF)) * Math.exp(-0.5 * (t * t + h * h));
}
