// The WASM module's own vector exp/log against Math.exp/Math.log (V8's fdlibm ports).
import { describe, expect, it } from "vitest";
import { base64 } from "../../wasm/kernels.generated";
import { decodeBase64 } from "../../lib/kernels/_base64";
import { kernelImports, type KernelExports } from "../../lib/kernels/_wasm-exports";

async function instantiate(): Promise<KernelExports> {
  const { instance } = await WebAssembly.instantiate(decodeBase64(base64) as BufferSource, kernelImports);
  return instance.exports as unknown as KernelExports;
}

/** Runs a batch export over `xs` and returns the results. */
function run(x: KernelExports, fn: "expBatch" | "logBatch", xs: Float64Array): Float64Array {
  const base = x.heapBase();
  const need = base + xs.length * 16 + 64;
  if (x.memory.buffer.byteLength < need) x.memory.grow(Math.ceil((need - x.memory.buffer.byteLength) / 65536));
  new Float64Array(x.memory.buffer, base, xs.length).set(xs);
  x[fn](xs.length, base, base + xs.length * 8);
  return new Float64Array(x.memory.buffer, base + xs.length * 8, xs.length).slice();
}

/** A deterministic pseudo-random stream (xorshift) so failures reproduce. */
function uniforms(n: number, seed = 12345): Float64Array {
  let s = seed >>> 0;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = (s >>> 0) / 4294967296;
  }
  return out;
}

describe("vector exp and log", async () => {
  const x = await instantiate();

  it("exp equals Math.exp to 1e-13 relative over [-745, 709.7] (in fact bitwise, same fdlibm algorithm)", () => {
    const u = uniforms(100001);
    const xs = u.map((v) => -745 + v * (709.7 + 745));
    const got = run(x, "expBatch", xs);
    let worst = 0;
    let differ = 0;
    for (let i = 0; i < xs.length; i++) {
      const want = Math.exp(xs[i]);
      if (got[i] !== want) differ++;
      if (want > 1e-300) worst = Math.max(worst, Math.abs(got[i] - want) / want);
    }
    expect(worst).toBeLessThanOrEqual(1e-13);
    expect(differ).toBe(0);
  });

  it("exp handles the edges: subnormal results, underflow to 0, overflow, NaN, +-Infinity, odd lengths", () => {
    const xs = Float64Array.of(-708.5, -740, -745.1, -745.2, -800, -1e300, 709.78, 709.79, 1e300, NaN, -Infinity, Infinity, 0, -0, 1e-300);
    const got = run(x, "expBatch", xs);
    for (let i = 0; i < xs.length; i++) expect(Object.is(got[i], Math.exp(xs[i])) || got[i] === Math.exp(xs[i])).toBe(true);
  });

  it("log is within 1 ulp of Math.log for price ratios (and exact at powers of two)", () => {
    const u = uniforms(100001, 777);
    const xs = u.map((v) => Math.exp((v - 0.5) * 40));
    const got = run(x, "logBatch", xs);
    let worst = 0;
    for (let i = 0; i < xs.length; i++) {
      const want = Math.log(xs[i]);
      if (want !== 0) worst = Math.max(worst, Math.abs(got[i] - want) / Math.abs(want));
    }
    expect(worst).toBeLessThanOrEqual(2.3e-16);
    const pow2 = run(x, "logBatch", Float64Array.of(1, 2, 0.5, 1024, 2 ** -20));
    expect(Array.from(pow2)).toEqual([0, Math.LN2, -Math.LN2, 10 * Math.LN2, -20 * Math.LN2]);
  });

  it("log near 1 keeps its relative accuracy (moneyness close to the money)", () => {
    const xs = Float64Array.from({ length: 2001 }, (_, i) => 1 + (i - 1000) * 1e-9);
    const got = run(x, "logBatch", xs);
    for (let i = 0; i < xs.length; i++) {
      const want = Math.log(xs[i]);
      expect(Math.abs(got[i] - want)).toBeLessThanOrEqual(2.3e-16 * Math.abs(want));
    }
  });
});
