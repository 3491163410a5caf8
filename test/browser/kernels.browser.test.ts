// The library bundled for the browser (esbuild, platform "browser") runs the WASM kernels in
// headless Chromium, with no fs and no fetch of the .wasm, and matches the Node JS engine.
import { join, resolve } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsKernels } from "../../lib/kernels";
import { spotLevels, spxChain } from "../../bench/_spx-chain";
import { maxAbs, maxRelError, relError } from "../kernels/_helpers";
import { sharedChromium } from "../_helpers/shared-chromium";
import { bundleAndServe, runPage, type ServedBundle } from "./_bundle";

const root = resolve(__dirname, "../..");
const SEED = 99;

// Runs in the page: the bundled library, the same generated chain as in Node.
const ENTRY = `
import { loadKernels, loadKernelsSync, kernelsInfo } from ${JSON.stringify(join(root, "lib/index.ts"))};
import { spxChain, spotLevels } from ${JSON.stringify(join(root, "bench/_spx-chain.ts"))};

async function main() {
  const before = kernelsInfo().wasmInstantiated;
  const engine = await loadKernels();
  const chain = spxChain(${SEED});
  const p = { spot: chain.spot, rate: chain.rate, dividendYield: chain.dividendYield, nStrikes: chain.nStrikes, nExp: chain.nExp };
  const r = engine.exposure(chain, p);
  const spots = spotLevels(chain.spot, 21, 0.1);
  const gammaProfile = engine.profile(chain, p, spots, "gamma");
  const vannaProfile = engine.profile(chain, p, spots, "vanna");
  const iv = engine.impliedVols({
    prices: Float64Array.of(4.759422392871536, 1e-100), spot: 42, rate: 0.1, dividendYield: 0,
    strike: Float64Array.of(40, 200), tYears: Float64Array.of(0.5, 0.25), right: Uint8Array.of(1, 1),
  });
  let syncName = "";
  try { syncName = loadKernelsSync().name; } catch (e) { syncName = "threw: " + e.message; }
  return {
    before, engine: engine.name, syncName, hasBuffer: typeof Buffer !== "undefined",
    contributing: r.contributing, gammaTotal: r.gammaTotal, vannaTotal: r.vannaTotal,
    gammaGrid: Array.from(r.gammaGrid), vannaGrid: Array.from(r.vannaGrid),
    gammaByStrike: Array.from(r.gammaByStrike), vannaByStrike: Array.from(r.vannaByStrike),
    gammaProfile: Array.from(gammaProfile), vannaProfile: Array.from(vannaProfile),
    vols: Array.from(iv.vols), failures: iv.failures,
  };
}
window.__result = main().catch((e) => ({ error: String(e && e.stack || e) }));
`;

describe("kernels in headless Chromium", () => {
  let served: ServedBundle | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    served = await bundleAndServe(ENTRY, "optionscope kernels");
    browser = await sharedChromium(); // the worker's, kept open for its next file
  }, 120_000);

  afterAll(async () => {
    await served?.close();
  });

  it("runs the WASM engine on a generated chain and matches the Node JS engine", async () => {
    const { result: got, pageErrors, netCalls } = await runPage<Record<string, unknown>>(browser!, served!.url);
    expect(pageErrors).toEqual([]);
    expect(got.error).toBeUndefined();
    // The page fetched only the page and the bundle: the .wasm travels inside the bundle.
    expect(served!.requests.filter((r) => r !== "/favicon.ico")).toEqual(["/", "/bundle.js"]);
    expect(netCalls).toEqual([]);
    expect(got.hasBuffer).toBe(false);
    expect(got.before).toBe(false);
    expect(got.engine).toBe("wasm");

    const chain = spxChain(SEED);
    const p = { spot: chain.spot, rate: chain.rate, dividendYield: chain.dividendYield, nStrikes: chain.nStrikes, nExp: chain.nExp };
    const js = jsKernels.exposure(chain, p);
    const num = (k: string) => got[k] as number[];
    expect(got.contributing).toBe(js.contributing);
    expect(maxRelError(num("gammaGrid"), js.gammaGrid)).toBeLessThanOrEqual(1e-12);
    expect(maxRelError(num("vannaGrid"), js.vannaGrid)).toBeLessThanOrEqual(1e-12);
    expect(maxRelError(num("gammaByStrike"), js.gammaByStrike, maxAbs(js.gammaGrid))).toBeLessThanOrEqual(1e-12);
    expect(maxRelError(num("vannaByStrike"), js.vannaByStrike, maxAbs(js.vannaGrid))).toBeLessThanOrEqual(1e-12);
    expect(relError(got.gammaTotal as number, js.gammaTotal, maxAbs(js.gammaGrid))).toBeLessThanOrEqual(1e-12);
    expect(relError(got.vannaTotal as number, js.vannaTotal, maxAbs(js.vannaGrid))).toBeLessThanOrEqual(1e-12);
    const spots = spotLevels(chain.spot, 21, 0.1);
    expect(maxRelError(num("gammaProfile"), jsKernels.profile(chain, p, spots, "gamma"))).toBeLessThanOrEqual(1e-12);
    expect(maxRelError(num("vannaProfile"), jsKernels.profile(chain, p, spots, "vanna"))).toBeLessThanOrEqual(1e-12);
    // Hull Example 15.6: a 20% vol call worth 4.76; and a far-OTM price of 1e-100 still has a vol.
    expect(num("vols")[0]).toBeCloseTo(0.2, 12);
    expect(num("vols")[1]).toBeGreaterThan(0);
    expect(got.failures).toBe(0);
  }, 60_000);
});
