/**
 * A small pool of worker threads for daily statistics over the simulated market: a cold
 * 400-session request is ~156,000 one-minute grids, so it spreads across the machine's cores
 * and leaves the event loop free for other requests. When workers cannot start (a bundle without
 * the worker module, no `tsx` for TypeScript sources) `run` rejects with `StatsPoolUnavailable`
 * and the caller replays in its own thread. See docs/operations.md#daily-statistics-performance.
 */
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { spawnSiblingWorker } from "../../spawn-sibling-worker";
import { FairQueue } from "../../limits/fair-queue";
import type { DailyStat } from "../../../lib/positioning";
import type { StatsSessionTask } from "./stats-replay";
import type { StatsWorkerInit, StatsWorkerReply } from "./stats-worker";

/** The pool could not run the task (no workers); replay in-process instead. */
export class StatsPoolUnavailable extends Error {}

export interface StatsPool {
  /**
   * Replay one session in a worker. `signal` aborted before it starts: rejects with its reason.
   * Queued tasks are served round-robin across `tenant`s (accounts), so one account's large
   * request cannot starve another's small one.
   */
  run(task: StatsSessionTask, signal?: AbortSignal, tenant?: string): Promise<DailyStat | null>;
  /** Workers in the pool (0 once it failed). */
  readonly size: number;
  close(): Promise<void>;
}

interface Job {
  task: StatsSessionTask;
  signal?: AbortSignal;
  resolve: (s: DailyStat | null) => void;
  reject: (e: unknown) => void;
}

interface Slot {
  worker: Worker;
  inFlight: Map<number, Job>;
}

/** Tasks sent to one worker ahead of its current one (hides the message round trip). */
const PIPELINE_DEPTH = 2;

/** The stats worker beside this file (sources) or in dist/ (build). */
const spawnWorker = (init: StatsWorkerInit) => spawnSiblingWorker(import.meta.url, { source: "./stats-worker.ts", built: "./stats-worker.js" }, init);

/**
 * Create a pool of `size` workers (default: the cores available, at most 4) over the simulated
 * market of `init.seed`, computing with the kernel engine `init.engine`.
 * @example const pool = createStatsPool({ seed: 42, engine: "wasm" }); const stat = await pool.run(task);
 */
export function createStatsPool(init: StatsWorkerInit, size = Math.min(4, Math.max(1, availableParallelism()))): StatsPool {
  const queue = new FairQueue<Job>();
  let slots: Slot[] = [];
  let broken = false;
  let nextId = 1;

  const fail = (error: unknown) => {
    broken = true;
    const dead = slots;
    slots = [];
    for (const s of dead) {
      for (const job of s.inFlight.values()) job.reject(new StatsPoolUnavailable(String((error as Error)?.message ?? error)));
      void s.worker.terminate();
    }
    for (const job of queue.drain()) job.reject(new StatsPoolUnavailable("stats workers unavailable"));
  };

  const pump = () => {
    for (;;) {
      if (queue.size === 0 || broken) return;
      const slot = slots.reduce<Slot | null>((best, s) => (s.inFlight.size < PIPELINE_DEPTH && (!best || s.inFlight.size < best.inFlight.size) ? s : best), null);
      if (!slot) return;
      const job = queue.shift()!;
      if (job.signal?.aborted) {
        job.reject(job.signal.reason);
        continue;
      }
      const id = nextId++;
      slot.inFlight.set(id, job);
      slot.worker.postMessage({ id, task: job.task });
    }
  };

  const start = () => {
    if (slots.length > 0 || broken) return;
    for (let i = 0; i < size; i++) {
      let worker: Worker;
      try {
        worker = spawnWorker(init);
      } catch (error) {
        fail(error);
        return;
      }
      const slot: Slot = { worker, inFlight: new Map() };
      worker.unref(); // an idle pool never keeps the process alive
      worker.on("message", (m: StatsWorkerReply) => {
        const job = slot.inFlight.get(m.id);
        if (!job) return;
        slot.inFlight.delete(m.id);
        if (m.ok) job.resolve(m.stat as DailyStat | null);
        else job.reject(new Error(m.message));
        pump();
      });
      worker.on("error", fail);
      worker.on("exit", (code) => {
        if (!broken && slots.includes(slot)) fail(new Error(`stats worker exited with code ${code}`));
      });
      slots.push(slot);
    }
  };

  return {
    run(task, signal, tenant = "") {
      if (broken) return Promise.reject(new StatsPoolUnavailable("stats workers unavailable"));
      start();
      return new Promise<DailyStat | null>((resolve, reject) => {
        queue.push(tenant, { task, signal, resolve, reject });
        pump();
      });
    },
    get size() {
      return broken ? 0 : size;
    },
    async close() {
      broken = true;
      const dead = slots;
      slots = [];
      for (const s of dead) for (const job of s.inFlight.values()) job.reject(new StatsPoolUnavailable("stats pool closed"));
      for (const job of queue.drain()) job.reject(new StatsPoolUnavailable("stats pool closed"));
      await Promise.all(dead.map((s) => s.worker.terminate()));
    },
  };
}
