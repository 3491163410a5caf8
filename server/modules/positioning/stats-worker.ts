/**
 * Worker thread of the daily-statistics pool: replays symbol-sessions of the simulated market
 * (same seed as the app's) and posts their statistics back. Each worker keeps one market, so the
 * simulator's per-session memo (boards, paths) is reused across tasks.
 * See docs/operations.md#daily-statistics-performance.
 */
import { parentPort, workerData } from "node:worker_threads";
import { loadKernelsSync, type KernelEngineName } from "../../../lib/kernels";
import { createSimulatedMarket } from "../../../lib/market";
import { replayStatsSession, type StatsSessionTask } from "./stats-replay";

/** What the pool passes at start. */
export interface StatsWorkerInit {
  seed: number;
  engine: KernelEngineName;
}

/** A request to the worker and its answer. */
export type StatsWorkerRequest = { id: number; task: StatsSessionTask };
export type StatsWorkerReply = { id: number; ok: true; stat: unknown } | { id: number; ok: false; message: string };

const init = workerData as StatsWorkerInit;
// The clock only caps "now"; every replayed minute is at or before the task's nowMs.
let nowMs = 0;
const market = createSimulatedMarket({ seed: init.seed, clock: { now: () => nowMs } });
const engine = loadKernelsSync({ engine: init.engine });

parentPort!.on("message", async ({ id, task }: StatsWorkerRequest) => {
  try {
    nowMs = task.nowMs;
    const stat = await replayStatsSession(market, engine, task);
    parentPort!.postMessage({ id, ok: true, stat } satisfies StatsWorkerReply);
  } catch (error) {
    parentPort!.postMessage({ id, ok: false, message: String((error as Error)?.message ?? error) } satisfies StatsWorkerReply);
  }
});
