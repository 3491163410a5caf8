// Implied volatility batch kernel (f64): Peter Jäckel's "Let's Be Rational" (Wilmott, January
// 2015, pp. 40-53; reference implementation of 2023-12), the same algorithm, constants and order
// of operations as lib/math/normalised-black.ts, lib/math/_rational-cubic.ts and
// lib/math/_lets-be-rational.ts, so the WASM and JS engines agree to about 1e-15.
// The branch points b_l, b_u come from Jäckel's 2024 univariate approximations (as
// lib/math/_lbr-branch-points.ts), so the guess evaluates the Black function once (b_c), and the
// iteration stops after one step when the fourth-order error bound shows the next correction is
// below eps * s. Port of www.jaeckel.org/LetsBeRational.7z:
//   Copyright © 2013-2024 Peter Jäckel. Permission to use, copy, modify, and distribute this
//   software is freely granted, provided that this notice is preserved.
// The kernel is pure over caller-owned linear memory: it allocates nothing.
// See docs/methodology.md#implied-volatility and #implied-volatility-batch

import { erf, erfc, erfcx, inverseNormCdf, normCdf, normPdf } from "./normal";

const DBL_EPSILON: f64 = 2.220446049250313e-16;
const DBL_MIN: f64 = 2.2250738585072014e-308;
const DBL_MAX: f64 = 1.7976931348623157e308;
const SQRT_DBL_MIN: f64 = 1.4916681462400413e-154;
const SQRT_DBL_MAX: f64 = 1.3407807929942596e154;
const FOURTH_ROOT_DBL_EPSILON: f64 = 0.0001220703125;
const SMALL_T_THRESHOLD: f64 = 2.0 * 0.10511205190671433; // 2 * DBL_EPSILON^(1/16)
const ASYMPTOTIC_THRESHOLD: f64 = -10.0;
const ONE_OVER_SQRT_TWO_PI: f64 = 0.3989422804014326779399460599343818684758586311649;
const HALF_LN_TWO_PI: f64 = 0.9189385332046727417803297364056176398613974736378;
const SQRT_PI_OVER_TWO: f64 = 1.253314137315500251207882642405522626503493370305;
const SQRT_HALF: f64 = 0.7071067811865475244008443621048490392848359376887;
const TWO_PI: f64 = 6.283185307179586476925286766559005768394338798750;
const SQRT_TWO_PI: f64 = 2.506628274631000502415765284811045253006986740610;
const SQRT_THREE: f64 = 1.732050807568877293527446341505872366942805253810;
const SQRT_ONE_OVER_THREE: f64 = 0.577350269189625764509148780501957455647601751270;
const TWO_PI_OVER_SQRT_TWENTY_SEVEN: f64 = 1.209199576156145233729385505094770488189377498728;
const SQRT_THREE_OVER_THIRD_ROOT_TWO_PI: f64 = 0.938643487427383566075051356115075878414688769574;
const PI_OVER_SIX: f64 = 0.523598775598298873077107230546583814032861566563;
const MIN_CONTROL: f64 = -(1.0 - 1.4901161193847656e-8); // -(1 - sqrt(DBL_EPSILON))
const MAX_CONTROL: f64 = 2.0 / (DBL_EPSILON * DBL_EPSILON);
const THIRD_STEP_RELATIVE_THRESHOLD: f64 = 1e-6;
const EXIT_MAX_RELATIVE_STEP: f64 = 1.0 / 64.0;

/** Codes in the iterations column when no volatility exists (the vol column gets NaN). */
export const IV_CODE_BELOW_INTRINSIC: i32 = -1;
export const IV_CODE_ABOVE_UPPER_BOUND: i32 = -2;
export const IV_CODE_INVALID_INPUT: i32 = -3;

// Householder steps and price evaluations of the last solve (module state is the natural
// scratch inside a kernel).
let lbrIterations: i32 = 0;
let lbrEvaluations: i32 = 0;

// ---------------------------------------------------------------- normalised Black function

function normalisedIntrinsic(x: f64, theta: f64): f64 {
  if (theta * x <= 0.0) return 0.0;
  const x2: f64 = x * x;
  if (x2 < 98.0 * FOURTH_ROOT_DBL_EPSILON) {
    return Math.abs(x * (1.0 + x2 * (1.0 / 24.0 + x2 * (1.0 / 1920.0 + x2 * (1.0 / 322560.0 + x2 / 92897280.0)))));
  }
  const bMax: f64 = Math.exp(0.5 * x);
  return Math.abs(bMax - 1.0 / bMax);
}

function normalisedVega(x: f64, s: f64): f64 {
  const ax: f64 = Math.abs(x);
  if (ax <= 0.0) return ONE_OVER_SQRT_TWO_PI * Math.exp(-0.125 * s * s);
  if (s <= 0.0 || s <= ax * SQRT_DBL_MIN) return 0.0;
  const h: f64 = x / s;
  const t: f64 = 0.5 * s;
  return ONE_OVER_SQRT_TWO_PI * Math.exp(-0.5 * (h * h + t * t));
}

function lnNormalisedVega(x: f64, s: f64): f64 {
  if (Math.abs(x) <= 0.0) return -HALF_LN_TWO_PI - 0.125 * s * s;
  if (s <= 0.0) return -DBL_MAX;
  const h: f64 = x / s;
  const t: f64 = 0.5 * s;
  return -HALF_LN_TWO_PI - 0.5 * (h * h + t * t);
}

function asymptoticExpansionOverVega(h: f64, t: f64): f64 {
  const e: f64 = (t / h) * (t / h);
  const r: f64 = (h + t) * (h - t);
  const q: f64 = (h / r) * (h / r);
  const sum: f64 =
    2.0 + q * ((-6 + e * -2) + 3 * q * ((10 + e * (20 + e * 2)) + 5 * q * ((-14 + e * (-70 +
    e * (-42 + e * -2))) + 7 * q * ((18 + e * (168 + e * (252 + e * (72 + e * 2)))) +
    9 * q * ((-22 + e * (-330 + e * (-924 + e * (-660 + e * (-110 + e * -2))))) + 11 * q * ((26 +
    e * (572 + e * (2574 + e * (3432 + e * (1430 + e * (156 + e * 2)))))) + 13 * q * ((-30 +
    e * (-910 + e * (-6006 + e * (-12870 + e * (-10010 + e * (-2730 + e * (-210 + e * -2))))))) +
    15 * q * ((34 + e * (1360 + e * (12376 + e * (38896 + e * (48620 + e * (24752 + e * (4760 +
    e * (272 + e * 2)))))))) + 17 * q * ((-38 + e * (-1938 + e * (-23256 + e * (-100776 +
    e * (-184756 + e * (-151164 + e * (-54264 + e * (-7752 + e * (-342 + e * -2))))))))) +
    19 * q * ((42 + e * (2660 + e * (40698 + e * (232560 + e * (587860 + e * (705432 +
    e * (406980 + e * (108528 + e * (11970 + e * (420 + e * 2)))))))))) + 21 * q * ((-46 +
    e * (-3542 + e * (-67298 + e * (-490314 + e * (-1634380 + e * (-2704156 + e * (-2288132 +
    e * (-980628 + e * (-201894 + e * (-17710 + e * (-506 + e * -2))))))))))) + 23 * q * ((50 +
    e * (4600 + e * (106260 + e * (961400 + e * (4085950 + e * (8914800 + e * (10400600 +
    e * (6537520 + e * (2163150 + e * (354200 + e * (25300 + e * (600 + e * 2)))))))))))) +
    25 * q * ((-54 + e * (-5850 + e * (-161460 + e * (-1776060 + e * (-9373650 + e * (-26075790 +
    e * (-40116600 + e * (-34767720 + e * (-16872570 + e * (-4440150 + e * (-592020 + e * (-35100 +
    e * (-702 + e * -2))))))))))))) + 27 * q * ((58 + e * (7308 + e * (237510 + e * (3121560 +
    e * (20030010 + e * (69194580 + e * (135727830 + e * (155117520 + e * (103791870 +
    e * (40060020 + e * (8584290 + e * (950040 + e * (47502 + e * (812 + e * 2)))))))))))))) +
    29 * q * ((-62 + e * (-8990 + e * (-339822 + e * (-5259150 + e * (-40320150 + e * (-169344630 +
    e * (-412506150 + e * (-601080390 + e * (-530365050 + e * (-282241050 + e * (-88704330 +
    e * (-15777450 + e * (-1472562 + e * (-62930 + e * (-930 + e * -2))))))))))))))) +
    31 * q * ((66 + e * (10912 + e * (474672 + e * (8544096 + e * (77134200 + e * (387073440 +
    e * (1146332880 + e * (2074316640 + e * (2333606220 + e * (1637618400 + e * (709634640 +
    e * (185122080 + e * (27768312 + e * (2215136 + e * (81840 + e * (1056 +
    e * 2)))))))))))))))) + 33 * q * ((-70 + e * (-13090 + e * (-649264 + e * (-13449040 +
    e * (-141214920 + e * (-834451800 + e * (-2952675600 + e * (-6495886320 + e * (-9075135300 +
    e * (-8119857900 + e * (-4639918800 + e * (-1668903600 + e * (-367158792 + e * (-47071640 +
    e * (-3246320 + e * (-104720 + e * (-1190 + e * -2))))))))))))))))))))))))))))))))));
  const bOverVega: f64 = (t / r) * sum;
  return Math.abs(Math.max(bOverVega, 0.0));
}

function smallTExpansionOverVega(h: f64, t: f64): f64 {
  const a: f64 = 1.0 + h * SQRT_PI_OVER_TWO * erfcx(-SQRT_HALF * h);
  const w: f64 = t * t;
  const h2: f64 = h * h;
  const bOverVega: f64 =
    2.0 * t *
    (a +
      w *
        ((-1.0 + 3.0 * a + a * h2) / 6.0 +
          w *
            ((-7.0 + 15.0 * a + h2 * (-1.0 + 10.0 * a + a * h2)) / 120.0 +
              w *
                ((-57.0 + 105.0 * a + h2 * (-18.0 + 105.0 * a + h2 * (-1.0 + 21.0 * a + a * h2))) / 5040.0 +
                  w *
                    ((-561.0 + 945.0 * a + h2 * (-285.0 + 1260.0 * a + h2 * (-33.0 + 378.0 * a + h2 * (-1.0 + 36.0 * a + a * h2)))) /
                      362880.0 +
                      w *
                        ((-6555.0 +
                          10395.0 * a +
                          h2 * (-4680.0 + 17325.0 * a + h2 * (-840.0 + 6930.0 * a + h2 * (-52.0 + 990.0 * a + h2 * (-1.0 + 55.0 * a + a * h2))))) /
                          39916800.0 +
                          ((-89055.0 +
                            135135.0 * a +
                            h2 *
                              (-82845.0 +
                                270270.0 * a +
                                h2 * (-20370.0 + 135135.0 * a + h2 * (-1926.0 + 25740.0 * a + h2 * (-75.0 + 2145.0 * a + h2 * (-1.0 + 78.0 * a + a * h2)))))) *
                            w) /
                            6227020800.0))))));
  return Math.abs(Math.max(bOverVega, 0.0));
}

function normalisedBlackCallWithCody(x: f64, s: f64): f64 {
  const h: f64 = x / s;
  const t: f64 = 0.5 * s;
  const q1: f64 = -SQRT_HALF * (h + t);
  const q2: f64 = -SQRT_HALF * (h - t);
  let twoB: f64;
  if (q1 < 0.46875) {
    if (q2 < 0.46875) twoB = Math.exp(0.5 * x) * erfc(q1) - Math.exp(-0.5 * x) * erfc(q2);
    else twoB = Math.exp(0.5 * x) * erfc(q1) - Math.exp(-0.5 * (h * h + t * t)) * erfcx(q2);
  } else {
    if (q2 < 0.46875) twoB = Math.exp(-0.5 * (h * h + t * t)) * erfcx(q1) - Math.exp(-0.5 * x) * erfc(q2);
    else twoB = Math.exp(-0.5 * (h * h + t * t)) * (erfcx(q1) - erfcx(q2));
  }
  return Math.abs(Math.max(0.5 * twoB, 0.0));
}

// @ts-ignore: decorator
@inline
function inAsymptoticRegion(x: f64, s: f64): bool {
  return x < s * ASYMPTOTIC_THRESHOLD && 0.5 * s * s + x < s * (SMALL_T_THRESHOLD + ASYMPTOTIC_THRESHOLD);
}

function normalisedBlackCall(x: f64, s: f64): f64 {
  if (x > 0.0) return normalisedIntrinsic(x, 1.0) + normalisedBlackCall(-x, s);
  if (s <= 0.0) return normalisedIntrinsic(x, 1.0);
  if (inAsymptoticRegion(x, s)) return asymptoticExpansionOverVega(x / s, 0.5 * s) * normalisedVega(x, s);
  if (0.5 * s < SMALL_T_THRESHOLD) return smallTExpansionOverVega(x / s, 0.5 * s) * normalisedVega(x, s);
  return normalisedBlackCallWithCody(x, s);
}

function normalisedBlackCallOverVega(x: f64, s: f64, lnVega: f64): f64 {
  if (x > 0.0) return normalisedIntrinsic(x, 1.0) * Math.exp(-lnVega) + normalisedBlackCallOverVega(-x, s, lnVega);
  if (s <= 0.0) return normalisedIntrinsic(x, 1.0) * Math.exp(-lnVega);
  if (inAsymptoticRegion(x, s)) return asymptoticExpansionOverVega(x / s, 0.5 * s);
  if (0.5 * s < SMALL_T_THRESHOLD) return smallTExpansionOverVega(x / s, 0.5 * s);
  return normalisedBlackCallWithCody(x, s) * Math.exp(-lnVega);
}

// ---------------------------------------------------------------- rational cubic interpolation

// @ts-ignore: decorator
@inline
function isZero(x: f64): bool {
  return Math.abs(x) < DBL_MIN;
}

function rationalCubicInterpolation(x: f64, xl: f64, xr: f64, yl: f64, yr: f64, dl: f64, dr: f64, r: f64): f64 {
  const h: f64 = xr - xl;
  if (Math.abs(h) <= 0.0) return 0.5 * (yl + yr);
  const t: f64 = (x - xl) / h;
  if (!(r >= MAX_CONTROL)) {
    const omt: f64 = 1.0 - t;
    const t2: f64 = t * t;
    const omt2: f64 = omt * omt;
    return (
      (yr * t2 * t + (r * yr - h * dr) * t2 * omt + (r * yl + h * dl) * t * omt2 + yl * omt2 * omt) /
      (1.0 + (r - 3.0) * t * omt)
    );
  }
  return yr * t + yl * (1.0 - t);
}

function minimumControl(dl: f64, dr: f64, s: f64, preferShapePreservation: bool): f64 {
  const monotonic: bool = dl * s >= 0.0 && dr * s >= 0.0;
  const convex: bool = dl <= s && s <= dr;
  const concave: bool = dl >= s && s >= dr;
  if (!monotonic && !convex && !concave) return MIN_CONTROL;
  const drMinusDl: f64 = dr - dl;
  const drMinusS: f64 = dr - s;
  const sMinusDl: f64 = s - dl;
  let r1: f64 = -DBL_MAX;
  let r2: f64 = r1;
  if (monotonic) {
    if (!isZero(s)) r1 = (dr + dl) / s;
    else if (preferShapePreservation) r1 = MAX_CONTROL;
  }
  if (convex || concave) {
    if (!(isZero(sMinusDl) || isZero(drMinusS))) {
      r2 = Math.max(Math.abs(drMinusDl / drMinusS), Math.abs(drMinusDl / sMinusDl));
    } else if (preferShapePreservation) r2 = MAX_CONTROL;
  } else if (monotonic && preferShapePreservation) r2 = MAX_CONTROL;
  return Math.max(MIN_CONTROL, Math.max(r1, r2));
}

function convexControlLeft(xl: f64, xr: f64, yl: f64, yr: f64, dl: f64, dr: f64, secondDerivativeL: f64, preferShapePreservation: bool): f64 {
  const h: f64 = xr - xl;
  const numerator: f64 = 0.5 * h * secondDerivativeL + (dr - dl);
  let r: f64;
  if (isZero(numerator)) r = 0.0;
  else {
    const denominator: f64 = (yr - yl) / h - dl;
    if (isZero(denominator)) r = numerator > 0.0 ? MAX_CONTROL : MIN_CONTROL;
    else r = numerator / denominator;
  }
  const rMin: f64 = minimumControl(dl, dr, (yr - yl) / (xr - xl), preferShapePreservation);
  return Math.max(r, rMin);
}

function convexControlRight(xl: f64, xr: f64, yl: f64, yr: f64, dl: f64, dr: f64, secondDerivativeR: f64, preferShapePreservation: bool): f64 {
  const h: f64 = xr - xl;
  const numerator: f64 = 0.5 * h * secondDerivativeR + (dr - dl);
  let r: f64;
  if (isZero(numerator)) r = 0.0;
  else {
    const denominator: f64 = dr - (yr - yl) / h;
    if (isZero(denominator)) r = numerator > 0.0 ? MAX_CONTROL : MIN_CONTROL;
    else r = numerator / denominator;
  }
  const rMin: f64 = minimumControl(dl, dr, (yr - yl) / (xr - xl), preferShapePreservation);
  return Math.max(r, rMin);
}

// ---------------------------------------------------------------- branch points (Jäckel 2024)

/** 1 - erfcx(y), y >= 0; exp(y^2) erf(y) - expm1(y^2) on Cody's first interval (no cancellation). */
function oneMinusErfcx(y: f64): f64 {
  if (y <= 0.46875) {
    const y2: f64 = y * y;
    return Math.exp(y2) * erf(y) - Math.expm1(y2);
  }
  return 1.0 - erfcx(y);
}

/** b_l(x) / b_max(x) in s_c = sqrt(2|x|). */
function blOverBmax(sc: f64): f64 {
  if (sc < 2.6267851073127395) {
    if (sc < 0.7099295739719539) {
      const g: f64 =
        (8.0741072372882856924e-2 +
          sc * (9.8078911786358897272e-2 + sc * (3.9760631445677058375e-2 + sc * (5.9716928459589189876e-3 + sc * (-6.4036399341479799981e-6 + 4.5425102093616062245e-7 * sc))))) /
        (1.0 + sc * (1.8594977672287664353 + sc * (1.3658801475711790419 + sc * (4.6132707108655653215e-1 + 6.1254597049831720643e-2 * sc))));
      return sc * sc * (0.07560996640296361767172 + sc * (sc * g - 0.09672719281339436290858));
    }
    return (
      (1.9795737927598581235e-9 +
        sc * (-2.7081288564685588037e-8 + sc * (7.5610142272549044609e-2 + sc * (6.917130174466834016e-2 + sc * (2.9537058950963019803e-2 + sc * (6.5849252702302307774e-3 + 6.9711400639834715731e-4 * sc)))))) /
      (1.0 + sc * (2.1941448525586579756 + sc * (2.1297103549995181357 + sc * (1.1571483187179784072 + sc * (3.7831622253060456794e-1 + sc * (7.1714862448829349869e-2 + 6.6361975827861200167e-3 * sc))))))
    );
  }
  if (sc < 7.348469228349534) {
    return (
      (-9.3325115354837883291e-5 +
        sc * (5.3118033972794648837e-4 + sc * (7.4114855448345002595e-2 + sc * (7.4039658186822817454e-2 + sc * (3.9225177407687604785e-2 + sc * (1.0022913378254090083e-2 + 1.7012579407246055469e-3 * sc)))))) /
      (1.0 + sc * (2.2217238132228132256 + sc * (2.3441816707087403282 + sc * (1.3912323646271141826 + sc * (5.3231258443501838354e-1 + sc * (1.1744005919716101572e-1 + 1.6195405895930935811e-2 * sc))))))
    );
  }
  return (
    (1.4500072297240603183e-3 +
      sc * (-1.5116692485011195757e-3 + sc * (7.1682178310936334831e-2 + sc * (3.921610857820463493e-2 + sc * (2.9342405658628443931e-2 + sc * (5.1832526171631521426e-3 + 1.6930208078421474854e-3 * sc)))))) /
    (1.0 + sc * (1.6176313502305414664 + sc * (1.6823159175281531664 + sc * (8.4878307567372222113e-1 + sc * (3.7543742137375791321e-1 + sc * (7.126137099644302999e-2 + 1.6116992546788676159e-2 * sc))))))
  );
}

/** b_u(x) / b_max(x) in s_c = sqrt(2|x|). */
function buOverBmax(sc: f64): f64 {
  if (sc < 1.7888543819998317) {
    if (sc < 0.7745966692414833) {
      const g: f64 =
        (-6.063099881233561706e-2 +
          sc * (-8.1011946637120604985e-2 + sc * (-4.2505564862438753828e-2 + sc * (-8.9880000946868691788e-3 + sc * (-7.5603072110443268356e-6 + 4.3879556621540147458e-7 * sc))))) /
        (1.0 + sc * (1.8400371530721828756 + sc * (1.5709283443886143691 + sc * (6.8913245453611400484e-1 + 1.4703173061720980923e-1 * sc))));
      return 0.7899085945560627246288 + sc * sc * (0.0614616805805147403487 + sc * g);
    }
    return (
      (7.8990944435755287611e-1 +
        sc * (-1.2655410534988972886 + sc * (-2.8803040699221003256 + sc * (-2.6936198689113258727 + sc * (-1.1213067281643205754 + sc * (-2.1277793801691629892e-1 + 5.1486445905299802703e-6 * sc)))))) /
      (1.0 + sc * (-1.6021222722060444448 + sc * (-3.7242680976480704555 + sc * (-3.2083117718907365085 + sc * (-1.2922333835930958583 - 2.3762328334050001161e-1 * sc)))))
    );
  }
  if (sc < 6.164414002968976) {
    return (
      (7.8990640048967596475e-1 +
        sc * (1.5993699253596663678 + sc * (1.6481729039140370242 + sc * (9.8227188109869200166e-1 + sc * (3.6313557966186936883e-1 + sc * (7.8277036261179606301e-2 + 9.3404307364538726214e-3 * sc)))))) /
      (1.0 + sc * (2.0247407005640401446 + sc * (2.0087454279103740489 + sc * (1.1627561803056961973 + sc * (4.2004672123723823581e-1 + sc * (8.9130862793887234546e-2 + 1.0436767768858021717e-2 * sc))))))
    );
  }
  return (
    (7.91133825948419359e-1 +
      sc * (1.24653733210880042 + sc * (1.32747426980537386 + sc * (6.95009705717846778e-1 + sc * (3.05965944268228457e-1 + sc * (6.02200363391352887e-2 + 1.29050244454344842e-2 * sc)))))) /
    (1.0 + sc * (1.58117486714634672 + sc * (1.60144713247629644 + sc * (8.30040185836882436e-1 + sc * (3.53071863813401531e-1 + sc * (6.95901684131758475e-2 + 1.44197580643890011e-2 * sc))))))
  );
}

// ---------------------------------------------------------------- Let's Be Rational

// @ts-ignore: decorator
@inline
function keepIterating(iterations: i32, ds: f64, s: f64): bool {
  const ads: f64 = Math.abs(ds);
  if (!(ads > DBL_EPSILON * s)) return false;
  return iterations < 2 || (iterations < 3 && ads > THIRD_STEP_RELATIVE_THRESHOLD * s);
}

/** Whether the next correction after the Householder(3) step ds from s is below eps * s (K ds^4 bound). */
function nextCorrectionNegligible(ds: f64, s: f64, hh2: f64, hh3: f64, hh4: f64): bool {
  const r: f64 = Math.abs(ds / s);
  if (!(r <= EXIT_MAX_RELATIVE_STEP)) return false;
  const a2: f64 = Math.abs(hh2 * s);
  const a3: f64 = Math.abs(hh3 * s * s);
  const a4: f64 = Math.abs(hh4 * s * s * s);
  const k: f64 = a4 / 24.0 + (a2 * a3) / 6.0 + (a2 * a2 * a2) / 8.0;
  const r2: f64 = r * r;
  return k * (r2 * r2) <= DBL_EPSILON;
}

// @ts-ignore: decorator
@inline
function householder3Factor(nu: f64, hh2: f64, hh3: f64): f64 {
  return (1.0 + 0.5 * hh2 * nu) / (1.0 + nu * (hh2 + (hh3 * nu) / 6.0));
}

// @ts-ignore: decorator
@inline
function householder4Factor(nu: f64, hh2: f64, hh3: f64, hh4: f64): f64 {
  return (1.0 + nu * (hh2 + (nu * hh3) / 6.0)) / (1.0 + nu * (1.5 * hh2 + nu * ((hh2 * hh2) / 4.0 + hh3 / 3.0 + (nu * hh4) / 24.0)));
}

// @ts-ignore: decorator
@inline
function clamp(lo: f64, hi: f64, v: f64): f64 {
  return Math.max(lo, Math.min(hi, v));
}

function inverseFLowerMap(x: f64, f: f64): f64 {
  return Math.abs(x / (SQRT_THREE * inverseNormCdf((SQRT_THREE_OVER_THIRD_ROOT_TWO_PI * Math.cbrt(f)) / Math.cbrt(Math.abs(x)))));
}

/** Normalised implied vol s of beta at x, theta = +-1; s > 0 or a negative IV_CODE_*. */
function lbrNormalisedImpliedVol(beta: f64, x: f64, theta: f64): f64 {
  lbrIterations = 0;
  lbrEvaluations = 0;
  if (theta * x > 0.0) {
    beta -= normalisedIntrinsic(x, theta);
    theta = -theta;
  }
  if (!(beta > 0.0)) return <f64>IV_CODE_BELOW_INTRINSIC;
  if (theta < 0.0) x = -x;
  const bMax: f64 = Math.exp(0.5 * x);
  if (beta >= bMax) return <f64>IV_CODE_ABOVE_UPPER_BOUND;

  let iterations: i32 = 0;
  let done: bool = false;
  let s: f64 = -DBL_MAX;
  let ds: f64 = -DBL_MAX;
  let sLeft: f64 = DBL_MIN;
  let sRight: f64 = DBL_MAX;
  const sC: f64 = Math.sqrt(Math.abs(2.0 * x));
  const omErfcx: f64 = oneMinusErfcx(Math.sqrt(Math.abs(x)));
  const bC: f64 = 0.5 * bMax * omErfcx;
  const vC: f64 = ONE_OVER_SQRT_TWO_PI * bMax;
  lbrEvaluations = 1;

  if (beta < bC) {
    const sL: f64 = sC - SQRT_PI_OVER_TWO * omErfcx;
    const bL: f64 = bMax * blOverBmax(sC);
    if (beta < bL) {
      const ax: f64 = Math.abs(x);
      const z: f64 = (SQRT_ONE_OVER_THREE * ax) / sL;
      const y: f64 = z * z;
      const s2: f64 = sL * sL;
      const Phi: f64 = normCdf(-z);
      const phi: f64 = normPdf(z);
      const fpp: f64 =
        ((PI_OVER_SIX * y) / (s2 * sL)) * Phi * (8.0 * SQRT_THREE * sL * ax + ((3.0 * s2 * (s2 - 8.0) - 8.0 * x * x) * Phi) / phi) *
        Math.exp(2.0 * y + 0.25 * s2);
      const Phi2: f64 = Phi * Phi;
      const fp: f64 = TWO_PI * y * Phi2 * Math.exp(y + 0.125 * s2);
      const fL: f64 = TWO_PI_OVER_SQRT_TWENTY_SEVEN * ax * (Phi2 * Phi);
      const rLL: f64 = convexControlRight(0.0, bL, 0.0, fL, 1.0, fp, fpp, true);
      let f: f64 = rationalCubicInterpolation(beta, 0.0, bL, 0.0, fL, 1.0, fp, rLL);
      if (!(f > 0.0)) {
        const t: f64 = beta / bL;
        f = (fL * t + bL * (1.0 - t)) * t;
      }
      s = inverseFLowerMap(x, f);
      sRight = sL;
      const lnBeta: f64 = Math.log(beta);
      while (!done && keepIterating(iterations, ds, s)) {
        const lnVega: f64 = lnNormalisedVega(x, s);
        const bx: f64 = normalisedBlackCallOverVega(x, s, lnVega);
        const lnB: f64 = Math.log(bx) + lnVega;
        const bpob: f64 = 1.0 / bx;
        const h: f64 = x / s;
        const bHh2: f64 = (h * h) / s - s / 4.0;
        const nu: f64 = ((lnBeta - lnB) * lnB) / lnBeta / bpob;
        const lambda: f64 = 1.0 / lnB;
        const otLambda: f64 = 1.0 + 2.0 * lambda;
        const hh2: f64 = bHh2 - bpob * otLambda;
        const c: f64 = 3.0 * (h / s) * (h / s);
        const bHh3: f64 = bHh2 * bHh2 - c - 0.25;
        const sqBpob: f64 = bpob * bpob;
        const bppob: f64 = bHh2 * bpob;
        const mu: f64 = 6.0 * lambda * (1.0 + lambda);
        const hh3: f64 = bHh3 + sqBpob * (2.0 + mu) - bppob * 3.0 * otLambda;
        const hh4: f64 =
          bHh2 * (bHh3 - 0.5) -
          (bHh2 - 2.0 / s) * 2.0 * c -
          bpob * (sqBpob * (6.0 + lambda * (22.0 + lambda * (36.0 + lambda * 24.0))) - bppob * (12.0 + 6.0 * mu)) -
          bppob * bHh2 * 3.0 * otLambda -
          bHh3 * bpob * 4.0 * otLambda;
        if (x < -190.0) {
          ds = nu * householder4Factor(nu, hh2, hh3, hh4);
        } else {
          ds = nu * householder3Factor(nu, hh2, hh3);
          done = nextCorrectionNegligible(ds, s, hh2, hh3, hh4);
        }
        const next: f64 = clamp(sLeft, sRight, s + ds);
        if (next != s + ds) done = false;
        ds = next - s;
        s = next;
        iterations++;
      }
      lbrIterations = iterations;
      lbrEvaluations += iterations;
      return s;
    }
    const vL: f64 = normalisedVega(x, sL);
    const rLM: f64 = convexControlRight(bL, bC, sL, sC, 1.0 / vL, 1.0 / vC, 0.0, false);
    s = rationalCubicInterpolation(beta, bL, bC, sL, sC, 1.0 / vL, 1.0 / vC, rLM);
    sLeft = sL;
    sRight = sC;
  } else {
    const sU: f64 = sC + SQRT_PI_OVER_TWO * (2.0 - omErfcx);
    const bU: f64 = bMax * buOverBmax(sC);
    if (beta <= bU) {
      const vU: f64 = normalisedVega(x, sU);
      const rUM: f64 = convexControlLeft(bC, bU, sC, sU, 1.0 / vC, 1.0 / vU, 0.0, false);
      s = rationalCubicInterpolation(beta, bC, bU, sC, sU, 1.0 / vC, 1.0 / vU, rUM);
      sLeft = sC;
      sRight = sU;
    } else {
      const fU: f64 = normCdf(-0.5 * sU);
      const w: f64 = (x / sU) * (x / sU);
      const fp: f64 = -0.5 * Math.exp(0.5 * w);
      const fpp: f64 = SQRT_PI_OVER_TWO * Math.exp(w + 0.125 * sU * sU) * (w / sU);
      let f: f64 = -DBL_MAX;
      if (fpp > -SQRT_DBL_MAX && fpp < SQRT_DBL_MAX) {
        const rUU: f64 = convexControlLeft(bU, bMax, fU, 0.0, fp, -0.5, fpp, true);
        f = rationalCubicInterpolation(beta, bU, bMax, fU, 0.0, fp, -0.5, rUU);
      }
      if (f <= 0.0) {
        const hw: f64 = bMax - bU;
        const t: f64 = (beta - bU) / hw;
        f = (fU * (1.0 - t) + 0.5 * hw * t) * (1.0 - t);
      }
      s = -2.0 * inverseNormCdf(f);
      sLeft = sU;
      if (beta > 0.5 * bMax) {
        const betaBar: f64 = bMax - beta;
        while (!done && keepIterating(iterations, ds, s)) {
          const h: f64 = x / s;
          const t: f64 = s / 2.0;
          const gp: f64 = (2.0 / SQRT_TWO_PI) / (erfcx((t + h) * SQRT_HALF) + erfcx((t - h) * SQRT_HALF));
          const bBar: f64 = normalisedVega(x, s) / gp;
          const g: f64 = Math.log(betaBar / bBar);
          const bHh2: f64 = (h * h) / s - s / 4.0;
          const c: f64 = 3.0 * (h / s) * (h / s);
          const bHh3: f64 = bHh2 * bHh2 - c - 0.25;
          const nu: f64 = -g / gp;
          const hh2: f64 = bHh2 + gp;
          const hh3: f64 = bHh3 + gp * (2.0 * gp + 3.0 * bHh2);
          const hh4: f64 = bHh2 * (bHh3 - 0.5) - (bHh2 - 2.0 / s) * 2.0 * c + gp * (6.0 * gp * (gp + 2.0 * bHh2) + 3.0 * bHh2 * bHh2 + 4.0 * bHh3);
          if (x < -580.0) {
            ds = nu * householder4Factor(nu, hh2, hh3, hh4);
          } else {
            ds = nu * householder3Factor(nu, hh2, hh3);
            done = nextCorrectionNegligible(ds, s, hh2, hh3, hh4);
          }
          const next: f64 = clamp(sLeft, sRight, s + ds);
          if (next != s + ds) done = false;
          ds = next - s;
          s = next;
          iterations++;
        }
        lbrIterations = iterations;
        lbrEvaluations += iterations;
        return s;
      }
    }
  }
  while (!done && keepIterating(iterations, ds, s)) {
    const b: f64 = normalisedBlackCall(x, s);
    const bp: f64 = normalisedVega(x, s);
    const nu: f64 = (beta - b) / bp;
    const h: f64 = x / s;
    const hh2: f64 = (h * h) / s - s / 4.0;
    const c: f64 = 3.0 * (h / s) * (h / s);
    const hh3: f64 = hh2 * hh2 - c - 0.25;
    const hh4: f64 = hh2 * (hh3 - 0.5) - (hh2 - 2.0 / s) * 2.0 * c;
    ds = nu * householder3Factor(nu, hh2, hh3);
    done = nextCorrectionNegligible(ds, s, hh2, hh3, hh4);
    const next: f64 = clamp(sLeft, sRight, s + ds);
    if (next != s + ds) done = false;
    ds = next - s;
    s = next;
    iterations++;
  }
  lbrIterations = iterations;
  lbrEvaluations += iterations;
  return s;
}

/** Black implied vol of an undiscounted price; sigma > 0 or a negative IV_CODE_*. */
function lbrBlackImpliedVol(price: f64, forward: f64, strike: f64, tYears: f64, theta: f64): f64 {
  lbrIterations = 0;
  lbrEvaluations = 0;
  const intrinsic: f64 = Math.max(theta * (forward - strike), 0.0);
  if (!(price >= intrinsic)) return <f64>IV_CODE_BELOW_INTRINSIC;
  if (price >= (theta < 0.0 ? strike : forward)) return <f64>IV_CODE_ABOVE_UPPER_BOUND;
  const x: f64 = Math.log(forward / strike);
  if (theta * x > 0.0) {
    price = Math.max(price - intrinsic, 0.0);
    theta = -theta;
  }
  const s: f64 = lbrNormalisedImpliedVol(price / (Math.sqrt(forward) * Math.sqrt(strike)), x, theta);
  return s > 0.0 ? s / Math.sqrt(tYears) : s;
}

/**
 * Implied volatilities of n option prices. Columns in linear memory (caller-owned, 8-byte
 * aligned): Float64 price (discounted), strike, tYears (years of 365 days); Uint8 right (1 call,
 * 0 put); Float64 out; Int32 iterations (iterPtr 0 to skip); Int32 price evaluations per row
 * (evalPtr 0 to skip; a JS caller that omits it passes 0; 0 where no vol exists). Writes vol (decimal) or NaN with a
 * negative code in iterations (-1 below intrinsic, -2 above the upper bound, -3 invalid input);
 * returns the number of rows without a volatility.
 */
export function impliedVolBatch(
  n: i32,
  pricePtr: usize,
  spot: f64,
  strikePtr: usize,
  tPtr: usize,
  rate: f64,
  q: f64,
  rightPtr: usize,
  outPtr: usize,
  iterPtr: usize,
  evalPtr: usize,
): i32 {
  let failures: i32 = 0;
  const common: bool = spot > 0.0 && spot < Infinity && isFinite<f64>(rate) && isFinite<f64>(q);
  for (let i: i32 = 0; i < n; i++) {
    const off: usize = (<usize>i) << 3;
    const price: f64 = load<f64>(pricePtr + off);
    const strike: f64 = load<f64>(strikePtr + off);
    const t: f64 = load<f64>(tPtr + off);
    let vol: f64 = <f64>IV_CODE_INVALID_INPUT;
    lbrIterations = 0;
    lbrEvaluations = 0;
    if (common && price >= 0.0 && price < Infinity && strike > 0.0 && strike < Infinity && t > 0.0 && t < Infinity) {
      const forward: f64 = spot * Math.exp((rate - q) * t);
      const undiscounted: f64 = price * Math.exp(rate * t);
      if (forward > 0.0 && forward < Infinity && undiscounted < Infinity) {
        vol = lbrBlackImpliedVol(undiscounted, forward, strike, t, load<u8>(rightPtr + <usize>i) == 1 ? 1.0 : -1.0);
      }
    }
    if (vol > 0.0) {
      store<f64>(outPtr + off, vol);
      if (iterPtr != 0) store<i32>(iterPtr + ((<usize>i) << 2), lbrIterations);
      if (evalPtr != 0) store<i32>(evalPtr + ((<usize>i) << 2), lbrEvaluations);
    } else {
      store<f64>(outPtr + off, NaN);
      failures++;
      if (iterPtr != 0) store<i32>(iterPtr + ((<usize>i) << 2), <i32>vol);
      if (evalPtr != 0) store<i32>(evalPtr + ((<usize>i) << 2), 0);
    }
  }
  return failures;
}
