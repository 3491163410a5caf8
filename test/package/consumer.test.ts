import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleAndServe, launchChromium, nodeBuiltinInputs, runPage, type ServedBundle } from "../browser/_bundle";
import { type PackResult, waitForPackage } from "./_wait";

// Issue 32, done when: a fresh project installs the library tarball (global setup, once) and uses
// it from ESM, CJS, strict TypeScript and a browser bundle run in Chromium (one browser start).
const root = join(__dirname, "..", "..");
const expected: string[] = JSON.parse(readFileSync(join(__dirname, "exports.snapshot.json"), "utf8"));

// A 4-expiration x 40-strike chain (320 contracts), the same in Node and in the page, so their
// grids can be compared: one implementation, two runtimes.
const CHAIN_JS = `
function makeChain() {
  const nExp = 4, nStrikes = 40, n = nExp * nStrikes * 2, asOfMs = Date.UTC(2025, 2, 5, 16);
  const strikes = Float64Array.from({ length: nStrikes }, (_, i) => 5700 + 5 * i);
  const c = { strikeIndex: new Int32Array(n), expIndex: new Int32Array(n), right: new Uint8Array(n), oi: new Float64Array(n),
    bid: new Float64Array(n), ask: new Float64Array(n), last: new Float64Array(n), iv: new Float64Array(n), volume: new Float64Array(n) };
  const expirations = [], expirySettleMs = [];
  for (let e = 0; e < nExp; e++) { const ms = asOfMs + (e * 7 + 1) * 86400000; expirations.push(new Date(ms).toISOString().slice(0, 10)); expirySettleMs.push(ms); }
  let r = 0;
  for (let e = 0; e < nExp; e++) for (let s = 0; s < nStrikes; s++) for (const right of [0, 1]) {
    c.strikeIndex[r] = s; c.expIndex[r] = e; c.right[r] = right; c.oi[r] = 100 + ((r * 7919) % 5000); c.iv[r] = 0.15 + 0.002 * Math.abs(s - 20); r++;
  }
  return { symbol: "SPXW", underlying: "SPX", asOfMs, sessionDate: "2025-03-05", spot: 5800, rate: 0.043, dividendYield: 0.013,
    simulated: true, expirations, expirySettleMs, strikes, ...c };
}`;

/** What both runtimes report: WASM state around the first use, one implied vol, the grid. */
const USE_JS = `
  const before = lib.kernelsInfo().wasmInstantiated;
  const engine = await lib.loadKernels();
  const price = lib.bsmPrice({ spot: 100, strike: 105, tYears: 0.25, rate: 0.03, dividendYield: 0.01, vol: 0.27, right: "C" });
  const iv = lib.impliedVol({ price, spot: 100, strike: 105, tYears: 0.25, rate: 0.03, dividendYield: 0.01, right: "C" });
  const grid = lib.exposureGrid(makeChain(), { metric: "gamma" }, engine);
  const frame = lib.heatmapFrame(grid);
  const result = { before, engine: engine.name, after: lib.kernelsInfo().wasmInstantiated, vol: iv.ok ? iv.vol : null,
    net: Array.from(grid.net), nodes: frame.strikes.length };`;

/**
 * Identity across entries, run in the consumer after `lib` (the root) is loaded: every subpath's
 * names are the root's own objects; a schema reached through `optionscope/client/schemas` is the
 * root's; a validation error from either is one ZodError class (one vendored zod). `load` is
 * `import` or `require`.
 */
const IDENTITY_JS = (load: string, subpaths: string[]) => `
  const mismatched = [];
  for (const s of ${JSON.stringify(subpaths)}) {
    const m = await ${load}("optionscope/" + s);
    for (const [k, v] of Object.entries(m)) if (k !== "__esModule" && k in lib && lib[k] !== v) mismatched.push(s + ":" + k);
  }
  const { operationSchemas } = await ${load}("optionscope/client/schemas");
  const identity = {
    mismatched,
    sharedSchema: Object.values(operationSchemas).some((op) => op.data === lib.MarketOverviewSchema),
    oneZodError: lib.IsoDateSchema.safeParse(1).error.constructor === operationSchemas.getServerTime.data.safeParse("x").error.constructor,
  };`;

function node(cwd: string, args: string[]) {
  const r = spawnSync(process.execPath, args, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

describe("a fresh project using the installed library", () => {
  let pack: PackResult;
  let subpaths: string[];
  let esm: { keys: string[]; sameInstance: boolean; before: boolean; engine: string; after: boolean; vol: number; net: number[]; nodes: number };
  beforeAll(async () => {
    pack = (await waitForPackage()).pack;
    const manifest = JSON.parse(readFileSync(join(pack.stage, "package.json"), "utf8"));
    subpaths = Object.keys(manifest.exports)
      .filter((k) => k.startsWith("./") && k !== "./package.json")
      .map((k) => k.slice(2));
  }, 600_000);

  const sameObjects = { mismatched: [], sharedSchema: true, oneZodError: true };

  it("ESM: the reviewed names, subpaths sharing one module graph, nothing instantiated before first use", () => {
    const run = node(pack.consumer, [
      "--input-type=module",
      "-e",
      `${CHAIN_JS}
      const lib = await import("optionscope");
      const kernels = await import("optionscope/kernels");
      const math = await import("optionscope/math");
      const client = await import("optionscope/client");
      const sameInstance = kernels.loadKernels === lib.loadKernels && math.impliedVol === lib.impliedVol && client.createClient === lib.createClient;
      ${IDENTITY_JS("import", subpaths)}
      ${USE_JS}
      process.stdout.write(JSON.stringify({ keys: Object.keys(lib).sort(), sameInstance, identity, resolved: import.meta.resolve("optionscope"), ...result }));`,
    ]);
    esm = run;
    expect(esm.keys).toEqual(expected);
    expect(esm.sameInstance).toBe(true);
    expect(run.identity).toEqual(sameObjects);
    // Node takes the few-file build (the `node` condition), bundlers the per-module one.
    expect(run.resolved).toMatch(/\/optionscope\/dist\/lib\/node\/index\.js$/);
    expect([esm.before, esm.engine, esm.after]).toEqual([false, "wasm", true]);
    expect(esm.vol).toBeCloseTo(0.27, 12);
    expect(esm.net.some((v) => v !== 0)).toBe(true);
  });

  it("CJS: require gives the same names and a working WASM engine, subpaths included", () => {
    const cjs = node(pack.consumer, [
      "-e",
      `const lib = require("optionscope");
      const { loadKernelsSync } = require("optionscope/kernels");
      const { impliedVol } = require("optionscope/math");
      const r = impliedVol({ price: 2, spot: 100, strike: 100, tYears: 0.1, rate: 0, dividendYield: 0, right: "P" });
      (async () => {
        ${IDENTITY_JS("require", subpaths)}
        process.stdout.write(JSON.stringify({ keys: Object.keys(lib).filter((k) => k !== "__esModule").sort(), engine: loadKernelsSync().name, ok: r.ok, identity }));
      })();`,
    ]);
    expect(cjs).toEqual({ keys: expected, engine: "wasm", ok: true, identity: sameObjects });
  });

  it("strict TypeScript (nodenext, no skipLibCheck) type-checks an ESM and a CJS consumer, without zod installed", () => {
    const dir = pack.consumer;
    // The schemas' zod types resolve to the declarations vendored in the package.
    expect(existsSync(join(dir, "node_modules", "zod"))).toBe(false);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, module: "nodenext", moduleResolution: "nodenext", target: "es2022", types: [] },
        files: ["use.mts", "use.cts"],
      }),
    );
    writeFileSync(
      join(dir, "use.mts"),
      `import { impliedVol, IsoDateSchema, loadKernels, type ExposureGrid, type ImpliedVolResult } from "optionscope";
import { loadKernels as fromSubpath } from "optionscope/kernels";
import { createClient } from "optionscope/client";
const r: ImpliedVolResult = impliedVol({ price: 5, spot: 100, strike: 100, tYears: 0.25, rate: 0, dividendYield: 0, right: "C" });
export const same: boolean = r.ok && fromSubpath === loadKernels;
export type Grid = ExposureGrid;
export const client = createClient({ baseUrl: "http://localhost:8080", apiKey: "k" });
export const day: string = IsoDateSchema.parse("2025-03-05");
`,
    );
    writeFileSync(
      join(dir, "use.cts"),
      `import { bsmPrice, BsmInputSchema } from "optionscope/math";
import * as os from "optionscope";
export const price: number = bsmPrice({ spot: 100, strike: 100, tYears: 0.25, rate: 0, dividendYield: 0, vol: 0.2, right: "C" });
export const spot: number = BsmInputSchema.parse({ spot: 100, strike: 100, tYears: 0.25, rate: 0, dividendYield: 0, vol: 0.2, right: "C" }).spot;
export const names: number = Object.keys(os).length;
`,
    );
    const r = spawnSync(process.execPath, [join(root, "node_modules/typescript-native/bin/tsc"), "-p", dir], { encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  }, 300_000);

  describe("a browser bundle of the installed package, in Chromium", () => {
    let browser: Browser;
    let served: ServedBundle;
    beforeAll(async () => {
      served = await bundleAndServe(
        `import * as lib from "optionscope";\n${CHAIN_JS}\nwindow.__result = (async () => {${USE_JS}\nreturn result; })();`,
        "optionscope package",
        { nodePaths: [join(pack.consumer, "node_modules")] },
      );
      browser = await launchChromium();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await served?.close();
    });

    it("runs the WASM kernels from the bundle (no fetch, no Node built-in) and matches Node's grid", async () => {
      expect(nodeBuiltinInputs(served.metafile)).toEqual([]);
      const run = await runPage<typeof esm>(browser, served.url);
      expect(run.pageErrors).toEqual([]);
      expect(run.netCalls).toEqual([]);
      expect(served.requests.filter((r) => r !== "/favicon.ico")).toEqual(["/", "/bundle.js"]);
      expect([run.result.before, run.result.engine, run.result.after]).toEqual([false, "wasm", true]);
      expect(run.result.vol).toBeCloseTo(0.27, 12);
      expect(run.result.nodes).toBe(esm.nodes);
      // Same WASM, same inputs: the same numbers bit for bit in both runtimes.
      expect(run.result.net).toEqual(esm.net);
    });
  });
});
