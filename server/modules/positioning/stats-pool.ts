/**
 * A small pool of worker threads for daily statistics over the simulated market: a cold
 * 400-session request is ~156,000 one-minute grids, so it spreads across the machine's cores
 * and leaves the event loop free for other requests. When workers cannot start (a bundle without
 * the worker module, no `tsx` for TypeScript sources) `run` rejects with `StatsPoolUnavailable`
 * and the caller replays in its own thread. See docs/operations.md#daily-statistics-performance.
 */
import { availableParallelism } from "node:os";
import { spawnSiblingWorker } from "../../spawn-sibling-worker";
import { createWorkerPool, WorkerPoolUnavailable, type WorkerPool } from "../../workers/worker-pool";
import type { DailyStat } from "../../../lib/positioning";
import type { BoardShapeResult, BoardShapeTask } from "./board-shapes";
import type { StatsSessionTask } from "./stats-replay";
import type { StatsWorkerInit } from "./stats-worker";
import { WORKER_PROCESS_NICE } from "../../daily-store/priority";

/** The pool could not run the task (no workers); replay in-process instead. */
export const StatsPoolUnavailable = WorkerPoolUnavailable;

/**
 * Replays one session per task in a worker; queued tasks are served round-robin across tenants
 * (accounts), so one account's large request cannot starve another's small one. The same workers
 * compute board shapes (expiry buckets, spot curves: `board-shapes.ts`).
 */
export interface StatsPool extends Omit<WorkerPool<StatsSessionTask | BoardShapeTask, unknown>, "run"> {
  run(task: StatsSessionTask, signal?: AbortSignal, tenant?: string): Promise<DailyStat | null>;
  run(task: BoardShapeTask, signal?: AbortSignal, tenant?: string): Promise<BoardShapeResult>;
}

/**
 * Create a pool of `size` workers (default: the cores available, at most 4) over the simulated
 * market of `init.seed`, computing with the kernel engine `init.engine`.
 * @example const pool = createStatsPool({ seed: 42, engine: "wasm" }); const stat = await pool.run(task);
 */
export function createStatsPool(init: StatsWorkerInit, size = Math.min(4, Math.max(1, availableParallelism()))): StatsPool {
  return createWorkerPool<StatsSessionTask | BoardShapeTask, unknown>({
    name: "stats",
    size,
    spawn: () =>
      spawnSiblingWorker(import.meta.url, { source: "./stats-worker.ts", built: "./stats-worker.js" }, init, { nice: WORKER_PROCESS_NICE, isolation: "process" }),
  }) as StatsPool; // one task union in, the overloads say which result each kind answers
}
