/**
 * A worker pool's queue and load as metric families (label `pool`): workers running, tasks
 * queued and running, utilisation and tasks completed. Any pool with `stats()` registers them.
 * See docs/operations.md#metrics.
 */
import type { WorkerPoolStats } from "../workers/worker-pool";
import type { MetricCollector, MetricFamily } from "./registry";

/**
 * The families of the pools `read` returns now (none for a pool not started: null).
 * @example registry.register(workerPoolCollector(() => [pool.stats()]));
 */
export function workerPoolCollector(read: () => readonly (WorkerPoolStats | null)[]): MetricCollector {
  return () => {
    const pools = read().filter((s): s is WorkerPoolStats => s !== null);
    const fam = (name: string, help: string, value: (s: WorkerPoolStats) => number, type: "gauge" | "counter" = "gauge"): MetricFamily => ({
      name,
      help,
      type,
      samples: pools.map((s) => ({ labels: { pool: s.name }, value: value(s) })),
    });
    return [
      fam("optionscope_worker_pool_workers", "Worker threads running in the pool.", (s) => s.workers),
      fam("optionscope_worker_pool_queued", "Tasks waiting for a worker.", (s) => s.queued),
      fam("optionscope_worker_pool_running", "Tasks sent to a worker and not answered yet.", (s) => s.running),
      // Tasks go to the least-loaded worker first, so while running <= workers it counts busy workers.
      fam("optionscope_worker_pool_utilization", "Share of the pool's workers with a task (running / workers, at most 1; 0 without workers).", (s) =>
        s.workers > 0 ? Math.min(1, s.running / s.workers) : 0,
      ),
      fam("optionscope_worker_pool_tasks_completed_total", "Tasks answered since start.", (s) => s.completed, "counter"),
    ];
  };
}
