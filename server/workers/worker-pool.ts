/**
 * A small pool of worker threads that answer `{ id, task }` messages with `{ id, ok, value }`:
 * the request loop hands CPU-heavy work here and only awaits it (docs/architecture.md#worker-pools).
 * Queued tasks are served round-robin across tenants (accounts), so one account's storm cannot
 * starve another's single call; a task whose signal aborts before it starts never runs. When
 * workers cannot start (a bundle without the worker module, no `tsx` for TypeScript sources) or
 * one dies, `run` rejects with `WorkerPoolUnavailable` and the caller computes in its own thread;
 * once closed, with `WorkerPoolClosed` (nothing is computed any more).
 */
import type { SiblingWorker } from "../spawn-sibling-worker";
import { apiErrors } from "../errors";
import { FairQueue } from "../limits/fair-queue";

/** The pool could not run the task (no workers): compute in-process instead. */
export class WorkerPoolUnavailable extends Error {}

/**
 * The pool was closed (the server is stopping): the task is abandoned, not computed in-process,
 * which would hold a stopping server's loop for every queued task. Answered 503 `unavailable`.
 */
export class WorkerPoolClosed extends Error {
  constructor(name: string) {
    super(`${name} workers closed`, { cause: apiErrors.shuttingDown() });
  }
}

/** What a pool worker posts back for one task. */
export type WorkerReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

/** Gauges of a pool, for the metrics endpoint and the status routes. */
export interface WorkerPoolStats {
  name: string;
  /** Workers running (0 before the first task and once the pool failed). */
  workers: number;
  /** Tasks waiting for a worker. */
  queued: number;
  /** Tasks sent to a worker and not answered yet. */
  running: number;
  /** Tasks answered since start (successes and task errors). */
  completed: number;
}

export interface WorkerPool<Task, Result> {
  /** Run `task` in a worker; `signal` aborted before it starts rejects with its reason. */
  run(task: Task, signal?: AbortSignal, tenant?: string): Promise<Result>;
  /** Workers the pool runs when healthy (0 once it failed). */
  readonly size: number;
  /** Start the workers now rather than on the first task (a server warms them while it starts). */
  prestart(): void;
  stats(): WorkerPoolStats;
  close(): Promise<void>;
}

export interface WorkerPoolOptions {
  /** Shown in errors and stats. */
  name: string;
  /** Starts one worker (throws when it cannot: the pool then reports itself unavailable). */
  spawn: () => SiblingWorker;
  size: number;
  /** Tasks sent to one worker ahead of its current one (hides the message round trip). Default 2. */
  pipelineDepth?: number;
}

interface Job<Task, Result> {
  task: Task;
  signal?: AbortSignal;
  resolve: (r: Result) => void;
  reject: (e: unknown) => void;
}

interface Slot<Task, Result> {
  worker: SiblingWorker;
  inFlight: Map<number, Job<Task, Result>>;
}

/**
 * Workers start on the first task; an idle pool never keeps the process alive.
 * @example const pool = createWorkerPool<Req, Res>({ name: "stats", spawn: () => new Worker(file), size: 2 });
 */
export function createWorkerPool<Task, Result>(options: WorkerPoolOptions): WorkerPool<Task, Result> {
  const { name, spawn, size } = options;
  const depth = options.pipelineDepth ?? 2;
  const queue = new FairQueue<Job<Task, Result>>();
  let slots: Slot<Task, Result>[] = [];
  let broken = false;
  let closed = false;
  let nextId = 1;
  let completed = 0;

  const unavailable = (why: string) => new WorkerPoolUnavailable(`${name} workers unavailable: ${why}`);
  const fail = (error: unknown) => {
    broken = true;
    const dead = slots;
    slots = [];
    const why = String((error as Error)?.message ?? error);
    for (const s of dead) {
      for (const job of s.inFlight.values()) job.reject(unavailable(why));
      void s.worker.terminate();
    }
    for (const job of queue.drain()) job.reject(unavailable(why));
  };

  const pump = () => {
    for (;;) {
      if (queue.size === 0 || broken) return;
      const slot = slots.reduce<Slot<Task, Result> | null>((best, s) => (s.inFlight.size < depth && (!best || s.inFlight.size < best.inFlight.size) ? s : best), null);
      if (!slot) return;
      const job = queue.shift()!;
      if (job.signal?.aborted) {
        job.reject(job.signal.reason);
        continue;
      }
      const id = nextId++;
      slot.inFlight.set(id, job);
      slot.worker.postMessage({ id, task: job.task });
    }
  };

  const start = () => {
    if (slots.length > 0 || broken) return;
    for (let i = 0; i < size; i++) {
      let worker: SiblingWorker;
      try {
        worker = spawn();
      } catch (error) {
        fail(error);
        return;
      }
      const slot: Slot<Task, Result> = { worker, inFlight: new Map() };
      worker.unref();
      worker.on("message", (m: WorkerReply) => {
        const job = slot.inFlight.get(m.id);
        if (!job) return;
        slot.inFlight.delete(m.id);
        completed++;
        if (m.ok) job.resolve(m.value as Result);
        else job.reject(new Error(m.message));
        pump();
      });
      worker.on("error", fail);
      worker.on("exit", (code) => {
        if (!broken && slots.includes(slot)) fail(new Error(`${name} worker exited with code ${code}`));
      });
      slots.push(slot);
    }
  };

  return {
    run(task, signal, tenant = "") {
      if (closed) return Promise.reject(new WorkerPoolClosed(name));
      if (broken) return Promise.reject(unavailable("failed earlier"));
      start();
      return new Promise<Result>((resolve, reject) => {
        queue.push(tenant, { task, signal, resolve, reject });
        pump();
      });
    },
    get size() {
      return broken ? 0 : size;
    },
    prestart: () => start(),
    stats: () => ({
      name,
      workers: slots.length,
      queued: queue.size,
      running: slots.reduce((n, s) => n + s.inFlight.size, 0),
      completed,
    }),
    async close() {
      broken = true;
      closed = true;
      const dead = slots;
      slots = [];
      for (const s of dead) for (const job of s.inFlight.values()) job.reject(new WorkerPoolClosed(name));
      for (const job of queue.drain()) job.reject(new WorkerPoolClosed(name));
      await Promise.all(dead.map((s) => s.worker.terminate()));
    },
  };
}

/**
 * The worker side: answer each `{ id, task }` with `handle(task)`'s value, or its error's message.
 * @example servePoolTasks(parentPort!, (task: Req) => compute(task));
 */
export function servePoolTasks<Task>(
  port: { on(e: "message", f: (m: { id: number; task: Task }) => void): unknown; postMessage(m: WorkerReply): void },
  handle: (task: Task) => unknown,
): void {
  port.on("message", async ({ id, task }) => {
    try {
      port.postMessage({ id, ok: true, value: await handle(task) });
    } catch (error) {
      port.postMessage({ id, ok: false, message: String((error as Error)?.message ?? error) });
    }
  });
}
