import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { erf, erfc, erfcx } from "../../lib/math/erf";
import { inverseNormCdf, normCdf, normPdf } from "../../lib/math/normal";
import { bigErfc, bigErfcx, bigPdf, bigPhi } from "./_big-normal";
import { violations } from "../_helpers/violations";

const EPS = Number.EPSILON;
const rel = (a: number, b: number): number => Math.abs(a - b) / Math.abs(b);

describe("normCdf against an independent 2600-bit reference", () => {
  // Every x on a grid from the far lower tail (Phi = 4.6e-308) to the upper tail.
  const xs: number[] = [];
  for (let x = -37.5; x <= 8.5; x += 0.37) xs.push(x);
  xs.push(-37, -10, -5.5, -1, -0.6628, -0.66, 0, 1e-10, 0.3, 0.66, 1.5, 3);

  it("has relative error <= 1e-15 everywhere (<= 1e-14 required in the body)", () => {
    for (const x of xs) {
      expect(rel(normCdf(x), bigPhi(x)), `x=${x}`).toBeLessThanOrEqual(1e-15);
    }
  });

  it("normPdf has relative error <= 1e-15 out to |x| = 37", () => {
    for (const x of [-37, -20.25, -8.1, -4.5, -1, 0, 0.5, 2, 6.3, 12.7]) {
      expect(rel(normPdf(x), bigPdf(x)), `x=${x}`).toBeLessThanOrEqual(1e-15);
    }
  });
});

describe("normCdf reference values", () => {
  // Abramowitz & Stegun (1964), Table 26.1, P(x) to 15 decimals.
  const table: Array<[number, number]> = [
    [0.5, 0.691462461274013],
    [1.0, 0.841344746068543],
    [1.5, 0.933192798731142],
    [2.0, 0.977249868051821],
    [2.5, 0.993790334674224],
    [3.0, 0.99865010196837],
    [4.0, 0.999968328758167],
    [5.0, 0.999999713348428],
  ];
  it.each(table)("Phi(%f) matches A&S Table 26.1", (x, p) => {
    expect(Math.abs(normCdf(x) - p)).toBeLessThanOrEqual(6e-16);
    expect(Math.abs(normCdf(-x) - (1 - p))).toBeLessThanOrEqual(6e-16);
  });

  // Tail values (Phi(-10) = 7.6198530241605260660e-24; Phi(-37) = 5.7255712225245768e-300);
  // each is also re-derived here by the independent BigInt series before being trusted.
  const tails: Array<[number, number]> = [
    [-1, 0.15865525393145705],
    // biome-ignore lint/correctness/noPrecisionLoss: Phi(-10) to 16 digits as published; the same double as the rounded form
    [-10, 7.619853024160526e-24],
    [-37, 5.725571222524577e-300],
  ];
  it.each(tails)("Phi(%f) in the tail", (x, p) => {
    expect(rel(bigPhi(x), p)).toBeLessThanOrEqual(2 * EPS);
    expect(rel(normCdf(x), p)).toBeLessThanOrEqual(3 * EPS);
  });

  it("handles the limits", () => {
    expect(normCdf(-Infinity)).toBe(0);
    expect(normCdf(Infinity)).toBe(1);
    expect(normCdf(-40)).toBe(0);
    expect(normCdf(0)).toBe(0.5);
    expect(Number.isNaN(normCdf(NaN))).toBe(true);
    expect(normPdf(Infinity)).toBe(0);
  });
});

describe("normal identities", () => {
  it("Phi(x) + Phi(-x) = 1", () => {
    fc.assert(
      fc.property(fc.double({ min: -40, max: 40, noNaN: true }), (x) => {
        expect(Math.abs(normCdf(x) + normCdf(-x) - 1)).toBeLessThanOrEqual(2 * EPS);
      }),
      { numRuns: 2000 },
    );
  });

  it("Phi' = phi by central differences", () => {
    fc.assert(
      fc.property(fc.double({ min: -8, max: 8, noNaN: true }), (x) => {
        const h = 1e-5;
        const fd = (normCdf(x + h) - normCdf(x - h)) / (2 * h);
        // truncation h^2 |phi''| / 6 plus rounding eps / h
        expect(Math.abs(fd - normPdf(x))).toBeLessThanOrEqual(1e-10 + 1e-8 * normPdf(x));
      }),
      { numRuns: 500 },
    );
  });

  it("Phi is monotone", () => {
    let prev = 0;
    // One assertion for the sweep: an expect per point costs more than normCdf (test/_helpers/violations.ts).
    const v = violations();
    for (let x = -38; x <= 9; x += 1 / 64) {
      const p = normCdf(x);
      const before = prev;
      v.check(p >= before, () => `Phi(${x}) = ${p} below ${before}`);
      prev = p;
    }
    v.expectNone("monotone");
  });
});

describe("inverseNormCdf (AS 241)", () => {
  it("matches classical quantiles (checked against the reference cdf)", () => {
    const quantiles: Array<[number, number]> = [
      [0.975, 1.959963984540054],
      [0.995, 2.5758293035489004],
      [0.5, 0],
      [0.8413447460685429, 1],
    ];
    for (const [p, z] of quantiles) {
      expect(Math.abs(inverseNormCdf(p) - z)).toBeLessThanOrEqual(4 * EPS * Math.max(1, Math.abs(z)));
      if (z !== 0) expect(rel(bigPhi(z), p)).toBeLessThanOrEqual(2 * EPS);
    }
  });

  it("inverts normCdf from Phi = 1e-307 to the upper body", () => {
    const v = violations();
    for (let z = -37.5; z <= 5; z += 0.0625 + 0.001) {
      const back = inverseNormCdf(normCdf(z));
      // Input rounding of p alone moves z by eps * Phi / phi; allow a few of those.
      const tol = 8 * EPS * Math.max(Math.abs(z), normCdf(z) / normPdf(z));
      v.check(Math.abs(back - z) <= tol, () => `z=${z}: inverse gave ${back} (tolerance ${tol})`);
    }
    v.expectNone("inverseNormCdf(normCdf(z)) = z");
  });

  it("handles the ends", () => {
    expect(inverseNormCdf(0)).toBe(-Infinity);
    expect(inverseNormCdf(1)).toBe(Infinity);
    expect(Number.isNaN(inverseNormCdf(-0.1))).toBe(true);
    expect(Number.isNaN(inverseNormCdf(1.1))).toBe(true);
    expect(Number.isNaN(inverseNormCdf(NaN))).toBe(true);
  });
});

describe("Cody erf / erfc / erfcx", () => {
  it("erfc and erfcx match the reference across all three rational ranges", () => {
    for (const x of [-5.9, -3, -0.7, -0.3, 0.1, 0.46875, 0.5, 1.3, 3.99, 4.01, 9.5, 26]) {
      expect(rel(erfc(x), bigErfc(x)), `erfc ${x}`).toBeLessThanOrEqual(2e-15);
      expect(rel(erfcx(x), bigErfcx(x)), `erfcx ${x}`).toBeLessThanOrEqual(2e-15);
    }
  });

  it("erf(x) = 1 - erfc(x) and is odd", () => {
    fc.assert(
      fc.property(fc.double({ min: -30, max: 30, noNaN: true }), (x) => {
        expect(erf(-x)).toBe(-erf(x));
        expect(Math.abs(erf(x) - (1 - erfc(x)))).toBeLessThanOrEqual(2 * EPS);
      }),
      { numRuns: 500 },
    );
  });

  it("erfcx decays like 1/(x sqrt(pi)) instead of underflowing", () => {
    expect(rel(erfcx(1e9), 1 / (1e9 * Math.sqrt(Math.PI)))).toBeLessThanOrEqual(2 * EPS);
    expect(erfc(30)).toBe(0);
    expect(erfcx(30)).toBeGreaterThan(0.018);
  });
});
