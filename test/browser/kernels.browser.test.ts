// The library bundled for the browser (esbuild, platform "browser") runs the WASM kernels in
// headless Chromium, with no fs and no fetch of the .wasm, and matches the Node JS engine.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsKernels } from "../../lib/kernels";
import { spotLevels, spxChain } from "../../bench/_spx-chain";
import { maxAbs, maxRelError, relError } from "../kernels/_helpers";

const root = resolve(__dirname, "../..");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
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
  let dir = "";
  let server: Server;
  let browser: Browser;
  let url = "";
  const requests: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "optionscope-browser-"));
    writeFileSync(join(dir, "entry.ts"), ENTRY);
    await build({
      entryPoints: [join(dir, "entry.ts")],
      bundle: true,
      platform: "browser",
      format: "esm",
      target: "es2022",
      outfile: join(dir, "bundle.js"),
      logLevel: "silent",
    });
    const bundle = (await import("node:fs")).readFileSync(join(dir, "bundle.js"));
    const html = `<!doctype html><meta charset="utf-8"><title>optionscope kernels</title><script type="module" src="/bundle.js"></script>`;
    server = createServer((req, res) => {
      requests.push(req.url ?? "");
      if (req.url === "/bundle.js") {
        res.writeHead(200, { "content-type": "text/javascript" }).end(bundle);
      } else if (req.url === "/") {
        res.writeHead(200, { "content-type": "text/html" }).end(html);
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((ok) => (server ? server.close(() => ok()) : ok()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("runs the WASM engine on a generated chain and matches the Node JS engine", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(url);
    const got = await page.evaluate(() => (window as unknown as { __result: Promise<Record<string, unknown>> }).__result);
    await page.close();
    expect(errors).toEqual([]);
    expect(got.error).toBeUndefined();
    // The page fetched only the page and the bundle: the .wasm travels inside the bundle.
    expect(requests.filter((r) => r !== "/favicon.ico")).toEqual(["/", "/bundle.js"]);
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
