/**
 * Worker thread of the daily-statistics pool: replays symbol-sessions of the simulated market
 * (same seed as the app's) and posts their statistics back. Each worker keeps one market, so the
 * simulator's per-session memo (boards, paths) is reused across tasks.
 * See docs/operations.md#daily-statistics-performance.
 */
import { parentPort, workerData } from "node:worker_threads";
import { loadKernelsSync, type KernelEngineName } from "../../../lib/kernels";
import { createSimulatedMarket } from "../../../lib/market";
import { servePoolTasks } from "../../workers/worker-pool";
import { replayStatsSession, type StatsSessionTask } from "./stats-replay";

/** What the pool passes at start. */
export interface StatsWorkerInit {
  seed: number;
  engine: KernelEngineName;
}

const init = workerData as StatsWorkerInit;
// The clock only caps "now"; every replayed minute is at or before the task's nowMs.
let nowMs = 0;
const market = createSimulatedMarket({ seed: init.seed, clock: { now: () => nowMs } });
const engine = loadKernelsSync({ engine: init.engine });

servePoolTasks(parentPort!, async (task: StatsSessionTask) => {
  nowMs = task.nowMs;
  return replayStatsSession(market, engine, task);
});
