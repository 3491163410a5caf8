// The positioning functions (and the solver, symbols, calendar and bar aggregation they sit on)
// bundled for the browser run in headless Chromium on the isomorphic simulated market, with the
// WASM engine loaded from the bundle itself, and agree with Node:
// - on the same inputs (Node's chains and bars sent to the page), bit for bit: both runtimes run
//   the same WASM engine and otherwise only IEEE arithmetic;
// - on the page's own simulated market, to ~1e-12 relative: the simulator calls Math.exp/log/pow,
//   which Node 20's V8 and Chromium's V8 round differently in the last bit (measured below).
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedChromium } from "../_helpers/shared-chromium";
import { bundleAndServe, nodeBuiltinInputs, runPage, type PageRun, type ServedBundle } from "./_bundle";
import {
  computeWorkload,
  positioningWorkload,
  reviveInputs,
  WORKLOAD_DATE,
  WORKLOAD_NOW_MS,
  WORKLOAD_SEED,
  type WorkloadNumbers,
  type WorkloadResult,
} from "./_positioning-workload";
import { loadKernels } from "../../lib/kernels";

const ROOT = resolve(__dirname, "../..");
const ARTIFACT = resolve(ROOT, "test-artifacts/browser-positioning.json");

// The page runs the same workload module as Node, bundled with the library.
const ENTRY = `
import { positioningWorkload, computeOnWire } from ${JSON.stringify(resolve(__dirname, "_positioning-workload.ts"))};
window.__computeOnWire = (wire) => computeOnWire(wire).catch((e) => ({ error: String((e && e.stack) || e) }));
window.__result = positioningWorkload().catch((e) => ({ error: String((e && e.stack) || e) }));
`;

type Leaf = [path: string, value: unknown];

/** Every leaf (number, string, boolean, null) of a JSON-like value, with its path. */
function leaves(x: unknown, path = "", out: Leaf[] = []): Leaf[] {
  if (Array.isArray(x))
    x.forEach((v, i) => {
      leaves(v, `${path}[${i}]`, out);
    });
  else if (x && typeof x === "object") for (const [k, v] of Object.entries(x)) leaves(v, path ? `${path}.${k}` : k, out);
  else out.push([path, x]);
  return out;
}

/** Leaf-by-leaf comparison: same paths; non-numbers equal; numbers bit-equal or within `relTol`. */
function compare(a: unknown, b: unknown, relTol: number) {
  const la = leaves(a);
  const lb = leaves(b);
  const samePaths = la.length === lb.length && la.every(([p], i) => p === lb[i][0]);
  let numbers = 0;
  let bitDifferent = 0;
  let maxRel = 0;
  const bad: string[] = [];
  if (samePaths)
    la.forEach(([p, x], i) => {
      const y = lb[i][1];
      if (typeof x === "number" && typeof y === "number") {
        numbers++;
        if (Object.is(x, y)) return;
        bitDifferent++;
        const rel = Math.abs(x - y) / Math.max(Math.abs(x), Math.abs(y), 1);
        maxRel = Math.max(maxRel, rel);
        if (!(rel <= relTol)) bad.push(`${p}: ${x} vs ${y}`);
      } else if (!Object.is(x, y)) bad.push(`${p}: ${String(x)} vs ${String(y)}`);
    });
  return { samePaths, leaves: la.length, numbers, bitDifferent, maxRel, bad: bad.slice(0, 20) };
}

describe("positioning in headless Chromium", () => {
  let served: ServedBundle | undefined;
  let browser: Browser | undefined;
  let node: WorkloadResult;
  let page: PageRun<WorkloadResult & { error?: string }, WorkloadNumbers & { engine: string; error?: string }>;

  beforeAll(async () => {
    served = await bundleAndServe(ENTRY, "optionscope positioning");
    browser = await sharedChromium(); // the worker's, kept open for its next file
    node = await positioningWorkload();
    const wire = node.inputs;
    page = await runPage(browser, served.url, (p) =>
      p.evaluate((w) => (window as unknown as { __computeOnWire: (w: unknown) => Promise<never> }).__computeOnWire(w), wire),
    );
  }, 120_000);

  afterAll(async () => {
    await served?.close();
  });

  it("bundles the library without Node built-ins", () => {
    expect(nodeBuiltinInputs(served!.metafile)).toEqual([]);
    const inputs = Object.keys(served!.metafile.inputs);
    for (const f of ["lib/positioning/exposure-grid.ts", "lib/positioning/key-levels.ts", "lib/market/simulated/create-simulated-market.ts", "lib/price/aggregate.ts"])
      expect(
        inputs.some((i) => i.endsWith(f)),
        f,
      ).toBe(true);
  });

  it("loads the WASM engine in the page from the bundle: no fetch, no fs, no Buffer", () => {
    expect(page.result.error).toBeUndefined();
    expect(page.extra.error).toBeUndefined();
    expect(page.pageErrors).toEqual([]);
    expect(page.result.env).toEqual({
      wasmInstantiatedBefore: false,
      wasmInstantiatedAfter: true,
      loadedEngine: "wasm",
      gridEngine: "wasm",
      keyLevelsEngine: "wasm",
      webAssembly: true,
      hasBuffer: false,
    });
    expect(page.extra.engine).toBe("wasm");
    // Only the page and the bundle were requested; nothing called fetch, XHR or a streaming compile.
    expect(served!.requests.filter((r) => r !== "/favicon.ico")).toEqual(["/", "/bundle.js"]);
    expect(page.netCalls).toEqual([]);
    // The Node side ran the same engine.
    expect([node.env.loadedEngine, node.env.gridEngine, node.env.keyLevelsEngine]).toEqual(["wasm", "wasm", "wasm"]);
  });

  it("gives bit-identical positioning, calendar, symbol and bar results on Node's inputs (WASM engine in both)", async () => {
    // The wire format itself is exact: revived inputs reproduce Node's numbers.
    const revived = computeWorkload(reviveInputs(JSON.parse(JSON.stringify(node.inputs))), await loadKernels());
    expect(compare(revived, node.numbers, 0).bitDifferent).toBe(0);

    const exact = compare(page.extra.exact, node.numbers.exact, 0);
    expect(exact.samePaths).toBe(true);
    expect(exact.bad).toEqual([]);
    expect(exact.bitDifferent).toBe(0);
    expect(exact.numbers).toBeGreaterThan(5_000);
    for (const key of ["gamma", "vanna", "frame", "nodeTypes", "levels", "spyLevels", "stats", "symbols", "tradingDays", "sessions", "aggregated"])
      expect(leaves(page.extra.exact[key]).length, key).toBeGreaterThan(0);
    // impliedVol is plain JS over Math.log/exp (V8's, not WASM): equal to well below its 1e-12 accuracy.
    const iv = compare(page.extra.jsMath, node.numbers.jsMath, 1e-13);
    expect(iv.samePaths).toBe(true);
    expect(iv.bad).toEqual([]);
  });

  it("gives the same numbers on the page's own simulated market, to 1e-12 relative; saves the artifact", () => {
    const inputs = compare(page.result.inputs, node.inputs, 1e-12);
    const numbers = compare(page.result.numbers, node.numbers, 1e-12);
    mkdirSync(resolve(ROOT, "test-artifacts"), { recursive: true });
    writeFileSync(
      ARTIFACT,
      JSON.stringify(
        {
          note: "Simulated market data. test/browser/_positioning-workload.ts run in headless Chromium (bundled with esbuild).",
          seed: WORKLOAD_SEED,
          clockNow: new Date(WORKLOAD_NOW_MS).toISOString(),
          date: WORKLOAD_DATE,
          runtimes: { node: process.version, browser: browser!.version() },
          bundleBytes: served!.bundleBytes,
          env: { browser: page.result.env, node: node.env },
          comparison: {
            onNodeInputs: {
              exact: compare(page.extra.exact, node.numbers.exact, 0),
              jsMath: compare(page.extra.jsMath, node.numbers.jsMath, 1e-13),
            },
            ownSimulation: { inputs, numbers },
          },
          browserResults: page.result.numbers,
        },
        null,
        1,
      ),
    );
    // Same structure, same strings, types, counts and dates; numbers to within V8 Math.* rounding.
    expect(inputs.samePaths).toBe(true);
    expect(inputs.bad).toEqual([]);
    expect(numbers.samePaths).toBe(true);
    expect(numbers.bad).toEqual([]);
  });

  it("computes a meaningful board in the page (not an empty or degenerate one)", () => {
    const x = page.result.numbers.exact as {
      gamma: { strikes: number[]; total: number; spot: number; expirations: string[] };
      frame: { strikes: { nodeType: string; velocityPct: number }[] };
      levels: { kingNode: { strike: number } | null; summary: { zeroGamma: { method: string; level: number | null } } };
      stats: { frames: number; complete: boolean; date: string } | null;
      symbols: { root: string; strike: number; right: string; expiry: string }[];
      sessions: { d: string; regular: { openMs: number; closeMs: number } }[];
    };
    expect(x.gamma.strikes.length).toBeGreaterThan(20);
    expect(x.gamma.strikes[0]).toBeLessThan(x.gamma.spot);
    expect(x.gamma.strikes[x.gamma.strikes.length - 1]).toBeGreaterThan(x.gamma.spot);
    expect(x.gamma.expirations[0]).toBe(WORKLOAD_DATE); // SPXW lists a 0DTE
    expect(x.frame.strikes.filter((c) => c.nodeType === "king")).toHaveLength(1);
    expect(x.frame.strikes.every((c) => Number.isFinite(c.velocityPct))).toBe(true);
    expect(x.levels.kingNode).not.toBeNull();
    expect(x.levels.summary.zeroGamma.method).toBe("spot_profile");
    expect(x.stats).toMatchObject({ frames: 8, complete: true, date: WORKLOAD_DATE });
    // The solver recovers the simulator's IVs from the model values the quotes straddle
    // (docs/methodology.md#tick-grid: bid <= model value <= ask, on the exchanges' tick grid).
    const vols = (page.result.numbers.jsMath as { vols: { iv: number; solved: { ok: boolean; vol: number }; model: number; bid: number; ask: number }[] }).vols;
    expect(vols.length).toBeGreaterThan(20);
    for (const v of vols) {
      expect(v.solved.ok).toBe(true);
      expect(Math.abs(v.solved.vol - v.iv)).toBeLessThan(1e-8);
      expect(v.bid).toBeLessThanOrEqual(v.model + 1e-9);
      expect(v.ask).toBeGreaterThanOrEqual(v.model - 1e-9);
    }
    // OSI symbols as written: the SPXW 5100 call of 2024-03-06; the padded form with a half-point strike.
    expect(x.symbols[0]).toMatchObject({ root: "SPXW", expiry: "2024-03-06", right: "C", strike: 5100 });
    expect(x.symbols[1]).toMatchObject({ root: "SPXW", expiry: "2024-03-15", right: "P", strike: 4900.5 });
    // Early close 2023-11-24 at 13:00 EST; 2024-03-11 is the first EDT session (09:30 EDT = 13:30Z).
    const s = Object.fromEntries(x.sessions.map((r) => [r.d, r.regular]));
    expect(s["2023-11-24"].closeMs).toBe(Date.parse("2023-11-24T18:00:00Z"));
    expect(s["2024-03-11"].openMs).toBe(Date.parse("2024-03-11T13:30:00Z"));
    expect(s["2023-11-06"].openMs).toBe(Date.parse("2023-11-06T14:30:00Z"));
  });
});
