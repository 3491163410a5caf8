// A worker entry bundled for a checkout: built in the background on first ask (null meanwhile:
// the caller uses tsx), then reused while its inputs are unchanged, built again when one changes;
// a build that fails leaves the caller on tsx.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import { devWorkerBundle } from "../../../server/workers/dev-worker-bundle";
import { buildBundle, bundlePaths } from "../../../server/workers/source-bundle.mjs";

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

  it("each bundled module keeps its own import.meta.url, so paths relative to it resolve as from source", async () => {
    const sub = join(dir, "sub");
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, "where.ts"), 'export const here = new URL("./data.txt", import.meta.url).href;\n');
    const entry = join(dir, "where-entry.ts");
    writeFileSync(entry, 'import { parentPort } from "node:worker_threads";\nimport { here } from "./sub/where";\nparentPort!.postMessage([here, import.meta.url]);\n');
    const out = await buildBundle(entry, cache);
    expect(out).not.toBeNull();
    const w = new Worker(out!);
    const [here, own] = (await new Promise((resolve, reject) => w.once("message", resolve).once("error", reject))) as string[];
    await w.terminate();
    expect(here).toBe(pathToFileURL(join(sub, "data.txt")).href);
    expect(own).toBe(pathToFileURL(entry).href);
  });

  it("a build that fails writes nothing and reports it", async () => {
    const broken = join(dir, "broken.ts");
    writeFileSync(broken, "export const = ;\n");
    const { out } = bundlePaths(broken, cache);
    expect(await buildBundle(broken, cache)).toBeNull();
    expect(existsSync(out)).toBe(false);
    expect(devWorkerBundle(broken, cache)).toBeNull();
    expect(await buildBundle(join(dir, "missing.ts"), cache)).toBeNull();
  });
});
