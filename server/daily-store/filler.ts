// The background fill, main-thread side: one niced worker process that computes the store's missing
// rows up to the fill horizon, started at server start and told to plan again whenever a new
// session has closed. Of the processes sharing a data directory only the holder of the fill lease
// (lease.ts) computes; the others stand by, report the holder's progress from the store (so their
// vol warm-up waits for it) and try again until the plan is stored or the holder is gone. The
// lease is renewed from this thread, which keeps serving while the worker is starved of CPU. If
// a pass fails (a full disk, a locked store) or the worker dies, a new worker tries again after an
// exponential backoff (docs/operations.md#daily-fill-retries); meanwhile requests compute what
// they need on demand.
// See docs/operations.md#daily-store and docs/architecture.md#persisted-daily-store.
import { availableParallelism } from "node:os";
import type { Clock } from "../../lib/market/market-data";
import type { Logger } from "../services";
import { spawnSiblingWorker, type SiblingWorker } from "../spawn-sibling-worker";
import type { MarketSource } from "./fingerprint";
import type { FillWorkerInit, FillWorkerReply } from "./fill-worker";
import { isCorruptionError } from "./corruption";
import { DAILY_KINDS, type DailyKind } from "./kinds";
import { FILL_LEASE_MS, FILL_LEASE_RENEW_MS, openFillLease, type FillLease, type LeaseHolder } from "./lease";
import { DEFAULT_FLOW_FILL_SESSIONS, lastFinishedSession, type FillScope } from "./plan";
import { FILL_NICE } from "./priority";
import type { DailyDataStore } from "./store";
import { surveyFill } from "./survey";

/**
 * Default fill threads: one per core. They run at nice 19 (FILL_NICE), in a process of their own,
 * so the event loop and the request pools' workers win every contended core. @see docs/operations.md#daily-fill-threads
 */
export const DEFAULT_FILL_THREADS = Math.max(1, availableParallelism());

/** How often the filler checks whether a new session has closed, ms of wall time. */
const FILL_POLL_MS = 60_000;
/** How often an instance without the lease looks at the store and tries to take the lease again. */
const FILL_STANDBY_RETRY_MS = 15_000;
/**
 * Backoff after a failed pass (a full disk, a locked or unwritable store, a crashed worker): the
 * first retry after FILL_RETRY_MIN_MS, doubling per failure in a row up to FILL_RETRY_MAX_MS.
 * @see docs/operations.md#daily-fill-retries
 */
export const FILL_RETRY_MIN_MS = 5_000;
export const FILL_RETRY_MAX_MS = 5 * 60_000;

/**
 * Wait before the retry that follows `failures` failures in a row (1 = the first).
 * @example fillRetryDelayMs(3) // 20_000
 */
export function fillRetryDelayMs(failures: number, minMs = FILL_RETRY_MIN_MS, maxMs = FILL_RETRY_MAX_MS): number {
  return Math.min(maxMs, minMs * 2 ** Math.max(0, failures - 1));
}

export interface DailyFillOptions {
  store: DailyDataStore;
  source: MarketSource;
  clock: Clock;
  /** Sessions of vol history the module reads (its `historySessions`). */
  volSessions: number;
  /** First session of flow summaries. */
  flowFrom: string;
  /** Flow sessions back from the last finished one (default DEFAULT_FLOW_FILL_SESSIONS; Infinity: all). */
  flowSessions?: number;
  /** Narrow the scope (tests); absent: the whole universe. */
  symbols?: readonly string[];
  /** Threads computing rows (FillWorkerInit.threads; absent: 1). @see docs/operations.md#daily-fill-threads */
  threads?: number;
  log?: Logger;
  pollMs?: number;
  /** Standby retry period, lease length and renewal period, ms (tests shorten them). */
  standbyRetryMs?: number;
  leaseMs?: number;
  renewMs?: number;
  /** Backoff bounds after a failed pass, ms (default FILL_RETRY_MIN_MS, FILL_RETRY_MAX_MS; tests shorten them). */
  retryMinMs?: number;
  retryMaxMs?: number;
}

/**
 * What this filler does now: computing (holds the lease), waiting for another holder, waiting to
 * retry after a failed pass, or nothing.
 */
export type FillerRole = "filling" | "standby" | "retrying" | "idle";

export interface DailyFiller {
  /** Resolves when the current pass or standby ends (rows this filler computed in it); a failed pass is retried first. */
  idle(): Promise<number>;
  role(): FillerRole;
  close(): Promise<void>;
}

/** The fill worker: a process of its own, niced (docs/architecture.md#worker-pools). */
const spawnFillWorker = (init: FillWorkerInit): SiblingWorker =>
  spawnSiblingWorker(import.meta.url, { source: "./fill-worker.ts", built: "./daily-fill-worker.js" }, init, { nice: FILL_NICE, isolation: "process" });

const holderLine = (h: LeaseHolder) => ({ pid: h.pid, host: h.host, expires: new Date(h.expiresMs).toISOString() });

/**
 * Start filling `store` in a worker thread (or standing by while another process fills it).
 * @example const filler = startDailyFill({ store, source: { kind: "simulated", seed: 42 }, clock, volSessions: 252, flowFrom: FLOW_FIRST_DATE });
 */
export function startDailyFill(o: DailyFillOptions): DailyFiller {
  const log = o.log ?? (() => {});
  const line = (msg: string, extra: Record<string, unknown> = {}) => log({ ts: new Date().toISOString(), level: "info", msg, ...extra });
  const fill = o.store.fill;
  const flowSessions = o.flowSessions ?? DEFAULT_FLOW_FILL_SESSIONS;
  let planned = lastFinishedSession(o.clock.now());
  let idleWaiters: ((n: number) => void)[] = [];
  let role: FillerRole = "idle";
  let closed = false;
  let worker: SiblingWorker | null = null;
  let lease: FillLease | null = null;
  let scope: FillScope | null = null;
  let renewTimer: ReturnType<typeof setInterval> | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let standbyHolder: string | null = null;
  let leaseLost = false;
  /** Failed passes in a row (0 once a pass ends). */
  let failures = 0;

  const settle = (computed: number) => {
    role = "idle";
    standbyHolder = null;
    fill.setRunning(false);
    fill.setRetry(null);
    for (const w of idleWaiters) w(computed);
    idleWaiters = [];
  };
  const stopTimers = () => {
    if (renewTimer) clearInterval(renewTimer);
    if (retryTimer) clearTimeout(retryTimer);
    renewTimer = retryTimer = null;
  };
  /** A corrupt file met by the worker or the lease: the store moves it aside and the fill starts over (rebuild.ts). */
  const reportIfCorrupt = (error: unknown) => {
    if (isCorruptionError(error)) queueMicrotask(() => closed || o.store.reportCorruption(error));
  };
  /** A lease operation that must not throw out of a timer (a locked or broken file): logged, then `fallback`. */
  const guarded = <T>(what: string, f: () => T, fallback: T): T => {
    try {
      return f();
    } catch (error) {
      line("daily_fill_lease_error", { op: what, error: String((error as Error)?.message ?? error) });
      reportIfCorrupt(error);
      return fallback;
    }
  };
  const release = () => guarded("release", () => lease?.release(), undefined);
  const shutDown = () => {
    stopTimers();
    const w = worker;
    worker = null;
    release();
    settle(0);
    return w?.terminate();
  };

  /** Without the lease: show what is stored of the plan; done when all of it is. */
  const survey = (nowMs: number): boolean => {
    if (!scope) return false;
    const kinds = guarded("survey", () => surveyFill(o.store, scope!, nowMs), null);
    if (!kinds) return false;
    for (const k of DAILY_KINDS) fill.update(k, kinds[k]);
    return DAILY_KINDS.every((k) => kinds[k].finished);
  };

  const attempt = () => {
    retryTimer = null;
    if (closed || !worker || !lease || role === "filling") return;
    const nowMs = o.clock.now();
    const took = guarded("take", () => lease!.take(), null);
    if (!took) {
      retryTimer = setTimeout(attempt, o.standbyRetryMs ?? FILL_STANDBY_RETRY_MS);
      retryTimer.unref();
      return;
    }
    if (took.held) {
      if (took.replaced) line("daily_fill_takeover", { previous: holderLine(took.replaced) });
      role = "filling";
      standbyHolder = null;
      fill.setRunning(true);
      renewTimer = setInterval(() => {
        // An error is not a loss: the next renewal tries again (the lease outlasts several).
        if (guarded("renew", () => lease!.renew(), true)) return;
        const holder = guarded("holder", () => lease!.holder(), null);
        line("daily_fill_lease_lost", { holder: holder && holderLine(holder) });
        leaseLost = true;
        worker?.postMessage({ type: "abort" });
      }, o.renewMs ?? FILL_LEASE_RENEW_MS);
      renewTimer.unref();
      worker.postMessage({ type: "fill", nowMs });
      return;
    }
    role = "standby";
    fill.setRunning(true);
    if (standbyHolder !== took.holder.owner) {
      standbyHolder = took.holder.owner;
      line("daily_fill_standby", { holder: holderLine(took.holder) });
    }
    if (survey(nowMs)) {
      line("daily_fill_idle", { computed: 0, by: "another process", rows: Object.fromEntries(DAILY_KINDS.map((k) => [k, o.store.count(k)])) });
      settle(0);
      return;
    }
    retryTimer = setTimeout(attempt, o.standbyRetryMs ?? FILL_STANDBY_RETRY_MS);
    retryTimer.unref();
  };

  /**
   * A pass failed or the worker died: drop the worker and the lease (another instance may take
   * over), then a new worker tries again after the backoff. Requests keep computing on demand.
   */
  const fail = (error: string, code: string | undefined) => {
    stopTimers();
    const w = worker;
    worker = null;
    void w?.terminate();
    release();
    failures++;
    const delayMs = fillRetryDelayMs(failures, o.retryMinMs, o.retryMaxMs);
    role = "retrying";
    standbyHolder = null;
    fill.setRunning(false);
    fill.setRetry({ attempt: failures, nextAtMs: Date.now() + delayMs, reason: code ?? "error" });
    line("daily_fill_error", { error: error.slice(0, 2000), attempt: failures, retryInMs: delayMs });
    reportIfCorrupt({ code, message: error });
    retryTimer = setTimeout(() => {
      retryTimer = null;
      if (closed) return;
      line("daily_fill_retry", { attempt: failures });
      if (startWorker()) attempt();
    }, delayMs);
    retryTimer.unref();
  };

  /** Spawn the worker and listen to it; false (after scheduling a retry) when it cannot start. */
  const startWorker = (): boolean => {
    let w: SiblingWorker;
    try {
      w = spawnFillWorker({
        dbPath: o.store.path,
        identity: o.store.identity,
        source: o.source,
        nowMs: o.clock.now(),
        symbols: o.symbols,
        volSessions: o.volSessions,
        flowFrom: o.flowFrom,
        flowSessions,
        threads: o.threads,
      });
    } catch (error) {
      fail(String((error as Error)?.message ?? error), (error as { code?: string })?.code);
      return false;
    }
    worker = w;
    w.unref(); // the fill never keeps the process alive
    // A replaced worker's late messages and its exit are not this filler's any more.
    w.on("message", (m: FillWorkerReply) => {
      if (w !== worker) return;
      if (m.type === "ready") {
        scope = m.scope;
        line("daily_fill_worker_ready", { nice: m.nice, flowTickers: m.scope.flowTickers.length, volSymbols: m.scope.volSymbols.length });
        if (role === "standby") survey(o.clock.now());
      } else if (m.type === "progress") {
        const was = fill.snapshot().kinds[m.kind as DailyKind];
        fill.update(m.kind as DailyKind, { done: m.done, total: m.total, finished: m.finished });
        if (m.finished && !was?.finished) line("daily_fill_kind_done", { kind: m.kind, rows: m.total });
      } else if (m.type === "idle") {
        stopTimers();
        failures = 0;
        if (leaseLost) {
          // Another process took the lease while this one was stalled: stand by behind it.
          leaseLost = false;
          role = "idle";
          attempt();
          return;
        }
        release();
        line("daily_fill_idle", { computed: m.computed, rows: Object.fromEntries(DAILY_KINDS.map((k) => [k, o.store.count(k)])) });
        settle(m.computed);
      } else if (m.type === "error") {
        fail(m.message, m.code);
      }
    });
    w.on("error", (error) => {
      if (w === worker) fail(String(error?.stack ?? error), (error as { code?: string })?.code);
    });
    w.on("exit", (code) => {
      if (w === worker) fail(`the fill worker exited (code ${code})`, "worker_exit");
    });
    return true;
  };

  try {
    lease = openFillLease(o.store.path, { leaseMs: o.leaseMs ?? FILL_LEASE_MS });
  } catch (error) {
    line("daily_fill_unavailable", { error: String((error as Error)?.message ?? error) });
  }
  if (lease) {
    line("daily_fill_start", {
      store: o.store.path,
      through: planned,
      flowSessions: Number.isFinite(flowSessions) ? flowSessions : "all",
      volSessions: o.volSessions + 1,
      owner: lease.owner,
    });
    if (startWorker()) attempt();
  }
  // A new session closed: plan again (everything already stored is skipped).
  const timer = setInterval(() => {
    const last = lastFinishedSession(o.clock.now());
    if (!worker || role !== "idle" || last === planned) return;
    planned = last;
    line("daily_fill_session_closed", { session: last });
    attempt();
  }, o.pollMs ?? FILL_POLL_MS);
  timer.unref();
  return {
    idle: () => (role === "idle" ? Promise.resolve(0) : new Promise((resolve) => idleWaiters.push(resolve))),
    role: () => role,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      const terminated = shutDown();
      lease?.close();
      await terminated;
    },
  };
}
