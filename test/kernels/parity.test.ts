// WASM vs JS parity over extreme inputs: deep ITM/OTM, 1-minute to 3-year expiries, 1% to 300% vol.
// "Relative" is |a - b| <= 1e-12 * max(|a|, |b|, scale), scale = the JS grid's largest magnitude.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bsmPrice } from "../../lib/math";
import { jsKernels, loadKernels, type ChainColumns } from "../../lib/kernels";
import { spotLevels, spxChain } from "../../bench/_spx-chain";
import { maxAbs, maxRelError, relError } from "./_helpers";

const MINUTE = 1 / 525600;
const T_GRID = [MINUTE, 5 * MINUTE, 1 / 365, 7 / 365, 30 / 365, 0.5, 1, 3];
const VOL_GRID = [0.01, 0.05, 0.2, 0.6, 1.5, 3];
const MONEYNESS = [0.5, 0.7, 0.9, 0.97, 0.995, 1, 1.005, 1.03, 1.1, 1.4, 2];

/** Every (moneyness, expiry, vol, right) combination, one grid row per moneyness and column per expiry. */
function extremeChain(spot: number): ChainColumns & { nStrikes: number; nExp: number } {
  const rows: Array<[number, number, number, number, number, number]> = [];
  MONEYNESS.forEach((m, s) => {
    T_GRID.forEach((t, e) => {
      VOL_GRID.forEach((v, k) => {
        for (const right of [0, 1]) rows.push([spot * m, t, v, 1 + ((s * 7 + e * 13 + k * 5 + right) % 17) * 100, right, s * 1000 + e]);
      });
    });
  });
  return {
    nStrikes: MONEYNESS.length,
    nExp: T_GRID.length,
    strike: Float64Array.from(rows, (r) => r[0]),
    tYears: Float64Array.from(rows, (r) => r[1]),
    iv: Float64Array.from(rows, (r) => r[2]),
    oi: Float64Array.from(rows, (r) => r[3]),
    right: Uint8Array.from(rows, (r) => r[4]),
    strikeIndex: Int32Array.from(rows, (r) => Math.floor(r[5] / 1000)),
    expIndex: Int32Array.from(rows, (r) => r[5] % 1000),
  };
}

describe("WASM vs JS parity", async () => {
  const wasm = await loadKernels({ engine: "wasm" });

  it("runs the WASM engine", () => {
    expect(wasm.name).toBe("wasm");
  });

  for (const [rate, q] of [
    [0, 0],
    [0.05, 0.02],
    [-0.01, 0.08],
  ] as const) {
    it(`exposure grids agree to 1e-12 on the extreme grid (r=${rate}, q=${q})`, () => {
      const chain = extremeChain(100);
      const p = { spot: 100, rate, dividendYield: q, nStrikes: chain.nStrikes, nExp: chain.nExp };
      const a = wasm.exposure(chain, p);
      const b = jsKernels.exposure(chain, p);
      expect(a.contributing).toBe(b.contributing);
      expect(maxRelError(a.gammaGrid, b.gammaGrid)).toBeLessThanOrEqual(1e-12);
      expect(maxRelError(a.vannaGrid, b.vannaGrid)).toBeLessThanOrEqual(1e-12);
      expect(maxRelError(a.gammaByStrike, b.gammaByStrike, maxAbs(b.gammaGrid))).toBeLessThanOrEqual(1e-12);
      expect(maxRelError(a.vannaByStrike, b.vannaByStrike, maxAbs(b.vannaGrid))).toBeLessThanOrEqual(1e-12);
      expect(relError(a.gammaTotal, b.gammaTotal, maxAbs(b.gammaGrid))).toBeLessThanOrEqual(1e-12);
      expect(relError(a.vannaTotal, b.vannaTotal, maxAbs(b.vannaGrid))).toBeLessThanOrEqual(1e-12);
    });
  }

  it("every single extreme contract agrees to 1e-12 relative to itself", () => {
    const chain = extremeChain(100);
    for (let i = 0; i < chain.strike.length; i++) {
      const one = {
        strike: chain.strike.subarray(i, i + 1),
        tYears: chain.tYears.subarray(i, i + 1),
        iv: chain.iv.subarray(i, i + 1),
        oi: chain.oi.subarray(i, i + 1),
        right: chain.right.subarray(i, i + 1),
        strikeIndex: new Int32Array(1),
        expIndex: new Int32Array(1),
      };
      const p = { spot: 100, rate: 0.03, dividendYield: 0.01, nStrikes: 1, nExp: 1 };
      const a = wasm.exposure(one, p);
      const b = jsKernels.exposure(one, p);
      // Values below 1e-300 are subnormal-adjacent; compare them absolutely.
      expect(relError(a.gammaTotal, b.gammaTotal, 1e-300)).toBeLessThanOrEqual(1e-12);
      expect(relError(a.vannaTotal, b.vannaTotal, 1e-300)).toBeLessThanOrEqual(1e-12);
    }
  });

  it("odd and even chain lengths, random contracts (property)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.double({ min: 0.3, max: 3, noNaN: true }),
            fc.double({ min: MINUTE, max: 3, noNaN: true }),
            fc.double({ min: 0.01, max: 3, noNaN: true }),
            fc.integer({ min: 0, max: 50000 }),
            fc.integer({ min: 0, max: 1 }),
            fc.integer({ min: 0, max: 3 }),
          ),
          { minLength: 1, maxLength: 40 },
        ),
        (rows) => {
          const c = {
            strike: Float64Array.from(rows, (r) => 5800 * r[0]),
            tYears: Float64Array.from(rows, (r) => r[1]),
            iv: Float64Array.from(rows, (r) => r[2]),
            oi: Float64Array.from(rows, (r) => r[3]),
            right: Uint8Array.from(rows, (r) => r[4]),
            strikeIndex: Int32Array.from(rows, (r) => r[5]),
            expIndex: Int32Array.from(rows, (r) => r[5] % 2),
          };
          const p = { spot: 5800, rate: 0.04, dividendYield: 0.012, nStrikes: 4, nExp: 2 };
          const a = wasm.exposure(c, p);
          const b = jsKernels.exposure(c, p);
          expect(a.contributing).toBe(b.contributing);
          expect(maxRelError(a.gammaGrid, b.gammaGrid)).toBeLessThanOrEqual(1e-12);
          expect(maxRelError(a.vannaGrid, b.vannaGrid)).toBeLessThanOrEqual(1e-12);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("profiles agree to 1e-12 of the profile's largest magnitude (extreme grid and SPX-like chain)", () => {
    const extreme = extremeChain(100);
    const spx = spxChain(5);
    for (const [c, spot] of [
      [extreme, 100],
      [spx, spx.spot],
    ] as const) {
      const spots = spotLevels(spot, 41, 0.3);
      for (const metric of ["gamma", "vanna"] as const) {
        const p = { spot, rate: 0.04, dividendYield: 0.01 };
        const a = wasm.profile(c, p, spots, metric);
        const b = jsKernels.profile(c, p, spots, metric);
        expect(maxRelError(a, b)).toBeLessThanOrEqual(1e-12);
      }
    }
  });

  it("implied vols agree (same vol to 1e-12, same failure codes, same price-evaluation counts)", () => {
    const spot = 100;
    const rows: Array<[number, number, number, number]> = [];
    for (const m of MONEYNESS) for (const t of T_GRID) for (const v of VOL_GRID) for (const r of [0, 1]) rows.push([spot * m, t, v, r]);
    const prices = Float64Array.from(rows, ([k, t, v, r]) => bsmPrice({ spot, strike: k, tYears: t, vol: v, rate: 0.03, dividendYield: 0.01, right: r ? "C" : "P" }));
    // Also a few with no vol: below intrinsic, above the bound, far-OTM 1e-100.
    const input = {
      prices: Float64Array.of(...prices, 0, 1e9, 1e-100),
      spot,
      rate: 0.03,
      dividendYield: 0.01,
      strike: Float64Array.of(...rows.map((r) => r[0]), 50, 100, 300),
      tYears: Float64Array.of(...rows.map((r) => r[1]), 1, 1, 0.25),
      right: Uint8Array.of(...rows.map((r) => r[3]), 1, 1, 1),
    };
    const a = wasm.impliedVols(input);
    const b = jsKernels.impliedVols(input);
    expect(Array.from(a.iterations)).toEqual(Array.from(b.iterations));
    expect(a.evaluations).toBeInstanceOf(Int32Array);
    expect(Array.from(a.evaluations ?? [])).toEqual(Array.from(b.evaluations ?? [0]));
    expect(a.failures).toBe(b.failures);
    expect(maxRelError(a.vols, b.vols, 0)).toBeLessThanOrEqual(1e-12);
    expect(a.vols[a.vols.length - 1]).toBeGreaterThan(0); // 1e-100 far OTM still has a vol
  });
});
