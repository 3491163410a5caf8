/**
 * Group commit on PostgreSQL: debits and refunds submitted in the same short window go to the
 * server as ONE `os_apply_set` (or, for a small batch, `os_apply`) call (one round trip, one transaction, one WAL flush); each keeps its
 * own outcome (the function returns a code per operation). No promise resolves before the
 * COMMIT holding its operation returned. At most `maxInFlight` batches (default 1) are at the
 * server at once: what arrives while one commits waits and goes as the next batch, so under load
 * batches grow with the commit latency instead of many small transactions queueing on the same
 * balance-row lock (docs/methodology.md#postgresql-group-commit-and-the-auth-cache). Operations are sorted by account inside a batch, so two
 * batches in flight (this instance's or another's) lock balance rows in the same order and cannot
 * deadlock. When the connection fails mid-call the outcome is unknown: every operation of that
 * batch is rejected with 503 and a compensating refund of its request id is retried until the
 * store answers, so an operation answered 503 is never left charged. A batch unanswered at the
 * deadline is answered 503 at once; it is compensated once it settles (a late COMMIT is undone),
 * and its connection is replaced (docs/operations.md#store-deadline).
 * See docs/operations.md#postgresql.
 */
import { StoreTimeoutError, withDeadline } from "../../store-deadline";
import type { GroupCommitStats } from "../group-commit";
import { isServerError, type Sql } from "./pg-connection";

/**
 * Smallest batch sent to the set-based `os_apply_set` (migration 005); smaller ones go to
 * `os_apply` (002). Measured crossover of PostgreSQL CPU per debit (bench/pg-apply.ts).
 */
export const SET_BASED_MIN_BATCH = 4;

/**
 * The PostgreSQL ledger's default group-commit window under load, ms (`--group-commit-ms`
 * overrides it). Measured on the scale-out bench (docs/methodology.md#postgresql-group-commit-window).
 */
export const DEFAULT_PG_GROUP_COMMIT_WINDOW_MS = 3;

/** One operation as `os_apply` and `os_apply_set` take it (see migrations/002_ledger_functions.sql). */
export interface PgOp {
  op: "debit" | "refund";
  a: string;
  n: number;
  rq: string;
  rt: string;
  ts: number;
  d?: string;
  m?: string;
  gp: string;
  gc: number;
  gm: boolean;
}

/**
 * How long a forming batch waits for its operations' admissions (gates) still coming, in windows
 * from its first operation; then its admitted part goes without them (docs/architecture.md#admission-overlap).
 */
export const GATE_WAIT_WINDOWS = 4;

export interface PgOpResult {
  code: string;
  balance: number | null;
  ledger_id: number | null;
  cap: number | null;
}

interface Pending {
  op: PgOp;
  /** False while the operation's gate (its rate-limit answer) is pending: it is not sent before. */
  ready: boolean;
  resolve: (r: PgOpResult) => void;
  reject: (e: unknown) => void;
}

export interface PgBatcherOptions {
  /**
   * Wait for company, ms, under load: once a batch held more than one operation, the next batch's
   * first operation waits this long before the batch goes; a lone operation (idle server) goes in
   * the event loop's check phase. 0 (default) always flushes in the check phase.
   * See docs/methodology.md#postgresql-group-commit-window.
   */
  windowMs?: number;
  /** Largest batch (default 1024). */
  maxBatch?: number;
  /** Batches at the server at once (default 1: the next batch forms while one commits). */
  maxInFlight?: number;
  /** Error for operations whose batch failed (nothing of it is stored, or it is being compensated). */
  storeFailure: () => Error;
  /** Delay between attempts of an in-doubt compensation, ms (default 1000). */
  retryMs?: number;
  /** The deadline of one batch, ms (absent or 0: none; docs/operations.md#store-deadline). */
  timeoutMs?: number;
  /**
   * A fresh connection for the batches after one passed its deadline (the old one, which may be
   * half-open, closes once its call ends). Absent: the batches stay on `sql`.
   */
  reopen?: () => Sql;
}

export interface PgBatcher {
  /**
   * Queue `op` for the next batch. With `gate`, the operation waits in the queue (its window
   * already counting) but is sent only once `gate` resolves; if it rejects, the operation is
   * dropped unsent and the submit rejects with its error (docs/architecture.md#admission-overlap).
   */
  submit(op: PgOp, gate?: Promise<unknown>): Promise<PgOpResult>;
  stats(): GroupCommitStats & { inDoubt: number };
  /** Resolves when the queue and the in-doubt compensations are done, or after `timeoutMs`. */
  drain(timeoutMs?: number): Promise<void>;
  close(): void;
}

export function createPgBatcher(initialSql: Sql, options: PgBatcherOptions): PgBatcher {
  let sql = initialSql;
  const timeoutMs = options.timeoutMs ?? 0;
  const windowMs = Math.max(0, options.windowMs ?? 0);
  const maxBatch = Math.max(1, options.maxBatch ?? 1024);
  const maxInFlight = Math.max(1, options.maxInFlight ?? 1);
  const retryMs = options.retryMs ?? 1000;
  let queue: Pending[] = [];
  let scheduled = false;
  /** The window's timer while a batch waits for company (cleared when the company is there). */
  let windowTimer: NodeJS.Timeout | null = null;
  let closed = false;
  let inFlight = 0;
  /** Operations in the last batch sent: above 1, the server is under load and batches wait. */
  let lastBatchSize = 0;
  /** `performance.now()` when the oldest queued operation arrived: the window counts from it. */
  let queuedSince = Number.NEGATIVE_INFINITY;
  /** Refunds that must reach the store (compensations of in-doubt operations). */
  const inDoubt = new Map<string, PgOp>();
  let retryTimer: NodeJS.Timeout | null = null;
  /** Batches answered 503 at their deadline whose call has not settled yet. */
  let overdue = 0;
  /** Sends the ready part of a batch whose admissions are late (see `flush`). */
  let gateTimer: NodeJS.Timeout | null = null;
  const stats: GroupCommitStats = { batches: 0, ops: 0, largestBatch: 0 };

  const readyCount = () => {
    let n = 0;
    for (const p of queue) if (p.ready) n++;
    return n;
  };

  // The window waits for company; a batch already as large as the last one has it, and goes at
  // once (closed-loop clients arrive in waves of the last batch's size: waiting out the window
  // then only adds latency; docs/methodology.md#postgresql-group-commit-window).
  const hasCompany = () => readyCount() >= lastBatchSize;

  const schedule = () => {
    if (scheduled) {
      if (windowTimer && hasCompany()) {
        clearTimeout(windowTimer);
        windowTimer = null;
        setImmediate(flush);
      }
      return;
    }
    scheduled = true;
    const waitMs = windowMs > 0 && lastBatchSize > 1 && !hasCompany() ? windowMs - (performance.now() - queuedSince) : 0;
    if (waitMs > 0) {
      windowTimer = setTimeout(() => {
        windowTimer = null;
        void flush();
      }, waitMs);
    } else setImmediate(flush);
  };

  async function apply(ops: PgOp[]): Promise<PgOpResult[]> {
    // Same answers either way; below the crossover the per-operation function costs the server
    // less CPU (docs/methodology.md#set-based-group-commit).
    const rows =
      ops.length >= SET_BASED_MIN_BATCH
        ? await sql<(PgOpResult & { i: number })[]>`SELECT * FROM os_apply_set(${sql.json(ops as never)})`
        : await sql<(PgOpResult & { i: number })[]>`SELECT * FROM os_apply(${sql.json(ops as never)})`;
    const out: PgOpResult[] = new Array(ops.length);
    for (const r of rows) out[r.i] = r;
    return out;
  }

  /** A refund of `op` (at most what its request id holds: harmless when nothing was charged). */
  function compensate(op: PgOp): void {
    const refund: PgOp = { ...op, op: "refund", d: undefined, m: undefined };
    inDoubt.set(`${op.a}|${op.rq}`, refund);
    if (!retryTimer) retryTimer = setTimeout(retryInDoubt, retryMs);
  }

  /**
   * A batch past its deadline: its callers are answered 503 now. The call may still commit, so
   * once it settles each operation is compensated unless the server refused the whole call.
   */
  function overdueBatch(work: Promise<unknown>, ops: PgOp[]): void {
    overdue++;
    work
      .then(
        () => ops.forEach(compensate),
        (error: unknown) => {
          if (!isServerError(error)) ops.forEach(compensate);
        },
      )
      .finally(() => overdue--);
    replaceConnection();
  }

  /**
   * After a call passed its deadline, the next batches go on a fresh connection: the old one may be
   * half-open (no error comes for minutes). The old one is not destroyed: it closes once its call
   * ends, so the compensation follows the call's real end (a destroyed connection's backend could
   * still commit after the compensating refund, which would then find nothing to refund).
   */
  function replaceConnection(): void {
    if (!options.reopen || closed) return;
    const old = sql;
    sql = options.reopen();
    void old.end().catch(() => {});
  }

  async function retryInDoubt(): Promise<void> {
    retryTimer = null;
    const ops = [...inDoubt.values()].sort(byAccount);
    if (ops.length === 0) return;
    try {
      // Past the deadline the refunds stay in doubt and go again (a refund is idempotent per request id).
      const results = await withDeadline(apply(ops), timeoutMs);
      ops.forEach((op, i) => {
        if (results[i]?.code !== "error") inDoubt.delete(`${op.a}|${op.rq}`);
      });
    } catch (error) {
      // still unreachable: try again later
      if (error instanceof StoreTimeoutError) replaceConnection();
    }
    if (inDoubt.size > 0 && !retryTimer) retryTimer = setTimeout(retryInDoubt, retryMs);
  }

  /** Operations whose gate is still pending stay queued; the others, up to `maxBatch`, go. */
  function takeBatch(): Pending[] {
    if (queue.length <= maxBatch && queue.every((p) => p.ready)) {
      const all = queue;
      queue = [];
      return all;
    }
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    for (const p of queue) (p.ready && batch.length < maxBatch ? batch : rest).push(p);
    queue = rest;
    return batch;
  }

  async function flush(): Promise<void> {
    scheduled = false;
    // A batch is committing: this queue goes when it returns (see the `finally` below).
    if (queue.length === 0 || inFlight >= maxInFlight) return;
    // Admissions of the forming batch still coming (one Redis reply answers a turn's checks
    // together): the last gate to open sends it, or the ready part goes after GATE_WAIT_WINDOWS.
    const gateWaitMs = windowMs * GATE_WAIT_WINDOWS - (performance.now() - queuedSince);
    if (gateWaitMs > 0 && queue.some((p) => !p.ready)) {
      gateTimer ??= setTimeout(() => {
        gateTimer = null;
        void flush();
      }, gateWaitMs);
      return;
    }
    if (gateTimer) clearTimeout(gateTimer);
    gateTimer = null;
    const batch = takeBatch();
    // What is left over has waited already: it goes as soon as a batch may (a gated operation,
    // as soon as its gate opens).
    queuedSince = Number.NEGATIVE_INFINITY;
    if (batch.length === 0) return;
    if (queue.some((p) => p.ready) && inFlight + 1 < maxInFlight) schedule();
    // Stable sort: one account's operations keep their order (a refund after its debit).
    batch.sort((x, y) => byAccount(x.op, y.op));
    lastBatchSize = batch.length;
    stats.batches++;
    stats.ops += batch.length;
    if (batch.length > stats.largestBatch) stats.largestBatch = batch.length;
    inFlight++;
    const ops = batch.map((p) => p.op);
    const work = apply(ops);
    try {
      const results = await withDeadline(work, timeoutMs);
      batch.forEach((p, i) => {
        const r = results[i];
        if (!r || r.code === "error") p.reject(options.storeFailure());
        else p.resolve(r);
      });
    } catch (error) {
      // A server-side error rolled the whole call back; a lost connection leaves it unknown; an
      // overdue call is settled when it ends.
      if (error instanceof StoreTimeoutError) overdueBatch(work, ops);
      else if (!isServerError(error)) for (const op of ops) compensate(op);
      for (const p of batch) p.reject(options.storeFailure());
    } finally {
      inFlight--;
      if (queue.some((p) => p.ready)) schedule();
    }
  }

  return {
    submit(op, gate) {
      if (closed) return Promise.reject(options.storeFailure());
      return new Promise<PgOpResult>((resolve, reject) => {
        if (queue.length === 0) queuedSince = performance.now();
        const pending: Pending = { op, ready: !gate, resolve, reject };
        queue.push(pending);
        if (!gate) return schedule();
        gate.then(
          () => {
            pending.ready = true;
            schedule();
          },
          (refusal: unknown) => {
            queue = queue.filter((p) => p !== pending);
            reject(refusal);
          },
        );
      });
    },
    stats: () => ({ ...stats, inDoubt: inDoubt.size + overdue }),
    async drain(waitMs = 5000) {
      const until = Date.now() + waitMs;
      while ((queue.length > 0 || inFlight > 0 || inDoubt.size > 0 || overdue > 0) && Date.now() < until) {
        if (inDoubt.size > 0 && inFlight === 0 && queue.length === 0) await retryInDoubt();
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close() {
      closed = true;
      if (windowTimer) clearTimeout(windowTimer);
      windowTimer = null;
      if (gateTimer) clearTimeout(gateTimer);
      gateTimer = null;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
    },
  };
}

function byAccount(x: PgOp, y: PgOp): number {
  return x.a < y.a ? -1 : x.a > y.a ? 1 : 0;
}
