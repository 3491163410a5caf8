import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type PackResult, waitForPackage } from "./_wait";

// Issue 32's sizes, measured on the packed library as a user installs it (the global setup packs
// and installs it once): install footprint, no source maps, declarations per module, browser
// bundle budgets (size-limit with esbuild, .size-limit.cjs), and the package linted by publint and
// arethetypeswrong. Times (cold import, first exposureGrid) live in bench/package.bench.ts.
// docs/methodology.md#package-budgets
const root = join(__dirname, "..", "..");
const bin = (name: string) => join(root, "node_modules", ".bin", name);

describe("the packed library", () => {
  let pack: PackResult;
  beforeAll(async () => {
    pack = (await waitForPackage()).pack;
  }, 600_000);

  it("installs into an empty project as <= 6 packages with no native build", () => {
    expect(pack.installed.packages).toBeLessThanOrEqual(6);
    expect(pack.installed.nativeBuilds).toEqual([]);
  });

  it("installs within the issue's 5 MB on disk", () => {
    expect(pack.installed.bytes).toBeLessThanOrEqual(5 * 1024 * 1024);
  });

  it("has no runtime dependency: zod is vendored with its licence, declarations included", () => {
    const manifest = JSON.parse(readFileSync(join(pack.stage, "package.json"), "utf8"));
    expect(manifest.dependencies).toBeUndefined();
    const vendor = join(pack.stage, "dist", "lib", "vendor");
    expect(readFileSync(join(vendor, "zod", "LICENSE"), "utf8")).toMatch(/^MIT License/);
    expect(readFileSync(join(vendor, "zod.js"), "utf8")).toMatch(/^\/\/ zod \d+\.\d+\.\d+ \(MIT licence: \.\/zod\/LICENSE\)/);
    // Every zod type our declarations name resolves inside the package (the consumer test type-checks without zod).
    const client = readFileSync(join(pack.stage, "dist", "lib", "client", "operation-schemas.generated.d.ts"), "utf8");
    expect(client).toMatch(/^import type \* as \$zod from "\.\.\/vendor\/zod\/index\.cjs";/);
    expect(client).not.toMatch(/["']zod(\/[^"']*)?["']/);
  });

  it("ships no source maps and one small declaration file per module", () => {
    expect(pack.packed.sourceMapBytes).toBe(0);
    // The largest is the client's schema table (the zod types of every route: operation-schemas.generated).
    expect(pack.packed.largestDts?.bytes ?? 0).toBeLessThanOrEqual(300_000);
    const index = readFileSync(join(pack.stage, "dist", "lib", "index.d.ts"), "utf8");
    expect(index.length).toBeLessThan(5_000);
    expect(index).toMatch(/from "\.\/kernels\/index\.js"/);
  });

  it("browser bundles stay within their size-limit budgets (esbuild, minified, gzip)", () => {
    const r = spawnSync(process.execPath, [join(root, "node_modules/size-limit/bin.js"), "--json"], {
      cwd: root,
      env: { ...process.env, SIZE_LIMIT_DIST: join(pack.consumer, "node_modules", "optionscope", "dist") },
      encoding: "utf8",
    });
    const results: { name: string; passed: boolean; size: number; sizeLimit: number }[] = JSON.parse(r.stdout);
    expect(results.length).toBe(4);
    for (const x of results) expect(x.size, `${x.name}: ${x.size} > ${x.sizeLimit} bytes`).toBeLessThanOrEqual(x.sizeLimit);
    expect(r.status).toBe(0);
  }, 180_000);

  it("publint finds nothing to fix in the package", () => {
    const out = execFileSync(bin("publint"), ["--strict", pack.stage], { encoding: "utf8" });
    expect(out).toMatch(/All good/);
  }, 120_000);

  it("arethetypeswrong: every entry resolves to the right types from ESM, CJS and bundlers", () => {
    // node16 profile: node10 (no `exports` support) cannot see subpaths by design.
    const r = spawnSync(bin("attw"), [pack.packed.tarball, "--profile", "node16", "--format", "ascii"], { encoding: "utf8" });
    expect(r.status, r.stdout + r.stderr).toBe(0);
  }, 180_000);
});
