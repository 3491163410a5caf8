/**
 * Slow, independent high-precision reference for the normal cdf and the normalised Black
 * function: BigInt fixed point with 2600 fractional bits, Phi(x) = 1/2 + phi(x) S(x) with the
 * everywhere-convergent series S(x) = sum x^(2n+1) / (2n+1)!! (Abramowitz & Stegun 26.2.11),
 * exp by Taylor series with halving/squaring, pi by Machin's formula. No code is shared with
 * lib/math. Accurate to far better than 1e-30 relative for |x| <= 38.
 */

const P = 2600n;
const ONE = 1n << P;

/** Exact fixed-point value of a double. */
function fromDouble(x: number): bigint {
  if (x === 0) return 0n;
  const neg = x < 0;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const expBits = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  const mant = expBits === 0 ? frac : frac | (1n << 52n);
  const e = BigInt((expBits === 0 ? 1 : expBits) - 1075); // x = mant * 2^e
  const v = e >= 0n ? mant << (P + e) : (mant << P) >> -e;
  return neg ? -v : v;
}

/** Nearest double of a fixed-point value (relative error ~ 1.1e-16). */
function toDouble(v: bigint): number {
  if (v === 0n) return 0;
  const neg = v < 0n;
  let a = neg ? -v : v;
  const len = a.toString(2).length;
  let e = len - 64 - Number(P);
  a = len > 64 ? a >> BigInt(len - 64) : a << BigInt(64 - len);
  let r = Number(a);
  while (e < -500) {
    r *= 2 ** -500;
    e += 500;
  }
  while (e > 500) {
    r *= 2 ** 500;
    e -= 500;
  }
  r *= 2 ** e;
  return neg ? -r : r;
}

const mul = (a: bigint, b: bigint): bigint => (a * b) >> P;
const div = (a: bigint, b: bigint): bigint => (a << P) / b;

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

const sqrtFixed = (a: bigint): bigint => isqrt(a << P);

function atanInv(n: bigint): bigint {
  // atan(1/n) = sum (-1)^k / ((2k+1) n^(2k+1))
  let power = ONE / n;
  let sum = 0n;
  const n2 = n * n;
  for (let k = 0n; power !== 0n; k++) {
    const term = power / (2n * k + 1n);
    sum += k % 2n === 0n ? term : -term;
    power /= n2;
  }
  return sum;
}

const PI = 16n * atanInv(5n) - 4n * atanInv(239n);
const SQRT_TWO_PI = sqrtFixed(2n * PI);

/** exp(y) for fixed-point y (any sign). */
function expFixed(y: bigint): bigint {
  if (y < 0n) return div(ONE, expFixed(-y));
  const halvings = 12n;
  const r = y >> halvings;
  let sum = ONE;
  let term = ONE;
  for (let k = 1n; term !== 0n; k++) {
    term = mul(term, r) / k;
    sum += term;
  }
  for (let i = 0n; i < halvings; i++) sum = mul(sum, sum);
  return sum;
}

/** Phi(x) as a fixed-point number, x given in fixed point. */
function bigPhiFixed(x: bigint): bigint {
  const x2 = mul(x, x);
  let term = x;
  let s = 0n;
  for (let n = 1n; term !== 0n; n++) {
    s += term;
    term = mul(term, x2) / (2n * n + 1n);
  }
  const phi = div(ONE, mul(expFixed(x2 >> 1n), SQRT_TWO_PI));
  return (ONE >> 1n) + mul(phi, s);
}

/** Phi(x) of the exact double x, correctly rounded up to ~1 ulp. */
export function bigPhi(x: number): number {
  return toDouble(bigPhiFixed(fromDouble(x)));
}

/** phi(x) of the exact double x. */
export function bigPdf(x: number): number {
  const xf = fromDouble(x);
  return toDouble(div(ONE, mul(expFixed(mul(xf, xf) >> 1n), SQRT_TWO_PI)));
}

/**
 * Normalised Black call b(x, s) = exp(x/2) Phi(x/s + s/2) - exp(-x/2) Phi(x/s - s/2) for the exact
 * doubles x and s, with all arithmetic (including x/s) in fixed point, so the cancellation that
 * makes this formula useless in doubles costs nothing here.
 */
export function bigNormalisedBlackCall(x: number, s: number): number {
  const xf = fromDouble(x);
  const sf = fromDouble(s);
  const h = div(xf, sf);
  const t = sf >> 1n;
  const eHalf = expFixed(xf >> 1n);
  return toDouble(mul(eHalf, bigPhiFixed(h + t)) - div(bigPhiFixed(h - t), eHalf));
}

const SQRT_TWO = sqrtFixed(2n * ONE);

/** erfc(x) = 2 Phi(-x sqrt 2) of the exact double x. */
export function bigErfc(x: number): number {
  return toDouble(2n * bigPhiFixed(-mul(fromDouble(x), SQRT_TWO)));
}

/** erfcx(x) = exp(x^2) erfc(x) of the exact double x. */
export function bigErfcx(x: number): number {
  const xf = fromDouble(x);
  return toDouble(mul(expFixed(mul(xf, xf)), 2n * bigPhiFixed(-mul(xf, SQRT_TWO))));
}
