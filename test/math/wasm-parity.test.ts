import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { bsmPrice } from "../../lib/math/black-scholes";
import { erf, erfc, erfcx } from "../../lib/math/erf";
import { impliedVolsInto } from "../../lib/math/implied-vol-batch";
import { inverseNormCdf, normCdf, normPdf } from "../../lib/math/normal";
import { violations } from "../_helpers/violations";
import { withoutWasmTierUp } from "../_helpers/wasm-tier";

/**
 * The WASM kernels in assembly/normal.ts and assembly/implied-vol.ts, compiled here in memory
 * with the project's flags, against the JS engine (the oracle): relative difference <= 1e-12
 * (in practice a few ulp, from differing exp/log implementations), identical failure codes,
 * identical step counts and identical price-evaluation counts.
 */

/**
 * Both kernels in one asc run (a virtual entry beside them re-exports them): the compiler's fixed
 * cost (the standard library, Binaryen's passes) is paid once instead of once per file. Wasm
 * arithmetic is IEEE-exact, so which functions an entry exports changes no result.
 */
const PARITY_ENTRY = "assembly/__parity-entry.ts";
const PARITY_SOURCE = 'export { impliedVolBatch } from "./implied-vol";\nexport { erf, erfc, erfcx, inverseNormCdf, normCdf, normPdf } from "./normal";\n';

async function compile(): Promise<WebAssembly.Instance> {
  // Imported here, inside withoutWasmTierUp: loading the compiler compiles Binaryen's module.
  const { default: asc } = await import("assemblyscript/asc");
  let binary: Uint8Array | undefined;
  const { error, stderr } = await asc.main([PARITY_ENTRY, "-O3", "--runtime", "stub", "--noAssert", "--enable", "simd", "--outFile", "out.wasm"], {
    readFile: (name, baseDir) => {
      const path = resolve(baseDir, name);
      if (path === resolve(PARITY_ENTRY)) return PARITY_SOURCE;
      return existsSync(path) ? readFileSync(path, "utf8") : null;
    },
    writeFile: (name, contents) => {
      if (name.endsWith(".wasm") && typeof contents !== "string") binary = contents;
    },
    stdout: { write: () => true } as never,
  });
  if (error || !binary) throw new Error(`asc failed: ${error?.message}\n${stderr.toString()}`);
  const module = new WebAssembly.Module(new Uint8Array(binary));
  return new WebAssembly.Instance(module, {
    env: {
      abort: () => {
        throw new Error("abort");
      },
    },
  });
}

interface IvExports {
  memory: WebAssembly.Memory;
  impliedVolBatch: (...args: number[]) => number;
}

let iv: IvExports;
let normal: Record<string, (x: number) => number>;

beforeAll(async () => {
  const exports = (await withoutWasmTierUp(compile)).exports;
  iv = exports as unknown as IvExports;
  normal = exports as unknown as Record<string, (x: number) => number>;
});

const rel = (a: number, b: number): number => (a === b ? 0 : Math.abs(a - b) / Math.abs(b));

describe("assembly/normal.ts vs lib/math/normal.ts", () => {
  it("normCdf, normPdf, erf, erfc, erfcx, inverseNormCdf agree to <= 1e-14 relative", () => {
    const pairs: Array<[string, (x: number) => number, number, number]> = [
      ["normCdf", normCdf, -38, 9],
      ["normPdf", normPdf, -38, 38],
      ["erf", erf, -6, 6],
      ["erfc", erfc, -6, 26.5],
      ["erfcx", erfcx, -20, 1e3],
      ["inverseNormCdf", inverseNormCdf, 1e-300, 1],
    ];
    // One assertion over all 24,006 points: an expect each costs more than the point (test/_helpers/violations.ts).
    const v = violations();
    for (const [name, js, lo, hi] of pairs) {
      const wasm = normal[name];
      for (let i = 0; i <= 4000; i++) {
        const x = name === "inverseNormCdf" ? Math.exp((Math.log(lo) * (4000 - i)) / 4000) * (i % 2 ? 1 : 0.5) : lo + ((hi - lo) * i) / 4000;
        const a = wasm(x);
        const b = js(x);
        if (b === 0 || !Number.isFinite(b)) v.check(Object.is(a, b), () => `${name}(${x}): wasm ${a}, js ${b}`);
        else v.check(rel(a, b) <= 1e-14, () => `${name}(${x}): wasm ${a}, js ${b}, relative difference ${rel(a, b)}`);
      }
    }
    v.expectNone("wasm vs js");
    expect(v.checked).toBe(6 * 4001);
  });
});

describe("impliedVolBatch (WASM) vs impliedVolsInto (JS)", () => {
  it("agree on a grid over K/F 0.5-2, 1 minute-3 years, vol 1%-300%, calls and puts, plus bad rows", () => {
    const rows: Array<[number, number, number, number]> = [];
    for (let i = 0; i < 21; i++)
      for (let j = 0; j < 21; j++)
        for (let k = 0; k < 21; k++)
          for (const right of [0, 1]) {
            const m = 0.5 * 4 ** (i / 20);
            const t = (3 * 525600) ** (j / 20) / 525600;
            const v = 0.01 * 300 ** (k / 20);
            rows.push([m, t, v, right]);
          }
    const spot = 100;
    const rate = 0.05;
    const q = 0.02;
    const n = rows.length + 5;
    const prices = new Float64Array(n);
    const strikes = new Float64Array(n);
    const ts = new Float64Array(n);
    const rights = new Uint8Array(n);
    rows.forEach(([m, t, v, right], i) => {
      strikes[i] = m * spot * Math.exp((rate - q) * t);
      ts[i] = t;
      rights[i] = right;
      prices[i] = bsmPrice({ spot, strike: strikes[i], tYears: t, vol: v, rate, dividendYield: q, right: right ? "C" : "P" });
    });
    const k = rows.length;
    strikes.fill(90, k);
    ts.fill(0.5, k);
    rights.fill(1, k);
    prices.set([1, 150, NaN, -2, 12], k); // below intrinsic, above the bound, NaN, negative, ...
    ts[k + 4] = 0; // ... zero time

    const jsOut = new Float64Array(n);
    const jsIt = new Int32Array(n);
    const jsEv = new Int32Array(n);
    const jsFailures = impliedVolsInto(prices, spot, strikes, ts, rate, q, rights, jsOut, jsIt, jsEv);

    // Columns past the module's static data, in memory the test grows (as the loader will).
    const bytes = n * (8 * 4 + 4 + 4 + 1) + 64;
    const base = iv.memory.buffer.byteLength;
    iv.memory.grow(Math.ceil(bytes / 65536));
    const pricePtr = base;
    const strikePtr = pricePtr + 8 * n;
    const tPtr = strikePtr + 8 * n;
    const outPtr = tPtr + 8 * n;
    const iterPtr = outPtr + 8 * n;
    const evalPtr = iterPtr + 4 * n;
    const rightPtr = evalPtr + 4 * n;
    new Float64Array(iv.memory.buffer, pricePtr, n).set(prices);
    new Float64Array(iv.memory.buffer, strikePtr, n).set(strikes);
    new Float64Array(iv.memory.buffer, tPtr, n).set(ts);
    new Uint8Array(iv.memory.buffer, rightPtr, n).set(rights);
    new Int32Array(iv.memory.buffer, evalPtr, n).fill(-7);
    const wasmFailures = iv.impliedVolBatch(n, pricePtr, spot, strikePtr, tPtr, rate, q, rightPtr, outPtr, iterPtr, evalPtr);
    const wasmOut = new Float64Array(iv.memory.buffer, outPtr, n);
    const wasmIt = new Int32Array(iv.memory.buffer, iterPtr, n);
    const wasmEv = new Int32Array(iv.memory.buffer, evalPtr, n);

    expect(wasmFailures).toBe(jsFailures);
    expect(jsFailures).toBeLessThan(n);
    let solved = 0;
    let evaluations = 0;
    // One assertion over every row (test/_helpers/violations.ts): the same checks, row by row.
    const v = violations();
    for (let i = 0; i < n; i++) {
      v.check(wasmIt[i] === jsIt[i], () => `row ${i}: steps wasm ${wasmIt[i]}, js ${jsIt[i]}`);
      v.check(wasmEv[i] === jsEv[i], () => `row ${i}: evaluations wasm ${wasmEv[i]}, js ${jsEv[i]}`);
      if (Number.isNaN(jsOut[i])) {
        v.check(Number.isNaN(wasmOut[i]), () => `row ${i}: wasm ${wasmOut[i]} where js fails`);
        v.check(wasmEv[i] === 0, () => `row ${i}: ${wasmEv[i]} evaluations on a failed row`);
      } else {
        solved++;
        evaluations += wasmEv[i];
        v.check(wasmEv[i] === 1 + wasmIt[i], () => `row ${i}: ${wasmEv[i]} evaluations for ${wasmIt[i]} steps`);
        v.check(rel(wasmOut[i], jsOut[i]) <= 1e-12, () => `row ${i}: wasm ${wasmOut[i]}, js ${jsOut[i]}`);
        if (i < k && prices[i] >= 1e-100 && (rights[i] === 1) === rows[i][0] >= 1) {
          // out of the money: also the absolute error against the true vol
          v.check(Math.abs(wasmOut[i] - rows[i][2]) <= 1e-12, () => `row ${i}: wasm ${wasmOut[i]}, true vol ${rows[i][2]}`);
        }
      }
    }
    v.expectNone("impliedVolBatch vs impliedVolsInto");
    expect(solved).toBeGreaterThan(n / 3);
    expect(evaluations / solved).toBeLessThanOrEqual(3);
    expect(Array.from(wasmIt.subarray(k))).toEqual([-1, -2, -3, -3, -3]);

    // iterPtr = 0 skips the iterations column; an omitted evalPtr arrives as 0 and skips that one.
    wasmOut.fill(0);
    wasmEv.fill(-7);
    expect(iv.impliedVolBatch(n, pricePtr, spot, strikePtr, tPtr, rate, q, rightPtr, outPtr, 0)).toBe(jsFailures);
    expect(new Int32Array(iv.memory.buffer, evalPtr, n).every((e) => e === -7)).toBe(true);
    const again = new Float64Array(iv.memory.buffer, outPtr, n);
    const w = violations();
    for (let i = 0; i < n; i++) {
      if (Number.isNaN(jsOut[i])) w.check(Number.isNaN(again[i]), () => `row ${i}: ${again[i]} where js fails`);
      else w.check(rel(again[i], jsOut[i]) <= 1e-12, () => `row ${i}: wasm ${again[i]}, js ${jsOut[i]}`);
    }
    w.expectNone("without the step and evaluation columns");
  });
});
