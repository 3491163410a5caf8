import { describe, expect, it } from "vitest";
import { blOverBmax, buOverBmax, oneMinusErfcx } from "../../lib/math/_lbr-branch-points";
import { erfcx } from "../../lib/math/erf";
import { normalisedBlackCall, normalisedVega } from "../../lib/math/normalised-black";

/**
 * The x-only branch points of the implied-vol guess (Jäckel 2024 approximations) against direct
 * evaluations of the normalised Black function, which is itself tested against a 2600-bit
 * reference in normal.test.ts / black-scholes.test.ts.
 */

const EPS = Number.EPSILON;
const rel = (a: number, b: number): number => Math.abs(a - b) / Math.abs(b);

/** |x| log-spaced over [lo, hi]. */
function absXs(lo: number, hi: number, n: number): number[] {
  return Array.from({ length: n + 1 }, (_, i) => lo * (hi / lo) ** (i / n));
}

describe("oneMinusErfcx", () => {
  it("matches the series 2y/sqrt(pi) - y^2 + 4y^3/(3 sqrt(pi)) - y^4/2 for small y (A&S 7.1.8 with erfcx = exp(y^2) erfc(y))", () => {
    // erfcx(y) = sum_n (-y)^n / Gamma(n/2 + 1); the next term is 8y^5/(15 sqrt(pi)).
    const rsp = 1 / Math.sqrt(Math.PI);
    for (const y of [1e-10, 1e-8, 1e-6, 1e-4, 1e-3]) {
      const series = y * (2 * rsp + y * (-1 + y * ((4 * rsp) / 3 + y * (-0.5 + (y * 8 * rsp) / 15))));
      expect(rel(oneMinusErfcx(y), series), `y=${y}`).toBeLessThanOrEqual(4 * EPS);
    }
  });

  it("is continuous at Cody's threshold 0.46875 and equals 1 - erfcx beyond", () => {
    const below = oneMinusErfcx(0.46875);
    const above = 1 - erfcx(0.46875 + 1e-15);
    expect(rel(below, above)).toBeLessThanOrEqual(1e-14);
    for (const y of [0.5, 1, 3, 10, 100]) expect(oneMinusErfcx(y)).toBe(1 - erfcx(y));
  });
});

describe("branch points of the initial guess", () => {
  it("b_c = b_max (1 - erfcx(sqrt|x|)) / 2 equals b(x, s_c) and the vega there is b_max / sqrt(2 pi)", () => {
    for (const ax of absXs(1e-6, 700, 400)) {
      const x = -ax;
      const sC = Math.sqrt(2 * ax);
      const bMax = Math.exp(0.5 * x);
      expect(rel(0.5 * bMax * oneMinusErfcx(Math.sqrt(ax)), normalisedBlackCall(x, sC)), `x=${x}`).toBeLessThanOrEqual(16 * EPS);
      // exp(-(h^2 + t^2)/2) carries the rounding of h^2 + t^2 = |x|: relative |x| eps.
      expect(rel(bMax / Math.sqrt(2 * Math.PI), normalisedVega(x, sC))).toBeLessThanOrEqual(8 * EPS * (1 + ax));
    }
  });

  it("b_l / b_max and b_u / b_max agree with b(x, s_l), b(x, s_u) computed directly, |x| from 0.01 to 700", () => {
    // s_l = s_c - b_c / b'(s_c), s_u = s_c + (b_max - b_c) / b'(s_c) (Jäckel 2015, (4.7)-(4.8)), from
    // independent evaluations of b; every branch of both approximations is crossed.
    let worstL = 0;
    let worstU = 0;
    for (const ax of absXs(0.01, 700, 3000)) {
      const x = -ax;
      const sC = Math.sqrt(2 * ax);
      const bMax = Math.exp(0.5 * x);
      const bC = normalisedBlackCall(x, sC);
      const vC = normalisedVega(x, sC);
      const sL = sC - bC / vC;
      const sU = sC + (bMax - bC) / vC;
      worstL = Math.max(worstL, rel(blOverBmax(sC), normalisedBlackCall(x, sL) / bMax));
      worstU = Math.max(worstU, rel(buOverBmax(sC), normalisedBlackCall(x, sU) / bMax));
    }
    // Measured 7e-14 and 1.5e-14, at |x| of several hundred where b and the rounding of s_l, s_u
    // carry the conditioning; a wrong coefficient shows as 1e-8 or worse.
    expect(worstL).toBeLessThanOrEqual(2e-13);
    expect(worstU).toBeLessThanOrEqual(1e-13);
  });

  it("small |x| (1e-6 to 0.01, the approximations' first branches) with s_l, s_u from oneMinusErfcx", () => {
    // The direct s_l = s_c - b_c / b'(s_c) cancels to s_l ~ sqrt(pi/2) |x| for small |x|, so here s_l
    // and s_u use the cancellation-free closed forms; b(x, s_l) is then well conditioned.
    for (const ax of absXs(1e-6, 0.01, 400)) {
      const x = -ax;
      const sC = Math.sqrt(2 * ax);
      const bMax = Math.exp(0.5 * x);
      const om = oneMinusErfcx(Math.sqrt(ax));
      const sL = sC - Math.sqrt(Math.PI / 2) * om;
      const sU = sC + Math.sqrt(Math.PI / 2) * (2 - om);
      expect(rel(blOverBmax(sC), normalisedBlackCall(x, sL) / bMax), `x=${x}`).toBeLessThanOrEqual(1e-12);
      expect(rel(buOverBmax(sC), normalisedBlackCall(x, sU) / bMax), `x=${x}`).toBeLessThanOrEqual(1e-14);
    }
  });

  it("limits: b_u / b_max -> 1 - 2 Phi(-sqrt(pi/2)) as x -> 0, b_l, b_u / b_max -> Phi(-+sqrt(pi/2)) as |x| -> infinity", () => {
    // Phi(-sqrt(pi/2)) = erfc(sqrt(pi)/2) / 2 = exp(-pi/4) erfcx(sqrt(pi)/2) / 2 = 0.10504570272196864.
    const phiMinus = 0.5 * Math.exp(-Math.PI / 4) * erfcx(Math.sqrt(Math.PI) / 2);
    expect(rel(buOverBmax(0), 1 - 2 * phiMinus)).toBeLessThanOrEqual(4 * EPS);
    expect(blOverBmax(0)).toBe(0);
    expect(rel(blOverBmax(1e8), phiMinus)).toBeLessThanOrEqual(1e-6);
    expect(rel(buOverBmax(1e8), 1 - phiMinus)).toBeLessThanOrEqual(1e-6);
  });
});
