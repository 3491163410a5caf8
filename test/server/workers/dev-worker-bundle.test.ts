// A worker entry bundled for a checkout: built in the background on first ask (null meanwhile:
// the caller uses tsx), then reused while its inputs are unchanged, built again when one changes;
// a build that fails leaves the caller on tsx.
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import { buildBundle, bundlePaths, devWorkerBundle } from "../../../server/workers/dev-worker-bundle";

const dir = mkdtempSync(join(tmpdir(), "optionscope-worker-bundle-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cache = join(dir, "cache");

/** `devWorkerBundle` until it answers a path (its background build finished). */
async function bundled(entry: string): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const out = devWorkerBundle(entry, cache);
    if (out) return out;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("no bundle");
}

describe("devWorkerBundle", () => {
  it("builds in the background, then answers one module a worker runs; builds again when an input changes", async () => {
    const entry = join(dir, "entry.ts");
    const helper = join(dir, "helper.ts");
    writeFileSync(helper, "export const twice = (n: number): number => 2 * n;\n");
    const source =
      'import { parentPort, workerData } from "node:worker_threads";\nimport { twice } from "./helper";\nparentPort!.postMessage(twice(workerData as number));\n';
    writeFileSync(entry, source);
    expect(devWorkerBundle(entry, cache)).toBeNull(); // nothing built yet: tsx this time
    const out = await bundled(entry);
    expect(out).toBe(bundlePaths(entry, cache).out);
    const w = new Worker(out, { workerData: 21 });
    expect(await new Promise((resolve, reject) => w.once("message", resolve).once("error", reject))).toBe(42);
    await w.terminate();
    expect(devWorkerBundle(entry, cache)).toBe(out);

    // A changed import (size or mtime): null until the new build is there, then the new code.
    writeFileSync(helper, "export const twice = (n: number): number => 3 * n;\n");
    utimesSync(helper, new Date(), new Date(Date.now() + 5_000));
    expect(devWorkerBundle(entry, cache)).toBeNull();
    expect(await bundled(entry)).toBe(out);
    expect(readFileSync(out, "utf8")).toContain("3 * n");
  });

  it("a build that fails writes nothing and reports it", async () => {
    const broken = join(dir, "broken.ts");
    writeFileSync(broken, "export const = ;\n");
    const { out, stampsFile } = bundlePaths(broken, cache);
    expect(await buildBundle(broken, out, stampsFile)).toBe(false);
    expect(existsSync(out)).toBe(false);
    expect(devWorkerBundle(broken, cache)).toBeNull();
    expect(await buildBundle(join(dir, "missing.ts"), out, stampsFile)).toBe(false);
  });
});
