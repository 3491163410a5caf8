/**
 * Worker thread of the daily-statistics pool: replays symbol-sessions of the simulated market
 * (same seed as the app's) and posts their statistics back; computes board shapes (expiry
 * buckets, spot curves) of the same market at the task's instant. Each worker keeps one market, so the
 * simulator's per-session memo (boards, paths) is reused across tasks.
 * See docs/operations.md#daily-statistics-performance.
 */
// First: a worker process takes its priority before its other modules load (host-port.ts).
import { hostData, hostPort } from "../../workers/host-port";
import { loadKernelsSync, type KernelEngineName } from "../../../lib/kernels";
import { createSimulatedMarket } from "../../../lib/market";
import { servePoolTasks } from "../../workers/worker-pool";
import { computeBoardShape, type BoardShapeTask } from "./board-shapes";
import { replayStatsSession, type StatsSessionTask } from "./stats-replay";

/** What the pool passes at start. */
export interface StatsWorkerInit {
  seed: number;
  engine: KernelEngineName;
}

const init = hostData<StatsWorkerInit>();
// The clock only caps "now"; every replayed minute is at or before the task's nowMs.
let nowMs = 0;
const market = createSimulatedMarket({ seed: init.seed, clock: { now: () => nowMs } });
const engine = loadKernelsSync({ engine: init.engine });

servePoolTasks(hostPort(), async (task: StatsSessionTask | BoardShapeTask) => {
  nowMs = task.nowMs;
  // Board shapes carry a `kind`; statistics sessions do not.
  return "kind" in task ? computeBoardShape(market, engine, task) : replayStatsSession(market, engine, task);
});
