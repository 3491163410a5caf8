// Issue 37: delta, charm and vomma exposure per contract against independent finite differences of
// the Black-Scholes price (bump spot, time, vol) and a textbook delta; the whole SPX-like board
// against a per-contract bsmGreeks reference; and the WASM and JS engines against each other.
import { describe, expect, it } from "vitest";
import { spxChain } from "../../bench/_spx-chain";
import { type GreekMetric, jsKernels, KernelError, type KernelEngine, loadKernels } from "../../lib/kernels";
import { bsmGreeks, bsmPrice, normCdf, normPdf } from "../../lib/math";
import { violations } from "../_helpers/violations";
import { columns, maxAbs, maxRelError, relError } from "./_helpers";

const engines: Array<[string, () => Promise<KernelEngine>]> = [
  ["wasm", () => loadKernels({ engine: "wasm" })],
  ["js", async () => jsKernels],
];

/** Dollars per unit greek of one signed contract (docs/methodology.md#exposure): delta per 1%, charm per day, vomma per vol point squared. */
const scaleOf = (metric: GreekMetric, spot: number) => (metric === "delta" ? 100 * spot * 0.01 : metric === "charm" ? (100 * spot) / 365 : 100 * 0.01 * 0.01);

type Case = { strike: number; tYears: number; iv: number; right: "C" | "P"; rate: number; q: number };

// Deep ITM to far OTM, 1 day to 2 years, 8% to 120% vol, with and without rate and dividend yield.
const CASES: Case[] = [];
for (const [rate, q] of [
  [0, 0],
  [0.05, 0.02],
  [0.01, 0.04],
]) {
  for (const strike of [70, 95, 100, 104, 140]) {
    for (const [tYears, iv] of [
      [1 / 365, 0.35],
      [0.1, 0.08],
      [0.5, 0.25],
      [2, 1.2],
    ]) {
      for (const right of ["C", "P"] as const) CASES.push({ strike, tYears, iv, right, rate, q });
    }
  }
}
const SPOT = 100;

/** Black-Scholes price of a case with spot, time or vol bumped. */
const price = (c: Case, o: { spot?: number; tYears?: number; vol?: number } = {}) =>
  bsmPrice({ spot: o.spot ?? SPOT, strike: c.strike, tYears: o.tYears ?? c.tYears, vol: o.vol ?? c.iv, rate: c.rate, dividendYield: c.q, right: c.right });

/** d price / d spot by a central difference. */
const fdDelta = (c: Case, tYears = c.tYears) => {
  const h = 1e-4 * SPOT;
  return (price(c, { spot: SPOT + h, tYears }) - price(c, { spot: SPOT - h, tYears })) / (2 * h);
};

/** Per-share greek from the finite differences: charm = -d delta / dT (calendar time passing), vomma = d2 price / d vol2. */
function finiteDifference(metric: GreekMetric, c: Case): number {
  if (metric === "delta") return fdDelta(c);
  if (metric === "charm") {
    const h = 1e-3 * c.tYears;
    return -(fdDelta(c, c.tYears + h) - fdDelta(c, c.tYears - h)) / (2 * h);
  }
  const h = 1e-3 * c.iv;
  return (price(c, { vol: c.iv + h }) - 2 * price(c) + price(c, { vol: c.iv - h })) / (h * h);
}

describe.each(engines)("%s engine: delta, charm and vomma exposure", (_name, load) => {
  it("matches Hull's delta for a single call (Example 19.1: S=49, K=50, r=5%, sigma=20%, T=20 weeks)", async () => {
    const engine = await load();
    const c = columns([{ strike: 50, tYears: 20 / 52, iv: 0.2, oi: 1, right: "C" }]);
    const r = engine.greekExposure(c, { spot: 49, rate: 0.05, nStrikes: 1, nExp: 1 }, "delta");
    // Hull, Options, Futures and Other Derivatives (8th ed.), Example 19.1: delta = N(d1) = 0.522.
    expect(r.total / scaleOf("delta", 49)).toBeCloseTo(0.522, 3);
  });

  it.each(["delta", "charm", "vomma"] as const)("%s of one contract equals a finite difference of the BSM price (call and put, every case)", async (metric) => {
    const engine = await load();
    const bad = violations();
    for (const c of CASES) {
      const cols = columns([{ strike: c.strike, tYears: c.tYears, iv: c.iv, oi: 1, right: c.right }]);
      // Signs +1/+1: the per-contract greek itself (the sign model is checked below).
      const r = engine.greekExposure(cols, { spot: SPOT, rate: c.rate, dividendYield: c.q, callSign: 1, putSign: 1, nStrikes: 1, nExp: 1 }, metric);
      const got = r.total / scaleOf(metric, SPOT);
      const want = finiteDifference(metric, c);
      // Second differences carry ~1e-6 truncation error; the floor covers values near zero.
      const floor = metric === "delta" ? 1e-3 : metric === "charm" ? 1e-2 : 1e-1;
      bad.check(relError(got, want, floor) < 2e-4, () => `${JSON.stringify(c)}: ${got} vs ${want}`);
    }
    expect(bad.checked).toBe(CASES.length);
    bad.expectNone(metric);
  });

  it("applies the dealer sign model and open interest (default calls +1, puts -1)", async () => {
    const engine = await load();
    const cols = columns([
      { strike: 100, tYears: 0.25, iv: 0.2, oi: 3, right: "C" },
      { strike: 100, tYears: 0.25, iv: 0.2, oi: 5, right: "P" },
    ]);
    const p = { spot: 100, rate: 0.03, dividendYield: 0.01, nStrikes: 1, nExp: 1 };
    for (const metric of ["delta", "charm", "vomma"] as const) {
      const one = (right: "C" | "P") =>
        engine.greekExposure(columns([{ strike: 100, tYears: 0.25, iv: 0.2, oi: 1, right }]), { ...p, callSign: 1, putSign: 1 }, metric).total;
      const r = engine.greekExposure(cols, p, metric);
      expect(relError(r.total, 3 * one("C") - 5 * one("P"), Math.abs(one("C")))).toBeLessThan(1e-14);
      expect(r.contributing).toBe(2);
    }
  });

  it("keeps delta's and charm's normal cdf terms exact in every erfc range, however the rows pair up", async () => {
    // The kernels take e^{-qT} Phi(-|d1|) from Cody's erfc pieces and the density's exponential
    // (docs/methodology.md#greek-exposure-kernel); the WASM one two rows at a time. Strikes put
    // |d1| / sqrt 2 below 0.46875, in (0.46875, 4] and beyond 4 (d1 from -12 to 12), in a strided,
    // odd-length order so neighbouring rows mix the ranges; each cell holds one contract.
    const engine = await load();
    const [spot, tYears, iv, rate, q] = [100, 0.05, 0.2, 0.04, 0.03];
    const sst = iv * Math.sqrt(tYears);
    const d1s = Array.from({ length: 241 }, (_, i) => -12 + i * 0.1);
    // Stride 97 through 241 (prime): neighbours are 9.7 apart in d1 (mod 24.1).
    const order = d1s.map((_, i) => (i * 97) % d1s.length);
    const rows = order.flatMap((j, r) => {
      const strike = spot * Math.exp(-(d1s[j] * sst - (rate - q + 0.5 * iv * iv) * tYears));
      return (["C", "P"] as const).map((right) => ({ strike, tYears, iv, oi: 1, right, strikeIndex: r, expIndex: right === "C" ? 1 : 0 }));
    });
    const params = { spot, rate, dividendYield: q, callSign: 1, putSign: 1, nStrikes: rows.length / 2, nExp: 2 };
    const delta = engine.greekExposure(columns(rows), params, "delta").grid;
    const charm = engine.greekExposure(columns(rows), params, "charm").grid;
    const bad = violations();
    for (const row of rows) {
      const theta = row.right === "C" ? 1 : -1;
      const d1 = (Math.log(spot / row.strike) + (rate - q + 0.5 * iv * iv) * tYears) / sst;
      const cdfTerm = theta * Math.exp(-q * tYears) * normCdf(theta * d1);
      const cell = row.strikeIndex * 2 + row.expIndex;
      // Delta is the cdf term itself: relative, no floor, down to Phi(-12) ~ 1.8e-33.
      bad.check(relError(delta[cell] / scaleOf("delta", spot), cdfTerm) < 1e-12, () => `delta d1=${d1}: ${delta[cell]}`);
      const densityTerm = (Math.exp(-q * tYears) * normPdf(d1) * (2 * (rate - q) * tYears - (d1 - sst) * sst)) / (2 * tYears * sst);
      const want = q * cdfTerm - densityTerm;
      // Charm's two terms can cancel: relative to their magnitudes.
      bad.check(relError(charm[cell] / scaleOf("charm", spot), want, Math.abs(q * cdfTerm) + Math.abs(densityTerm)) < 1e-12, () => `charm d1=${d1}: ${charm[cell]}`);
    }
    expect(bad.checked).toBe(2 * rows.length);
    bad.expectNone("cdf terms");
  });

  it("agrees with a per-contract bsmGreeks reference on the whole SPX-like board (<= 1e-11)", async () => {
    const engine = await load();
    const chain = spxChain(11);
    const params = { spot: chain.spot, rate: chain.rate, dividendYield: chain.dividendYield, nStrikes: chain.nStrikes, nExp: chain.nExp };
    const metrics = ["delta", "charm", "vomma"] as const;
    const refs = metrics.map(() => new Float64Array(chain.nStrikes * chain.nExp));
    for (let i = 0; i < chain.strike.length; i++) {
      if (!(chain.oi[i] > 0 && chain.iv[i] > 0 && chain.tYears[i] > 0)) continue;
      const g = bsmGreeks({
        spot: chain.spot,
        strike: chain.strike[i],
        tYears: chain.tYears[i],
        vol: chain.iv[i],
        rate: chain.rate,
        dividendYield: chain.dividendYield,
        right: chain.right[i] === 1 ? "C" : "P",
      });
      const w = (chain.right[i] === 1 ? 1 : -1) * chain.oi[i];
      const cell = chain.strikeIndex[i] * chain.nExp + chain.expIndex[i];
      // bsmGreeks' charm is per year; the kernel's per day (scaleOf divides by 365).
      metrics.forEach((m, k) => {
        refs[k][cell] += w * g[m] * scaleOf(m, chain.spot);
      });
    }
    metrics.forEach((metric, k) => {
      const ref = refs[k];
      const got = engine.greekExposure(chain, params, metric);
      expect(maxRelError(got.grid, ref)).toBeLessThan(1e-11);
      expect(
        relError(
          got.total,
          ref.reduce((s, v) => s + v, 0),
          maxAbs(ref),
        ),
      ).toBeLessThan(1e-11);
    });
  });

  it("rejects an unknown metric and an index outside the grid", async () => {
    const engine = await load();
    const cols = columns([{ strike: 100, tYears: 0.25, iv: 0.2, oi: 1, right: "C" }]);
    expect(() => engine.greekExposure(cols, { spot: 100, nStrikes: 1, nExp: 1 }, "theta" as GreekMetric)).toThrow(/delta, charm, vomma/);
    expect(() => engine.greekExposure(cols, { spot: 100, nStrikes: 1, nExp: 0 }, "delta")).toThrow(KernelError);
  });
});

describe("WASM and JS engines on a whole board", () => {
  it("agree on every delta, charm and vomma cell, per-strike sum and total of the SPX-like board (<= 1e-12)", async () => {
    const wasm = await loadKernels({ engine: "wasm" });
    const chain = spxChain(5);
    const params = { spot: chain.spot, rate: chain.rate, dividendYield: chain.dividendYield, nStrikes: chain.nStrikes, nExp: chain.nExp };
    for (const metric of ["delta", "charm", "vomma"] as const) {
      const w = wasm.greekExposure(chain, params, metric);
      const j = jsKernels.greekExposure(chain, params, metric);
      expect(w.contributing).toBe(j.contributing);
      expect(maxRelError(w.grid, j.grid)).toBeLessThanOrEqual(1e-12);
      expect(maxRelError(w.byStrike, j.byStrike)).toBeLessThanOrEqual(1e-12);
      expect(relError(w.total, j.total, maxAbs(j.byStrike))).toBeLessThanOrEqual(1e-12);
      // `out` of the right shape is reused and filled with the same numbers.
      const out = jsKernels.greekExposure(chain, params, "delta");
      expect(wasm.greekExposure(chain, params, metric, out)).toBe(out);
      expect(out.metric).toBe(metric);
      expect(maxRelError(out.grid, j.grid)).toBeLessThanOrEqual(1e-12);
    }
  });
});
