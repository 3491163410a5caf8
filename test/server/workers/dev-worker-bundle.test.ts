// A worker entry bundled for a checkout: built once, reused while its inputs are unchanged,
// rebuilt when one changes, and null (the caller falls back to tsx) when it cannot be built.
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import { devWorkerBundle } from "../../../server/workers/dev-worker-bundle";

const dir = mkdtempSync(join(tmpdir(), "optionscope-worker-bundle-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cache = join(dir, "cache");

describe("devWorkerBundle", () => {
  it("bundles an entry and its imports into one module a worker runs; reuses it until an input changes", async () => {
    const entry = join(dir, "entry.ts");
    const helper = join(dir, "helper.ts");
    writeFileSync(helper, "export const twice = (n: number): number => 2 * n;\n");
    writeFileSync(
      entry,
      'import { parentPort, workerData } from "node:worker_threads";\nimport { twice } from "./helper";\nparentPort!.postMessage(twice(workerData as number));\n',
    );
    const out = devWorkerBundle(entry, cache)!;
    expect(out).toMatch(/entry-[0-9a-f]{12}\.mjs$/);
    const w = new Worker(out, { workerData: 21 });
    expect(await new Promise((resolve, reject) => w.once("message", resolve).once("error", reject))).toBe(42);
    await w.terminate();

    const builtAt = statSync(out).mtimeMs;
    expect(devWorkerBundle(entry, cache)).toBe(out);
    expect(statSync(out).mtimeMs).toBe(builtAt);

    // A changed import (size or mtime) builds again.
    writeFileSync(helper, "export const twice = (n: number): number => 3 * n;\n");
    utimesSync(helper, new Date(), new Date(Date.now() + 5_000));
    expect(devWorkerBundle(entry, cache)).toBe(out);
    expect(readFileSync(out, "utf8")).toContain("3 * n");
  });

  it("is null when the entry cannot be built", () => {
    expect(devWorkerBundle(join(dir, "missing.ts"), cache)).toBeNull();
    const broken = join(dir, "broken.ts");
    writeFileSync(broken, "export const = ;\n");
    expect(devWorkerBundle(broken, cache)).toBeNull();
  });
});
