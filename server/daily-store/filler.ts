// The background fill, main-thread side: one worker thread (the machine's other cores serve
// requests) that computes the store's missing rows, started at server start and told to plan
// again whenever a new session has closed. If the worker cannot start or fails, requests still
// compute what they need on demand. See docs/architecture.md#persisted-daily-store.
import { Worker } from "node:worker_threads";
import type { Clock } from "../../lib/market/market-data";
import type { Logger } from "../services";
import type { MarketSource } from "./fingerprint";
import type { FillWorkerInit, FillWorkerReply } from "./fill-worker";
import { DAILY_KINDS, type DailyKind } from "./kinds";
import { lastFinishedSession } from "./plan";
import type { DailyDataStore } from "./store";

/** How often the filler checks whether a new session has closed, ms of wall time. */
export const FILL_POLL_MS = 60_000;

export interface DailyFillOptions {
  store: DailyDataStore;
  source: MarketSource;
  clock: Clock;
  /** Sessions of vol history the module reads (its `historySessions`). */
  volSessions: number;
  /** First session of flow summaries. */
  flowFrom: string;
  /** Narrow the scope (tests); absent: the whole universe. */
  symbols?: readonly string[];
  log?: Logger;
  pollMs?: number;
}

export interface DailyFiller {
  /** Resolves when the current pass is done (rows computed in it). */
  idle(): Promise<number>;
  close(): Promise<void>;
}

/** Start a worker on the TypeScript sources (through tsx) or on the built `.js` sibling. */
function spawnFillWorker(init: FillWorkerInit): Worker {
  const self = import.meta.url;
  if (self.endsWith(".ts")) {
    const url = new URL("./fill-worker.ts", self).href;
    let tsx = "tsx/esm/api";
    try {
      const resolve = (import.meta as ImportMeta & { resolve?: (s: string) => string }).resolve;
      if (typeof resolve === "function") tsx = resolve("tsx/esm/api");
    } catch {
      // keep the bare specifier
    }
    const code = `import(${JSON.stringify(tsx)}).then((m) => m.tsImport(${JSON.stringify(url)}, ${JSON.stringify(url)}));`;
    return new Worker(code, { eval: true, workerData: init });
  }
  return new Worker(new URL("./daily-fill-worker.js", self), { workerData: init });
}

/**
 * Start filling `store` in a worker thread.
 * @example const filler = startDailyFill({ store, source: { kind: "simulated", seed: 42 }, clock, volSessions: 252, flowFrom: FLOW_FIRST_DATE });
 */
export function startDailyFill(o: DailyFillOptions): DailyFiller {
  const log = o.log ?? (() => {});
  const line = (msg: string, extra: Record<string, unknown> = {}) => log({ ts: new Date().toISOString(), level: "info", msg, ...extra });
  const fill = o.store.fill;
  let planned = lastFinishedSession(o.clock.now());
  let idleWaiters: ((n: number) => void)[] = [];
  let busy = false;
  let closed = false;
  let worker: Worker | null = null;
  const stopRunning = () => {
    fill.setRunning(false);
    for (const w of idleWaiters) w(0);
    idleWaiters = [];
  };
  try {
    worker = spawnFillWorker({ dbPath: o.store.path, identity: o.store.identity, source: o.source, nowMs: o.clock.now(), symbols: o.symbols, volSessions: o.volSessions, flowFrom: o.flowFrom });
  } catch (error) {
    line("daily_fill_unavailable", { error: String((error as Error)?.message ?? error) });
  }
  const pass = (nowMs: number) => {
    busy = true;
    fill.setRunning(true);
    worker!.postMessage({ type: "fill", nowMs });
  };
  if (worker) {
    worker.unref(); // the fill never keeps the process alive
    worker.on("message", (m: FillWorkerReply) => {
      if (m.type === "progress") {
        const was = fill.snapshot().kinds[m.kind as DailyKind];
        fill.update(m.kind as DailyKind, { done: m.done, total: m.total, finished: m.finished });
        if (m.finished && !was?.finished) line("daily_fill_kind_done", { kind: m.kind, rows: m.total });
      } else if (m.type === "idle") {
        busy = false;
        line("daily_fill_idle", { computed: m.computed, rows: Object.fromEntries(DAILY_KINDS.map((k) => [k, o.store.count(k)])) });
        fill.setRunning(false);
        for (const w of idleWaiters) w(m.computed);
        idleWaiters = [];
      } else if (m.type === "error") {
        busy = false;
        line("daily_fill_error", { error: m.message.slice(0, 2000) });
        stopRunning();
      }
    });
    worker.on("error", (error) => {
      line("daily_fill_error", { error: String(error?.message ?? error) });
      worker = null;
      stopRunning();
    });
    worker.on("exit", () => {
      worker = null;
      stopRunning();
    });
    line("daily_fill_start", { store: o.store.path, through: planned });
    pass(o.clock.now());
  }
  // A new session closed: plan again (everything already stored is skipped).
  const timer = setInterval(() => {
    const now = o.clock.now();
    const last = lastFinishedSession(now);
    if (!worker || busy || last === planned) return;
    planned = last;
    line("daily_fill_session_closed", { session: last });
    pass(now);
  }, o.pollMs ?? FILL_POLL_MS);
  timer.unref();
  return {
    idle: () => (!worker || !busy ? Promise.resolve(0) : new Promise((resolve) => idleWaiters.push(resolve))),
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      const w = worker;
      worker = null;
      stopRunning();
      await w?.terminate();
    },
  };
}
