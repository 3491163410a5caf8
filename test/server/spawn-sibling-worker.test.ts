// spawnSiblingWorker: from a TypeScript caller, the worker module beside it is loaded (bundled by
// server/workers/dev-worker-bundle.ts)
// and gets the workerData, at the nice value asked for (this thread keeps its own); a missing
// module surfaces as the worker's error (callers fall back).
import { getPriority } from "node:os";
import { describe, expect, it } from "vitest";
import { spawnSiblingWorker } from "../../server/spawn-sibling-worker";

describe("spawnSiblingWorker", () => {
  it("runs the .ts sibling of the caller with the data given", async () => {
    const w = spawnSiblingWorker(import.meta.url, { source: "./spawn-sibling-worker.fixture.ts", built: "./never-built.js" }, { n: 21 });
    try {
      expect(
        await new Promise((resolve, reject) => {
          w.once("message", resolve);
          w.once("error", reject);
        }),
      ).toEqual({ echoed: 42, nice: getPriority() });
    } finally {
      await w.terminate();
    }
  });

  it("with `nice`, the worker's module already runs at that priority; the caller's thread is unchanged", async () => {
    const before = getPriority();
    const w = spawnSiblingWorker(import.meta.url, { source: "./spawn-sibling-worker.fixture.ts", built: "./never-built.js" }, { n: 1 }, { nice: 17 });
    try {
      expect(
        await new Promise((resolve, reject) => {
          w.once("message", resolve);
          w.once("error", reject);
        }),
      ).toEqual({ echoed: 2, nice: 17 });
      expect(getPriority()).toBe(before);
    } finally {
      await w.terminate();
    }
  });

  it("a built (.js) caller resolves the built name beside it: a missing file is an error, not a hang", async () => {
    const caller = new URL("./no-such-dir/bundle.js", import.meta.url).href;
    let w: ReturnType<typeof spawnSiblingWorker> | null = null;
    const failure = await new Promise<unknown>((resolve) => {
      try {
        w = spawnSiblingWorker(caller, { source: "./x.ts", built: "./x-worker.js" }, {});
        w.once("error", resolve);
      } catch (error) {
        resolve(error);
      }
    });
    expect(String(failure)).toMatch(/no-such-dir\/x-worker\.js|Cannot find module/);
    await (w as ReturnType<typeof spawnSiblingWorker> | null)?.terminate();
  });
});
