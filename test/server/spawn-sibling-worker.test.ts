// spawnSiblingWorker: from a TypeScript caller, the worker module beside it is loaded (bundled by
// server/workers/dev-worker-bundle.ts)
// and gets the workerData, at the nice value asked for (this thread keeps its own); a missing
// module surfaces as the worker's error (callers fall back).
import { fork, spawn } from "node:child_process";
import { getPriority } from "node:os";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { spawnSiblingWorker } from "../../server/spawn-sibling-worker";
import { tsEntryArgs } from "../_helpers/ts-entry";

describe("spawnSiblingWorker", () => {
  it("runs the .ts sibling of the caller with the data given", async () => {
    const w = spawnSiblingWorker(import.meta.url, { source: "./spawn-sibling-worker.fixture.ts", built: "./never-built.js" }, { n: 21 });
    try {
      expect(
        await new Promise((resolve, reject) => {
          w.once("message", resolve);
          w.once("error", reject);
        }),
      ).toMatchObject({ echoed: 42, nice: getPriority(), pid: process.pid });
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
      ).toMatchObject({ echoed: 2, nice: 17 });
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

  it('isolation "process": the same module in a child process, its data cloned (Infinity, Maps), every thread at `nice`; terminate ends it', async () => {
    const w = spawnSiblingWorker(
      import.meta.url,
      { source: "./spawn-sibling-worker.fixture.ts", built: "./never-built.js" },
      { n: 4, big: Number.POSITIVE_INFINITY, map: new Map([["a", 1]]) },
      { nice: 13, isolation: "process" },
    );
    try {
      const first = await new Promise<{ echoed: number; pid: number; big: number; map: Map<string, number> }>((resolve, reject) => {
        w.once("message", resolve);
        w.once("error", reject);
      });
      expect(first).toMatchObject({ echoed: 8, big: Number.POSITIVE_INFINITY, map: new Map([["a", 1]]) });
      expect(first.pid).toBe(w.pid);
      expect(first.pid).not.toBe(process.pid);
      w.postMessage("threads?");
      const { nices } = await new Promise<{ nices: number[] }>((resolve) => w.once("message", resolve));
      expect(nices.length).toBeGreaterThan(1);
      expect(new Set(nices)).toEqual(new Set([13]));
      expect(getPriority()).toBe(0);
    } finally {
      const exited = new Promise((resolve) => w.once("exit", resolve));
      await w.terminate();
      await exited;
    }
    expect(() => process.kill(w.pid!, 0)).toThrow();
  });

  it("a worker process exits when its host does, even SIGKILLed", async () => {
    // A host process that starts a worker process, prints its pid, and is then killed.
    const host = spawn(process.execPath, [...(await tsEntryArgs(fileURLToPath(new URL("./spawn-sibling-host.fixture.ts", import.meta.url))))], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const workerPid = await new Promise<number>((resolve, reject) => {
      host.stdout!.once("data", (d: Buffer) => resolve(Number(d.toString().trim())));
      host.once("exit", (code) => reject(new Error(`host exited (${code})`)));
    });
    expect(() => process.kill(workerPid, 0)).not.toThrow();
    host.kill("SIGKILL");
    const end = Date.now() + 10_000;
    let alive = true;
    while (alive && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 50));
      try {
        process.kill(workerPid, 0);
      } catch {
        alive = false;
      }
    }
    expect(alive).toBe(false);
  });

  it("a process forked by anything else that imports the worker side is left alone (no exit on disconnect, no channel taken)", async () => {
    const child = fork(fileURLToPath(new URL("./host-port-bystander.fixture.ts", import.meta.url)), [], { execArgv: ["--import", "tsx"], serialization: "advanced" });
    const report = await new Promise((resolve, reject) => {
      child.once("message", resolve);
      child.once("exit", (code) => reject(new Error(`exited first (${code})`)));
    });
    expect(report).toEqual({ disconnectListeners: 0, refused: true });
    await new Promise((resolve) => child.once("exit", resolve));
  });
});
