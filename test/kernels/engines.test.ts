// The same suite against both engines: reference values, identities, finite differences, errors.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bsmGreeks, bsmPrice } from "../../lib/math";
import { jsKernels, KernelError, loadKernels, type KernelEngine } from "../../lib/kernels";
import { spxChain, spotLevels } from "../../bench/_spx-chain";
import { columns, maxAbs, maxRelError, referenceExposure, relError } from "./_helpers";
import { codeOf } from "../_helpers/thrown";

const engines: Array<[string, () => Promise<KernelEngine>]> = [
  ["wasm", () => loadKernels({ engine: "wasm" })],
  ["js", async () => jsKernels],
];

describe.each(engines)("%s engine", (name, load) => {
  it("says which engine it is", async () => {
    expect((await load()).name).toBe(name);
  });

  it("matches Hull's gamma for a single call (Example 19.4: S=49, K=50, r=5%, sigma=20%, T=20 weeks)", async () => {
    const engine = await load();
    const c = columns([{ strike: 50, tYears: 20 / 52, iv: 0.2, oi: 1, right: "C" }]);
    const r = engine.exposure(c, { spot: 49, rate: 0.05, nStrikes: 1, nExp: 1 });
    // Hull, Options, Futures and Other Derivatives (8th ed.), Example 19.4: gamma = 0.066.
    const gamma = r.gammaTotal / (100 * 49 * 49 * 0.01);
    expect(gamma).toBeCloseTo(0.066, 3);
  });

  it("agrees with a per-contract bsmGreeks reference on an SPX-like chain (<= 1e-11)", async () => {
    const engine = await load();
    const chain = spxChain(7);
    const params = { spot: chain.spot, rate: chain.rate, dividendYield: chain.dividendYield, nStrikes: chain.nStrikes, nExp: chain.nExp };
    const got = engine.exposure(chain, params);
    const ref = referenceExposure(chain, params);
    expect(got.contributing).toBe(ref.contributing);
    expect(maxRelError(got.gammaGrid, ref.gammaGrid)).toBeLessThan(1e-11);
    expect(maxRelError(got.vannaGrid, ref.vannaGrid)).toBeLessThan(1e-11);
    expect(maxRelError(got.gammaByStrike, ref.gammaByStrike)).toBeLessThan(1e-11);
    expect(maxRelError(got.vannaByStrike, ref.vannaByStrike)).toBeLessThan(1e-11);
    expect(relError(got.gammaTotal, ref.gammaTotal, maxAbs(ref.gammaByStrike))).toBeLessThan(1e-11);
    expect(relError(got.vannaTotal, ref.vannaTotal, maxAbs(ref.vannaByStrike))).toBeLessThan(1e-11);
  });

  it("lays grids out row-major, sums rows per strike and rows into totals", async () => {
    const engine = await load();
    const rows = [
      { strike: 90, tYears: 0.1, iv: 0.3, oi: 10, right: "P" as const, strikeIndex: 0, expIndex: 1 },
      { strike: 100, tYears: 0.5, iv: 0.2, oi: 20, right: "C" as const, strikeIndex: 1, expIndex: 2 },
      { strike: 110, tYears: 0.1, iv: 0.25, oi: 5, right: "C" as const, strikeIndex: 2, expIndex: 0 },
    ];
    const r = engine.exposure(columns(rows), { spot: 100, nStrikes: 3, nExp: 3 });
    const single = (i: number) => engine.exposure(columns([{ ...rows[i], strikeIndex: 0, expIndex: 0 }]), { spot: 100, nStrikes: 1, nExp: 1 });
    expect(r.gammaGrid[0 * 3 + 1]).toBe(single(0).gammaTotal);
    expect(r.gammaGrid[1 * 3 + 2]).toBe(single(1).gammaTotal);
    expect(r.vannaGrid[2 * 3 + 0]).toBe(single(2).vannaTotal);
    expect(Array.from(r.gammaGrid).filter((v) => v !== 0)).toHaveLength(3);
    for (let row = 0; row < 3; row++) {
      expect(r.gammaByStrike[row]).toBe(r.gammaGrid[row * 3] + r.gammaGrid[row * 3 + 1] + r.gammaGrid[row * 3 + 2]);
    }
    expect(r.gammaTotal).toBe(r.gammaByStrike[0] + r.gammaByStrike[1] + r.gammaByStrike[2]);
  });

  it("applies the dealer sign model: calls +1, puts -1 by default, configurable", async () => {
    const engine = await load();
    const call = columns([{ strike: 100, tYears: 0.25, iv: 0.2, oi: 7, right: "C" }]);
    const put = columns([{ strike: 100, tYears: 0.25, iv: 0.2, oi: 7, right: "P" }]);
    const p = { spot: 101, nStrikes: 1, nExp: 1 };
    const c1 = engine.exposure(call, p).gammaTotal;
    const p1 = engine.exposure(put, p).gammaTotal;
    expect(c1).toBeGreaterThan(0);
    // BSM gamma is the same for a call and a put: the put's exposure is exactly the mirror.
    expect(p1).toBe(-c1);
    expect(engine.exposure(put, { ...p, putSign: 1 }).gammaTotal).toBe(c1);
    expect(engine.exposure(call, { ...p, callSign: -0.5 }).gammaTotal).toBeCloseTo(-0.5 * c1, 9);
  });

  it("skips contracts with OI 0, iv <= 0 or NaN, tYears <= 0 or strike <= 0", async () => {
    const engine = await load();
    const good = { strike: 100, tYears: 0.25, iv: 0.2, oi: 3, right: "C" as const };
    const bad = [
      { ...good, oi: 0 },
      { ...good, iv: 0 },
      { ...good, iv: -0.1 },
      { ...good, iv: NaN },
      { ...good, tYears: 0 },
      { ...good, tYears: -1 },
      { ...good, strike: 0 },
      { ...good, oi: NaN },
    ];
    const alone = engine.exposure(columns([good]), { spot: 100, nStrikes: 1, nExp: 1 });
    for (let pos = 0; pos <= bad.length; pos++) {
      const rows = [...bad.slice(0, pos), good, ...bad.slice(pos)];
      const r = engine.exposure(columns(rows), { spot: 100, nStrikes: 1, nExp: 1 });
      expect(r.contributing).toBe(1);
      expect(r.gammaTotal).toBe(alone.gammaTotal);
      expect(r.vannaTotal).toBe(alone.vannaTotal);
    }
    const none = engine.exposure(columns(bad), { spot: 100, nStrikes: 1, nExp: 1 });
    expect(none.contributing).toBe(0);
    expect(none.gammaTotal).toBe(0);
  });

  it("is linear in open interest (property)", async () => {
    const engine = await load();
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            strike: fc.double({ min: 50, max: 200, noNaN: true }),
            tYears: fc.double({ min: 1 / 525600, max: 3, noNaN: true }),
            iv: fc.double({ min: 0.01, max: 3, noNaN: true }),
            oi: fc.integer({ min: 1, max: 100000 }),
            right: fc.constantFrom("C" as const, "P" as const),
          }),
          { minLength: 1, maxLength: 9 },
        ),
        (rows) => {
          const p = { spot: 100, rate: 0.03, dividendYield: 0.01, nStrikes: 1, nExp: 1 };
          const once = engine.exposure(columns(rows), p);
          const twice = engine.exposure(columns(rows.map((r) => ({ ...r, oi: 2 * r.oi }))), p);
          // Doubling is exact in binary floating point except where subnormals lose bits, hence the floor.
          expect(relError(twice.gammaTotal, 2 * once.gammaTotal, 1e-290)).toBeLessThan(1e-15);
          expect(relError(twice.vannaTotal, 2 * once.vannaTotal, 1e-290)).toBeLessThan(1e-15);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("reuses `out` when its shape fits", async () => {
    const engine = await load();
    const c = columns([{ strike: 100, tYears: 0.25, iv: 0.2, oi: 3, right: "C", strikeIndex: 1 }]);
    const first = engine.exposure(c, { spot: 100, nStrikes: 2, nExp: 1 });
    const again = engine.exposure(columns([{ strike: 100, tYears: 0.25, iv: 0.2, oi: 3, right: "P" }]), { spot: 100, nStrikes: 2, nExp: 1 }, first);
    expect(again).toBe(first);
    expect(first.gammaGrid[1]).toBe(0);
    expect(first.gammaGrid[0]).toBeLessThan(0);
  });

  it("profile at the chain's own spot equals the exposure totals", async () => {
    const engine = await load();
    const chain = spxChain(3);
    const p = { spot: chain.spot, rate: chain.rate, dividendYield: chain.dividendYield, nStrikes: chain.nStrikes, nExp: chain.nExp };
    const r = engine.exposure(chain, p);
    const spots = Float64Array.of(chain.spot);
    expect(relError(engine.profile(chain, p, spots, "gamma")[0], r.gammaTotal, maxAbs(r.gammaByStrike))).toBeLessThan(1e-12);
    expect(relError(engine.profile(chain, p, spots, "vanna")[0], r.vannaTotal, maxAbs(r.vannaByStrike))).toBeLessThan(1e-12);
  });

  it("profile equals exposure recomputed at each spot, and matches finite differences of bsmGreeks delta", async () => {
    const engine = await load();
    const chain = spxChain(11);
    const p = { spot: chain.spot, rate: chain.rate, dividendYield: chain.dividendYield, nStrikes: chain.nStrikes, nExp: chain.nExp };
    const spots = spotLevels(chain.spot, 5, 0.05);
    const gamma = engine.profile(chain, p, spots, "gamma");
    const vanna = engine.profile(chain, p, spots, "vanna");
    // A subset keeps bsmGreeks (zod-validated, slow) calls bounded.
    const pick = Array.from({ length: chain.strike.length }, (_, i) => i).filter((i) => i % 37 === 0 && chain.oi[i] > 0);
    for (let j = 0; j < spots.length; j++) {
      const s = spots[j];
      const again = engine.exposure(chain, { ...p, spot: s });
      expect(relError(gamma[j], again.gammaTotal, maxAbs(again.gammaByStrike))).toBeLessThan(1e-11);
      expect(relError(vanna[j], again.vannaTotal, maxAbs(again.vannaByStrike))).toBeLessThan(1e-11);
    }
    // Finite differences of an independent delta (lib/math) on the subset: gamma = d(delta)/dS,
    // vanna = d(delta)/d(sigma), scaled per DESIGN section 8.
    const sub = {
      strike: Float64Array.from(pick, (i) => chain.strike[i]),
      tYears: Float64Array.from(pick, (i) => chain.tYears[i]),
      iv: Float64Array.from(pick, (i) => chain.iv[i]),
      oi: Float64Array.from(pick, (i) => chain.oi[i]),
      right: Uint8Array.from(pick, (i) => chain.right[i]),
    };
    const subGamma = engine.profile(sub, p, spots, "gamma");
    const subVanna = engine.profile(sub, p, spots, "vanna");
    const deltaSum = (s: number, bumpVol: number) => {
      let sum = 0;
      for (let k = 0; k < pick.length; k++) {
        const d = bsmGreeks({
          spot: s,
          strike: sub.strike[k],
          tYears: sub.tYears[k],
          vol: sub.iv[k] + bumpVol,
          rate: p.rate,
          dividendYield: p.dividendYield,
          right: sub.right[k] === 1 ? "C" : "P",
        }).delta;
        sum += (sub.right[k] === 1 ? 1 : -1) * sub.oi[k] * d;
      }
      return sum;
    };
    for (let j = 0; j < spots.length; j++) {
      const s = spots[j];
      const h = 1e-4 * s;
      const fdGamma = ((deltaSum(s + h, 0) - deltaSum(s - h, 0)) / (2 * h)) * 100 * s * s * 0.01;
      const hv = 1e-5;
      const fdVanna = ((deltaSum(s, hv) - deltaSum(s, -hv)) / (2 * hv)) * 100 * s * 0.01;
      expect(relError(subGamma[j], fdGamma, maxAbs(subGamma))).toBeLessThan(1e-5);
      expect(relError(subVanna[j], fdVanna, maxAbs(subVanna))).toBeLessThan(1e-5);
    }
  });

  it("profile merges a call/put pair quoted at one vol without changing the sum", async () => {
    const engine = await load();
    const pair = columns([
      { strike: 100, tYears: 0.2, iv: 0.25, oi: 30, right: "P" },
      { strike: 100, tYears: 0.2, iv: 0.25, oi: 50, right: "C" },
    ]);
    const spots = Float64Array.of(90, 100, 110);
    const p = { spot: 100, rate: 0.02 };
    const merged = engine.profile(pair, p, spots, "gamma");
    const put = engine.profile(columns([{ strike: 100, tYears: 0.2, iv: 0.25, oi: 30, right: "P" }]), p, spots, "gamma");
    const call = engine.profile(columns([{ strike: 100, tYears: 0.2, iv: 0.25, oi: 50, right: "C" }]), p, spots, "gamma");
    for (let j = 0; j < 3; j++) expect(relError(merged[j], put[j] + call[j], call[j])).toBeLessThan(1e-14);
  });

  it("implied vols round-trip bsmPrice (|error| <= 1e-12) and flag prices with no vol", async () => {
    const engine = await load();
    const spot = 100;
    const cases: Array<[number, number, number, "C" | "P"]> = [];
    for (const k of [50, 80, 100, 125, 200])
      for (const t of [1 / 525600, 1 / 365, 0.5, 3]) for (const v of [0.01, 0.2, 1, 3]) for (const r of ["C", "P"] as const) cases.push([k, t, v, r]);
    const rate = 0.03;
    const q = 0.01;
    const prices = Float64Array.from(cases, ([k, t, v, r]) => bsmPrice({ spot, strike: k, tYears: t, vol: v, rate, dividendYield: q, right: r }));
    const res = engine.impliedVols({
      prices,
      spot,
      rate,
      dividendYield: q,
      strike: Float64Array.from(cases, (c) => c[0]),
      tYears: Float64Array.from(cases, (c) => c[1]),
      right: Uint8Array.from(cases, (c) => (c[3] === "C" ? 1 : 0)),
    });
    // Prices too small to carry a vol (deep OTM at tiny vol underflow to 0 or to intrinsic) are
    // exactly the rows the solver must refuse or solve; none may return a wrong number.
    let solved = 0;
    const evaluations = res.evaluations ?? new Int32Array(0);
    expect(evaluations.length).toBe(cases.length);
    for (let i = 0; i < cases.length; i++) {
      const v = res.vols[i];
      if (Number.isNaN(v)) {
        expect(res.iterations[i]).toBeLessThan(0);
        expect(evaluations[i]).toBe(0);
        continue;
      }
      // One price evaluation for the initial guess, one per Householder step.
      expect(evaluations[i]).toBe(1 + res.iterations[i]);
      expect(evaluations[i]).toBeLessThanOrEqual(4);
      const back = bsmPrice({ spot, strike: cases[i][0], tYears: cases[i][1], vol: v, rate, dividendYield: q, right: cases[i][3] });
      expect(relError(back, prices[i], 1e-300)).toBeLessThan(1e-9);
      // Out of the money the whole price is time value, so the vol is identifiable to 1e-12.
      const otm = cases[i][3] === "C" ? cases[i][0] > spot * 1.1 : cases[i][0] < spot * 0.9;
      if (otm && prices[i] > 1e-280) {
        expect(Math.abs(v - cases[i][2])).toBeLessThan(1e-12 * Math.max(1, cases[i][2]));
        solved++;
      }
    }
    expect(solved).toBeGreaterThanOrEqual(30);
    const bad = engine.impliedVols({
      prices: Float64Array.of(1, 200),
      spot: 100,
      strike: Float64Array.of(50, 100),
      tYears: Float64Array.of(1, 1),
      right: Uint8Array.of(1, 1),
    });
    expect(Number.isNaN(bad.vols[0])).toBe(true); // below intrinsic (50)
    expect(bad.iterations[0]).toBe(-1);
    expect(Number.isNaN(bad.vols[1])).toBe(true); // above the call's upper bound (spot)
    expect(bad.iterations[1]).toBe(-2);
    expect(bad.failures).toBe(2);
    // An `out` without an evaluations column (older callers) is reused and gets one.
    const out = { vols: new Float64Array(2), iterations: new Int32Array(2), failures: 0 };
    const again = engine.impliedVols(
      { prices: Float64Array.of(10, 20), spot: 100, strike: Float64Array.of(100, 100), tYears: Float64Array.of(1, 1), right: Uint8Array.of(1, 0) },
      out,
    );
    expect(again).toBe(out);
    expect(Array.from(again.evaluations ?? [])).toEqual([1 + out.iterations[0], 1 + out.iterations[1]]);
  });

  it("throws KernelError with a stable code on bad input", async () => {
    const engine = await load();
    const c = columns([{ strike: 100, tYears: 0.25, iv: 0.2, oi: 3, right: "C", strikeIndex: 2 }]);
    expect(codeOf(KernelError, () => engine.exposure(c, { spot: 100, nStrikes: 2, nExp: 1 }))).toBe("invalid_index");
    expect(codeOf(KernelError, () => engine.exposure({ ...c, expIndex: Int32Array.of(-1), strikeIndex: Int32Array.of(0) }, { spot: 100, nStrikes: 2, nExp: 1 }))).toBe(
      "invalid_index",
    );
    expect(codeOf(KernelError, () => engine.exposure(c, { spot: 0, nStrikes: 3, nExp: 1 }))).toBe("invalid_parameter");
    expect(codeOf(KernelError, () => engine.exposure(c, { spot: NaN, nStrikes: 3, nExp: 1 }))).toBe("invalid_parameter");
    expect(codeOf(KernelError, () => engine.exposure(c, { spot: 100, nStrikes: 1.5, nExp: 1 }))).toBe("invalid_parameter");
    expect(codeOf(KernelError, () => engine.exposure({ ...c, iv: new Float64Array(2) }, { spot: 100, nStrikes: 3, nExp: 1 }))).toBe("invalid_columns");
    expect(codeOf(KernelError, () => engine.exposure({ ...c, right: new Float64Array(1) as unknown as Uint8Array }, { spot: 100, nStrikes: 3, nExp: 1 }))).toBe(
      "invalid_columns",
    );
    expect(codeOf(KernelError, () => engine.profile(c, { spot: 100 }, Float64Array.of(100, -1), "gamma"))).toBe("invalid_parameter");
  });
});
