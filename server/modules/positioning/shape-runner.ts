// Runs a board-shape task where the module's heavy work runs: a statistics-pool worker when the
// app has one (a simulated market with a seed), else this thread, after which the loop yields.
import type { ExpiryBuckets, SpotCurve } from "../../../lib/positioning";
import { computeBoardShape, shapeOrThrow, type BoardShapeResult, type BoardShapeTask } from "./board-shapes";
import { noData, type PositioningState } from "./service";
import { StatsPoolUnavailable } from "./stats-pool";

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

async function runTask(state: PositioningState, task: BoardShapeTask, signal: AbortSignal, tenant: string): Promise<BoardShapeResult> {
  const pool = state.statsPool();
  if (pool && pool.size > 0) {
    try {
      return await pool.run(task, signal, tenant);
    } catch (error) {
      if (!(error instanceof StatsPoolUnavailable)) throw error;
    }
  }
  const result = await computeBoardShape(state.services.market, state.services.kernels, task);
  await yieldToLoop();
  return result;
}

/**
 * One symbol's board shape; 404 `no_data` when it has no board, library errors mapped by the
 * error table (e.g. 404 `expiration_not_found`).
 * @example await boardShape(state, { kind: "curve", symbol: "SPY", nowMs, options: {} }, signal, accountId)
 */
export async function boardShape(state: PositioningState, task: BoardShapeTask & { kind: "buckets" }, signal: AbortSignal, tenant: string): Promise<ExpiryBuckets>;
export async function boardShape(state: PositioningState, task: BoardShapeTask & { kind: "curve" }, signal: AbortSignal, tenant: string): Promise<SpotCurve>;
export async function boardShape(state: PositioningState, task: BoardShapeTask, signal: AbortSignal, tenant: string): Promise<ExpiryBuckets | SpotCurve> {
  const shape = shapeOrThrow(await runTask(state, task, signal, tenant));
  if (!shape) throw noData(task.symbol, task.nowMs);
  return shape;
}
