// Worker process of the background fill: builds its own market from the server's source (the same
// seed or data folder), plans the missing rows and writes them to the store, most recent first.
// It runs at the lowest priority (nice 19, FILL_NICE: every thread of its process), so the loop
// and the request pools' workers win every contended core. Messages: in `{ type: "fill", nowMs }` (plan again at this instant), `abort` (end
// the current pass: the lease was lost) and `stop`; out `ready` (the scope, for the filler's
// survey), `progress` per kind and `idle` when a pass ends. See docs/operations.md#daily-store.
// First: a worker process takes its priority before its other modules load (host-port.ts).
import { hostData, hostPort } from "../workers/host-port";
import { createSimulatedMarket } from "../../lib/market";
import type { MarketData } from "../../lib/market/market-data";
import { loadFileMarket } from "../data";
import { dailyProducer, type DailyProducer } from "./compute";
import { computeOffLoop, createComputePool, type ComputePool } from "./compute-pool";
import { FLOW_SUMMARY, VOL_READING, type DailyKind } from "./kinds";
import type { MarketSource } from "./fingerprint";
import type { FillScope } from "./plan";
import { FILL_NICE, lowerFillPriority } from "./priority";
import { runFill } from "./run-fill";
import { fillScopeOf } from "./scope";
import { openDailyStore } from "./store";

/** What the filler passes at start. */
export interface FillWorkerInit {
  dbPath: string;
  identity: string;
  source: MarketSource;
  /** The market instant at start (the worker's clock; each `fill` message moves it). */
  nowMs: number;
  /** Narrow the scope (tests, the CLI); absent: the whole universe. */
  symbols?: readonly string[];
  volSessions: number;
  flowFrom: string;
  /** Flow sessions back from the last finished one (Infinity: all). */
  flowSessions: number;
  /**
   * Threads that compute summaries and closing readings (absent or 1: this thread alone; more: a
   * pool of that many at the fill's priority, this thread then only plans and writes).
   * @see docs/operations.md#daily-fill-threads
   */
  threads?: number;
}

export type FillWorkerRequest = { type: "fill"; nowMs: number } | { type: "abort" } | { type: "stop" };
export type FillWorkerReply =
  | { type: "ready"; scope: FillScope; nice: number | null }
  | { type: "progress"; kind: string; done: number; total: number; finished: boolean }
  | { type: "idle"; computed: number }
  | { type: "error"; message: string; code?: string };

const init = hostData<FillWorkerInit>();
let nowMs = init.nowMs;
const clock = { now: () => nowMs };
const host = hostPort();
const post = (m: FillWorkerReply) => host.postMessage(m);

async function marketOf(source: MarketSource): Promise<MarketData> {
  if (source.kind === "simulated") return createSimulatedMarket({ seed: source.seed, clock });
  return loadFileMarket(source.dir, { clock });
}

/** The pool of fill threads when asked for more than this one; absent otherwise. */
const pool: ComputePool | undefined = (init.threads ?? 1) > 1 ? createComputePool({ source: init.source }, init.threads, "fill", FILL_NICE, "thread") : undefined;
/** The kinds a pool thread computes (the others read this thread's store). */
const POOLED = new Set<DailyKind>([FLOW_SUMMARY, VOL_READING]);
/**
 * Rows of a step in flight at once: two per pool thread for the pooled kinds, so each thread has
 * its next row queued while this thread receives and writes the last one.
 */
const concurrency = (kind: DailyKind) => (pool && POOLED.has(kind) ? 2 * (init.threads ?? 1) : 1);

const nice = lowerFillPriority();
const ready = (async () => {
  const market = await marketOf(init.source);
  // The server checks and recovers the file; here a corruption error ends the pass (it reports it).
  const store = openDailyStore(init.dbPath, init.identity, { corruption: "throw" });
  const scope = await fillScopeOf(market, init);
  post({ type: "ready", scope, nice });
  return { store, produce: pooledProducer(dailyProducer(market, store), pool), scope };
})();

/** `inline`, with the pooled kinds sent to `pool` (inline again if its threads cannot start). */
function pooledProducer(inline: DailyProducer, workers: ComputePool | undefined): DailyProducer {
  if (!workers) return inline;
  return (kind, symbol, session) => {
    if (!POOLED.has(kind)) return inline(kind, symbol, session);
    const task = { kind: kind as typeof FLOW_SUMMARY | typeof VOL_READING, symbol, session, nowMs };
    return computeOffLoop(workers, task, () => inline(kind, symbol, session));
  };
}
/** A failure as the filler logs it (the stack) and shows it in the status (the code only). */
const failure = (error: unknown): FillWorkerReply => {
  const code = (error as { code?: unknown })?.code;
  return { type: "error", message: String((error as Error)?.stack ?? error), ...(typeof code === "string" ? { code } : {}) };
};
ready.catch((error) => post(failure(error)));

let stopping = false;
let aborted = false;
let queue: Promise<void> = Promise.resolve();
host.on("message", (m: FillWorkerRequest) => {
  if (m.type === "stop") {
    stopping = true;
    return;
  }
  if (m.type === "abort") {
    aborted = true;
    return;
  }
  nowMs = Math.max(nowMs, m.nowMs);
  queue = queue.then(async () => {
    try {
      const { store, produce, scope } = await ready;
      aborted = false;
      const computed = await runFill({
        store,
        produce,
        scope,
        nowMs,
        stopped: () => stopping || aborted,
        concurrency,
        onProgress: (kind, p) => post({ type: "progress", kind, ...p }),
      });
      post({ type: "idle", computed });
    } catch (error) {
      post(failure(error));
    }
  });
});
