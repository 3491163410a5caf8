// Lazy loading: importing instantiates nothing; loaders cache, fall back, and say which engine ran.
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.resetModules();
});

function spyAll() {
  return [vi.spyOn(WebAssembly, "instantiate"), vi.spyOn(WebAssembly, "compile"), vi.spyOn(WebAssembly, "Module"), vi.spyOn(WebAssembly, "Instance")];
}

const chain = {
  strike: Float64Array.of(100, 105),
  tYears: Float64Array.of(0.1, 0.1),
  iv: Float64Array.of(0.2, 0.2),
  oi: Float64Array.of(10, 20),
  right: Uint8Array.of(1, 0),
  expIndex: Int32Array.of(0, 0),
  strikeIndex: Int32Array.of(0, 1),
};

describe("loading the kernels", () => {
  it("importing lib/kernels instantiates and compiles nothing", async () => {
    vi.resetModules();
    const spies = spyAll();
    const mod = await import("../../lib/kernels");
    for (const s of spies) expect(s).not.toHaveBeenCalled();
    expect(mod.kernelsInfo().wasmInstantiated).toBe(false);
    const engine = await mod.loadKernels();
    expect(engine.name).toBe("wasm");
    expect(spies[0]).toHaveBeenCalledTimes(1);
    expect(mod.kernelsInfo().wasmInstantiated).toBe(true);
    // Cached: a second load neither compiles nor instantiates again, sync or async.
    expect(await mod.loadKernels()).toBe(engine);
    expect(mod.loadKernelsSync()).toBe(engine);
    expect(spies[0]).toHaveBeenCalledTimes(1);
    expect(spies[2]).not.toHaveBeenCalled();
  });

  it("importing the whole library (lib/index.ts) instantiates nothing either", async () => {
    vi.resetModules();
    const spies = spyAll();
    const lib = await import("../../lib/index");
    for (const s of spies) expect(s).not.toHaveBeenCalled();
    expect(lib.kernelsInfo().wasmInstantiated).toBe(false);
  });

  it("loadKernelsSync compiles synchronously and gives the same numbers as the async engine", async () => {
    vi.resetModules();
    const mod = await import("../../lib/kernels");
    const sync = mod.loadKernelsSync();
    expect(sync.name).toBe("wasm");
    const p = { spot: 102, nStrikes: 2, nExp: 1 };
    expect(sync.exposure(chain, p)).toEqual(mod.jsKernels.exposure(chain, p));
  });

  it("gives the JS engine when asked, and when WebAssembly is missing ('auto')", async () => {
    vi.resetModules();
    const mod = await import("../../lib/kernels");
    expect((await mod.loadKernels({ engine: "js" })).name).toBe("js");
    expect(mod.loadKernelsSync({ engine: "js" })).toBe(mod.jsKernels);
    vi.stubGlobal("WebAssembly", undefined);
    expect((await mod.loadKernels()).name).toBe("js");
    expect(mod.loadKernelsSync({ engine: "auto" }).name).toBe("js");
    expect(mod.kernelsInfo().webAssembly).toBe(false);
    await expect(mod.loadKernels({ engine: "wasm" })).rejects.toMatchObject({ code: "engine_unavailable" });
    expect(() => mod.loadKernelsSync({ engine: "wasm" })).toThrow(mod.KernelError);
  });

  it("falls back to JS under 'auto' when the module cannot be compiled (e.g. no SIMD)", async () => {
    vi.resetModules();
    const mod = await import("../../lib/kernels");
    vi.spyOn(WebAssembly, "instantiate").mockRejectedValue(new WebAssembly.CompileError("SIMD unsupported"));
    expect((await mod.loadKernels()).name).toBe("js");
    await expect(mod.loadKernels({ engine: "wasm" })).rejects.toMatchObject({ code: "engine_unavailable" });
  });

  it("rejects an unknown engine name", async () => {
    vi.resetModules();
    const mod = await import("../../lib/kernels");
    await expect(mod.loadKernels({ engine: "gpu" as never })).rejects.toMatchObject({ code: "invalid_parameter" });
  });

  it("re-makes memory views after the memory grows (small, huge, small)", async () => {
    vi.resetModules();
    const mod = await import("../../lib/kernels");
    const engine = await mod.loadKernels({ engine: "wasm" });
    const p = { spot: 102, nStrikes: 2, nExp: 1 };
    const before = engine.exposure(chain, p);
    const n = 300_000;
    const big = {
      strike: new Float64Array(n).fill(100),
      tYears: new Float64Array(n).fill(0.1),
      iv: new Float64Array(n).fill(0.2),
      oi: new Float64Array(n).fill(1),
      right: new Uint8Array(n).fill(1),
      expIndex: new Int32Array(n),
      strikeIndex: new Int32Array(n),
    };
    const bigResult = engine.exposure(big, { spot: 102, nStrikes: 1, nExp: 1 });
    expect(bigResult.contributing).toBe(n);
    expect(bigResult.gammaTotal / n).toBeCloseTo(engine.exposure({ ...chain, oi: Float64Array.of(1, 0) }, p).gammaTotal, 6);
    expect(engine.exposure(chain, p)).toEqual(before);
    expect(engine.profile(chain, { spot: 102 }, Float64Array.of(102), "gamma")[0]).toBeCloseTo(before.gammaTotal, 6);
  });
});
