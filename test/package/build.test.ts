import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, inject, it } from "vitest";

// The public surface is guarded (STYLE 11): the export names are a reviewed list, and the
// published build (ESM + CJS + .d.ts) exposes exactly them without instantiating anything.
const root = join(__dirname, "..", "..");
const snapshotPath = join(__dirname, "exports.snapshot.json");
const expected: string[] = JSON.parse(readFileSync(snapshotPath, "utf8"));

describe("public surface", () => {
  it("lib/index.ts exports exactly the reviewed names (update exports.snapshot.json on purpose)", async () => {
    const lib = await import("../../lib/index");
    expect(Object.keys(lib).sort()).toEqual(expected);
  });
});

describe("npm run build output", () => {
  // Built once per run by the integration layer's global setup (test/package/_build-once.ts).
  const { outDir, statusFile } = inject("packageBuild");

  beforeAll(async () => {
    while (!existsSync(statusFile)) await new Promise((r) => setTimeout(r, 200));
    const { code, log } = JSON.parse(readFileSync(statusFile, "utf8"));
    if (code !== 0) throw new Error(`tsup exited with ${code}:\n${log}`);
  }, 600_000);

  it("has ESM, CJS and declaration files for both entry points (the library per module in lib/)", () => {
    for (const name of ["lib/index", "lib/kernels/index", "server"]) {
      for (const ext of [".js", ".cjs", ".d.ts", ".d.cts"]) expect(existsSync(join(outDir, name + ext)), name + ext).toBe(true);
    }
  });

  it("the ESM build exports the reviewed names and instantiates no WebAssembly at import", async () => {
    const esm = await import(pathToFileURL(join(outDir, "lib", "index.js")).href);
    expect(Object.keys(esm).sort()).toEqual(expected);
    expect(esm.kernelsInfo().wasmInstantiated).toBe(false);
    const engine = await esm.loadKernels();
    expect(engine.name).toBe("wasm");
  });

  it("the CJS build exports the same names", () => {
    const cjs = createRequire(import.meta.url)(join(outDir, "lib", "index.cjs"));
    expect(
      Object.keys(cjs)
        .filter((k) => k !== "__esModule")
        .sort(),
    ).toEqual(expected);
  });

  it("the server entry exports the app factory", async () => {
    const server = await import(pathToFileURL(join(outDir, "server.js")).href);
    expect(typeof server.createApp).toBe("function");
    // The real-data seam (docs/data.md#live-feeds): a live market, a feed, the recorder, replay of the store, the Cboe importer.
    for (const name of ["createLiveMarket", "createMassiveFeed", "recordFeed", "openRecordedMarket", "startRecording", "importCboeQuotes"]) {
      expect(typeof server[name], name).toBe("function");
    }
  });

  it("package.json exports map points at files the build makes", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    const entries = Object.entries(pkg.exports).filter(([k]) => k !== "./package.json");
    expect(entries.map(([k]) => k)).toEqual(expect.arrayContaining([".", "./server", "./kernels", "./positioning", "./client"]));
    const targets = entries.flatMap(([, e]: [string, any]) => [e.import.default, e.import.types, e.require.default, e.require.types]);
    for (const t of targets) expect(existsSync(join(outDir, t.replace("./dist/", ""))), t).toBe(true);
    // Node's few-file ESM build (scripts/build-lib.mjs), one per library entry.
    const library = entries.filter(([, e]: [string, any]) => e.import.default.startsWith("./dist/lib/"));
    for (const [k, e] of library as [string, any][]) expect(existsSync(join(outDir, String(e.import.node).replace("./dist/", ""))), `${k}: ${e.import.node}`).toBe(true);
  });
});
