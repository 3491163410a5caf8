/**
 * The compute pool: worker threads that build the request path's cold per-(symbol, session) rows,
 * the flow session summary and the volatility closing reading (tens of ms to seconds each, and a
 * year of them per history request), so the event loop only routes, checks, charges and awaits.
 * `serve` starts one (`--compute-workers`); an app without one computes in its own thread, as do
 * callers when the workers cannot start. See docs/architecture.md#worker-pools.
 */
import { availableParallelism } from "node:os";
import type { ChainOptions, ContractRef, IsoDate, MinuteBarsOptions } from "../../lib/market/market-data";
import { spawnSiblingWorker, type SiblingWorkerOptions } from "../spawn-sibling-worker";
import { createWorkerPool, WorkerPoolUnavailable, type WorkerPool, type WorkerPoolStats } from "../workers/worker-pool";
import type { MarketSource } from "./fingerprint";
import type { RvolQuery, RvolTarget } from "../modules/flow/underlyings/rvol";
import type { LevelsWindow } from "../modules/flow/dark-pool/dark-pool-levels";
import type { CONTRACT_VOLUME, FLOW_SUMMARY, VOL_READING } from "./kinds";
import { WORKER_PROCESS_NICE } from "./priority";

/** What a compute worker is started with. */
export interface ComputeWorkerInit {
  source: MarketSource;
}

/** A flow RVOL answer (`/v1/underlying/{ticker}/rvol`, `/v1/contract/{symbol}/rvol`): a year and more of raw prints. */
export const FLOW_RVOL = "flow-rvol";

/**
 * A finished session's flow summary with the store's encoded bodies of it and of its contract
 * volumes (`StoredSummary`): the worker encodes, so the loop writes bytes instead of column-encoding
 * an SPXW summary (1.7 MB of rows) itself.
 */
export const FLOW_SUMMARY_STORED = "flow-summary-stored";

/** A ticker's premium norm for a session (`premiumNormFor`: the prior session's whole tape for one number). */
export const FLOW_NORM = "flow-norm";

/** A simulated board (`MarketData.chain`): pooled-chains.ts. */
export const SIM_CHAIN = "sim-chain";

/** Bid and ask of a few contracts on every board of a session so far (`MarketData.contractMinuteQuotes`: premium lows): pooled-chains.ts. */
export const SIM_MINUTE_QUOTES = "sim-minute-quotes";

/** A slice of a simulated ticker's option prints (`MarketData.optionPrints`): pooled-chains.ts. */
export const SIM_PRINTS = "sim-prints";

/** A simulated ticker's minute bars over a span (`MarketData.minuteBars`: tens of ms of path per day): pooled-chains.ts. */
export const SIM_MINUTE_BARS = "sim-minute-bars";

/** A slice of simulated off-exchange prints (`MarketData.offExchangePrints`): pooled-chains.ts. */
export const SIM_OFF_EXCHANGE = "sim-off-exchange";

/** A ticker's dark-pool levels over a window (`/v1/dark-pool/levels`: a month of prints in, the levels out): dark-pool-levels.ts. */
export const DARK_POOL_LEVELS = "dark-pool-levels";

/** A symbol's open interest estimated from its session tape (`oi=flow`): positioning/flow-oi.ts. */
export const FLOW_OI = "flow-oi";

/**
 * One piece of cold work at the request's market instant: a daily row (its kind, symbol and
 * session), a whole RVOL answer (its resolved target and validated query), or a simulated board.
 */
/**
 * Stored flow summaries' bodies decoded for one column, each one's `premiumByMinute` (null: the
 * body does not decode): the overview's baseline reads a number from summaries that are megabytes
 * of rows each (server/modules/flow/market/market-overview.ts).
 */
export const SUMMARY_PREMIUMS = "summary-premiums";

export type ComputeTask =
  | { kind: typeof FLOW_SUMMARY | typeof VOL_READING | typeof CONTRACT_VOLUME | typeof FLOW_SUMMARY_STORED; symbol: string; session: IsoDate; nowMs: number }
  | { kind: typeof FLOW_RVOL; target: RvolTarget; query: RvolQuery; nowMs: number }
  | { kind: typeof FLOW_NORM; ticker: string; session: IsoDate; nowMs: number }
  | { kind: typeof SIM_CHAIN; symbol: string; atMs: number; options: ChainOptions; nowMs: number }
  | { kind: typeof SIM_PRINTS; ticker: string; fromMs: number; toMs: number; nowMs: number }
  | { kind: typeof SIM_MINUTE_BARS; ticker: string; fromMs: number; toMs: number; options: MinuteBarsOptions; nowMs: number }
  | { kind: typeof SIM_MINUTE_QUOTES; symbol: string; contracts: readonly ContractRef[]; fromMs: number; toMs: number; nowMs: number }
  | { kind: typeof SIM_OFF_EXCHANGE; tickers: readonly string[] | null; fromMs: number; toMs: number; nowMs: number }
  | { kind: typeof FLOW_OI; symbol: string; session: IsoDate; uptoMs: number; nowMs: number }
  | { kind: typeof SUMMARY_PREMIUMS; symbol: "*"; session: IsoDate; bodies: readonly Uint8Array[]; nowMs: number }
  | ({ kind: typeof DARK_POOL_LEVELS; nowMs: number } & LevelsWindow);

/** The pool as the modules see it (`services.computePool`). */
export interface ComputePool {
  /**
   * The task's value, computed in a worker; rejects with `WorkerPoolUnavailable` when there are
   * none, and with `signal`'s reason when it aborts before the task starts.
   */
  run<T>(task: ComputeTask, signal?: AbortSignal): Promise<T>;
  /** Start the workers now (they load the market and their modules before the first task). */
  prestart(): void;
  stats(): WorkerPoolStats;
  close(): Promise<void>;
}

/** Default worker count: the cores less the one the event loop needs, at least 1, at most 4. */
export const DEFAULT_COMPUTE_WORKERS = Math.min(4, Math.max(1, availableParallelism() - 1));

/**
 * Start `size` compute workers over the market of `source` (they load on the first task, or on
 * `prestart`); `name` labels the pool in errors and metrics (`serve` runs "compute" and "boards"),
 * `nice` is its threads' priority (the fill's own pool runs at FILL_NICE).
 * @example const pool = createComputePool({ source: { kind: "simulated", seed: 42 } }); await pool.run({ kind: "vol-reading", symbol: "SPY", session: "2025-06-12", nowMs });
 */
export function createComputePool(
  init: ComputeWorkerInit,
  size = DEFAULT_COMPUTE_WORKERS,
  name = "compute",
  nice = WORKER_PROCESS_NICE,
  isolation: SiblingWorkerOptions["isolation"] = "process",
): ComputePool {
  const pool: WorkerPool<ComputeTask, unknown> = createWorkerPool({
    name,
    size,
    // One task at a time per worker: a task sets the worker's market clock to its own instant.
    pipelineDepth: 1,
    spawn: () => spawnSiblingWorker(import.meta.url, { source: "./compute-worker.ts", built: "./compute-worker.js" }, init, { nice, isolation }),
  });
  return {
    // Tasks are queued round-robin by symbol: one symbol's year of sessions does not hold back
    // another symbol's first row.
    run: <T>(task: ComputeTask, signal?: AbortSignal) => pool.run(task, signal, tenantOf(task)) as Promise<T>,
    prestart: () => pool.prestart(),
    stats: () => pool.stats(),
    close: () => pool.close(),
  };
}

/** The queue a task waits in (round-robin across them): its symbol or ticker. */
function tenantOf(task: ComputeTask): string {
  if ("symbol" in task) return task.symbol;
  if ("ticker" in task) return task.ticker;
  if ("tickers" in task) return task.tickers?.join(",") ?? "*";
  return task.target.ticker;
}

/**
 * `task` in the pool when there is one that works, else `inline()` in this thread.
 * @example const reading = await computeOffLoop(services.computePool, task, () => sessionCloseReading(market, s, d));
 */
export async function computeOffLoop<T>(pool: ComputePool | undefined, task: ComputeTask, inline: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!pool) return inline();
  try {
    return await pool.run<T>(task, signal);
  } catch (error) {
    if (error instanceof WorkerPoolUnavailable) return inline();
    throw error;
  }
}
