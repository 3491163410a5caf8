// A closed pool abandons its work: queued and running tasks reject with WorkerPoolClosed (answered
// 503 unavailable), and computeOffLoop does not compute them in this thread instead (a stopping
// server used to run every queued task on its loop, holding its exit for many seconds).
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { computeOffLoop, type ComputePool } from "../../../server/daily-store/compute-pool";
import { toApiError } from "../../../server/errors";
import { createWorkerPool, WorkerPoolClosed, WorkerPoolUnavailable } from "../../../server/workers/worker-pool";

/** A worker that takes tasks and never answers: they stay running until the pool closes. */
const silentWorker = () => new Worker("require('node:worker_threads').parentPort.on('message', () => {});", { eval: true });

describe("a closed worker pool", () => {
  it("rejects running, queued and later tasks with WorkerPoolClosed, mapped to 503 unavailable with Retry-After", async () => {
    const pool = createWorkerPool<number, number>({ name: "test", spawn: silentWorker, size: 1, pipelineDepth: 1 });
    const running = pool.run(1);
    const queued = pool.run(2);
    const settled = Promise.allSettled([running, queued]);
    await pool.close();
    for (const r of await settled) {
      expect(r.status).toBe("rejected");
      const reason = (r as PromiseRejectedResult).reason;
      expect(reason).toBeInstanceOf(WorkerPoolClosed);
      expect(reason).not.toBeInstanceOf(WorkerPoolUnavailable);
    }
    await expect(pool.run(3)).rejects.toBeInstanceOf(WorkerPoolClosed);
    const api = toApiError(new WorkerPoolClosed("test"));
    expect([api.status, api.code]).toEqual([503, "unavailable"]);
    expect(api.headers?.["Retry-After"]).toBe("5");
  });

  it("is not computed in this thread by computeOffLoop (an unavailable pool is)", async () => {
    const pool = createWorkerPool<unknown, unknown>({ name: "compute", spawn: silentWorker, size: 1, pipelineDepth: 1 });
    const computePool = { run: (t: unknown) => pool.run(t), prestart: () => {}, stats: () => pool.stats(), close: () => pool.close() } as unknown as ComputePool;
    let inline = 0;
    const task = { kind: "vol-reading", symbol: "KO", session: "2024-03-05", nowMs: 0 } as const;
    const pending = expect(computeOffLoop(computePool, task, async () => ++inline)).rejects.toBeInstanceOf(WorkerPoolClosed);
    await pool.close();
    await pending;
    await expect(computeOffLoop(computePool, task, async () => ++inline)).rejects.toBeInstanceOf(WorkerPoolClosed);
    expect(inline).toBe(0);
    const broken = { ...computePool, run: () => Promise.reject(new WorkerPoolUnavailable("none")) } as ComputePool;
    expect(await computeOffLoop(broken, task, async () => ++inline)).toBe(1);
  });
});
