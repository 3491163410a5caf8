// Two-lane (f64x2) pieces of Cody's erfc (assembly/normal.ts, lib/math/erf.ts): the same
// coefficients and the same operations in the same order per lane, so each lane is bitwise the
// scalar result. Constants come from a static table (see vmath.ts for why not v128 literals).
// See docs/methodology.md#greek-exposure-kernel.

/** Lane-duplicated constants, 16 bytes each; offsets below. */
const NK: usize = memory.data<f64>([
  1.11e-16, 1.11e-16, // 0: X_SMALL
  // 16..144: erf(y)/y on |y| <= 0.46875: A4, A0, B0, A1, B1, A2, B2, A3, B3
  0.185777706184603153, 0.185777706184603153,
  3.1611237438705656, 3.1611237438705656,
  23.6012909523441209, 23.6012909523441209,
  113.864154151050156, 113.864154151050156,
  244.024637934444173, 244.024637934444173,
  377.485237685302021, 377.485237685302021,
  1282.61652607737228, 1282.61652607737228,
  3209.37758913846947, 3209.37758913846947,
  2844.23683343917062, 2844.23683343917062,
  // 160..288: erfcx numerator on 0.46875 < y <= 4: C8, C0..C7
  2.15311535474403846e-8, 2.15311535474403846e-8,
  0.564188496988670089, 0.564188496988670089,
  8.88314979438837594, 8.88314979438837594,
  66.1191906371416295, 66.1191906371416295,
  298.635138197400131, 298.635138197400131,
  881.95222124176909, 881.95222124176909,
  1712.04761263407058, 1712.04761263407058,
  2051.07837782607147, 2051.07837782607147,
  1230.33935479799725, 1230.33935479799725,
  // 304..416: its denominator, D0..D7
  15.7449261107098347, 15.7449261107098347,
  117.693950891312499, 117.693950891312499,
  537.181101862009858, 537.181101862009858,
  1621.38957456669019, 1621.38957456669019,
  3290.79923573345963, 3290.79923573345963,
  4362.61909014324716, 4362.61909014324716,
  3439.36767414372164, 3439.36767414372164,
  1230.33935480374942, 1230.33935480374942,
], 16);

// @ts-ignore: decorator
@inline
function k(offset: usize): v128 {
  return v128.load(NK + offset);
}

/** erfc(y) = 1 - y erf(y)/y per lane, for 0 <= y <= 0.46875 (Cody's first range; no exponential). */
// @ts-ignore: decorator
@inline
export function verfcSmall(y: v128, one: v128): v128 {
  const ysq = v128.and(f64x2.mul(y, y), f64x2.gt(y, k(0)));
  let num = f64x2.mul(k(16), ysq);
  let den = ysq;
  num = f64x2.mul(f64x2.add(num, k(32)), ysq);
  den = f64x2.mul(f64x2.add(den, k(48)), ysq);
  num = f64x2.mul(f64x2.add(num, k(64)), ysq);
  den = f64x2.mul(f64x2.add(den, k(80)), ysq);
  num = f64x2.mul(f64x2.add(num, k(96)), ysq);
  den = f64x2.mul(f64x2.add(den, k(112)), ysq);
  return f64x2.sub(one, f64x2.mul(y, f64x2.div(f64x2.add(num, k(128)), f64x2.add(den, k(144)))));
}

/** erfcx(y) = e^{y^2} erfc(y) per lane, for 0.46875 < y <= 4 (Cody's second range). */
// @ts-ignore: decorator
@inline
export function verfcxMiddle(y: v128): v128 {
  let num = f64x2.add(f64x2.mul(k(160), y), k(176));
  num = f64x2.add(f64x2.mul(num, y), k(192));
  num = f64x2.add(f64x2.mul(num, y), k(208));
  num = f64x2.add(f64x2.mul(num, y), k(224));
  num = f64x2.add(f64x2.mul(num, y), k(240));
  num = f64x2.add(f64x2.mul(num, y), k(256));
  num = f64x2.add(f64x2.mul(num, y), k(272));
  num = f64x2.add(f64x2.mul(num, y), k(288));
  let den = f64x2.add(y, k(304));
  den = f64x2.add(f64x2.mul(den, y), k(320));
  den = f64x2.add(f64x2.mul(den, y), k(336));
  den = f64x2.add(f64x2.mul(den, y), k(352));
  den = f64x2.add(f64x2.mul(den, y), k(368));
  den = f64x2.add(f64x2.mul(den, y), k(384));
  den = f64x2.add(f64x2.mul(den, y), k(400));
  den = f64x2.add(f64x2.mul(den, y), k(416));
  return f64x2.div(num, den);
}
