/**
 * Group commit over one SQLite connection (server/sqlite.ts): operations submitted within a short window are
 * applied one by one inside ONE `BEGIN IMMEDIATE` transaction (each in its own savepoint, so each
 * keeps its own success or failure), then one `COMMIT` and, at `synchronous=FULL`, one fsync of
 * the WAL on the thread pool acknowledge them all. No promise resolves before the commit that holds its operation returned.
 * See docs/operations.md#group-commit.
 */
import { type FileHandle, open } from "node:fs/promises";
import type { Sqlite } from "../sqlite";
import { isApiError } from "../errors";

/** Options of `createGroupCommitter`. */
export interface GroupCommitOptions {
  /**
   * How long the first operation of a batch waits for company under load, ms: only once the last
   * batch held more than one operation (a lone request on an idle server waits no timer). 0
   * (default) always flushes in the event loop's check phase (`setImmediate`): every request
   * parsed in the same I/O phase joins the batch. See docs/methodology.md#postgresql-group-commit-window,
   * which both stores follow.
   */
  windowMs?: number;
  /** Largest batch; the rest waits for the next flush (default 1024). */
  maxBatch?: number;
  /** Error given to an operation whose batch could not be committed (nothing of it is stored). */
  storeFailure: () => Error;
  /** Called when a batch was rolled back as a whole (drop caches of rows written inside it). */
  onRollback?: () => void;
  /** How the WAL file is flushed to disk after a batch's COMMIT (tests observe it); default `fsyncFile`. */
  syncWal?: (path: string) => Promise<void>;
}

/**
 * fsync of `path` on libuv's thread pool: the event loop does not wait for the disk. A WAL that
 * is gone was checkpointed into the database (synced) and removed by the last connection's close.
 */
async function fsyncFile(path: string): Promise<void> {
  let fh: FileHandle;
  try {
    fh = await open(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * The WAL file a durable commit must reach the disk through, or null when commits are not to be
 * fsynced (`synchronous` below FULL, not WAL, in memory).
 */
function durableWalOf(db: Sqlite): string | null {
  try {
    if (Number(db.pragma("synchronous", { simple: true })) < 2) return null;
    if (String(db.pragma("journal_mode", { simple: true })).toLowerCase() !== "wal") return null;
    const main = (db.pragma("database_list") as { name: string; file: string }[]).find((d) => d.name === "main");
    return main?.file ? `${main.file}-wal` : null;
  } catch {
    return null;
  }
}

/** Counters for tests and the bench: how many commits acknowledged how many operations. */
export interface GroupCommitStats {
  batches: number;
  ops: number;
  largestBatch: number;
}

export interface GroupCommitter {
  /**
   * Queue `op` (a `db.transaction(...)` function, so it nests as a savepoint) for the next batch.
   * Resolves with its result after the batch's COMMIT; rejects with its own `ApiError` (its
   * savepoint rolled back, the rest of the batch unaffected) or with `storeFailure()` when the
   * store failed.
   */
  submit<T>(op: () => T): Promise<T>;
  /** Run everything queued now (synchronously); used before close. */
  flush(): void;
  stats(): GroupCommitStats;
  /** Flush, then refuse further operations. */
  close(): void;
}

interface Pending {
  op: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Create a group committer over `db` (WAL mode; `synchronous` decides what a commit means).
 * @example
 * const gc = createGroupCommitter(db, { storeFailure: () => new Error("store") });
 * const [a, b] = await Promise.all([gc.submit(() => debitTxn(p, 1, r1)), gc.submit(() => debitTxn(p, 1, r2))]); // one fsync
 */
export function createGroupCommitter(db: Sqlite, options: GroupCommitOptions): GroupCommitter {
  // At synchronous=FULL a COMMIT fsyncs the WAL in this thread: under other disk writes (the daily
  // store's fill) that held the event loop for hundreds of ms. A batch commits at NORMAL instead
  // and its operations are acknowledged only after the WAL is fsynced on the thread pool: the same
  // guarantee (an acknowledged operation is on disk), the loop free meanwhile.
  // See docs/operations.md#group-commit.
  const durableWal = durableWalOf(db);
  const syncWal = options.syncWal ?? fsyncFile;
  const windowMs = Math.max(0, options.windowMs ?? 0);
  const maxBatch = Math.max(1, options.maxBatch ?? 1024);
  let queue: Pending[] = [];
  let scheduled = false;
  /** The window's timer while a batch waits for company. */
  let windowTimer: NodeJS.Timeout | null = null;
  let closed = false;
  const stats: GroupCommitStats = { batches: 0, ops: 0, largestBatch: 0 };
  /** Operations in the last batch: above 1, the store is under load and batches wait. */
  let lastBatchSize = 0;

  // As on PostgreSQL (pg-batcher.ts): a waiting batch as large as the last one goes at once.
  const schedule = () => {
    if (scheduled) {
      if (windowTimer && queue.length >= lastBatchSize) {
        clearTimeout(windowTimer);
        windowTimer = null;
        setImmediate(flush);
      }
      return;
    }
    scheduled = true;
    if (windowMs > 0 && lastBatchSize > 1 && queue.length < lastBatchSize) {
      windowTimer = setTimeout(() => {
        windowTimer = null;
        flush();
      }, windowMs);
    } else setImmediate(flush);
  };

  /** Marks a failure that left no transaction open (SQLite rolled back the whole batch). */
  class BatchAborted extends Error {}

  const runBatch = db.transaction((batch: Pending[], outcomes: Outcome[]) => {
    for (let i = 0; i < batch.length; i++) {
      try {
        outcomes[i] = { ok: true, value: batch[i].op() };
      } catch (error) {
        outcomes[i] = { ok: false, error: isApiError(error) ? error : options.storeFailure() };
        // Some errors (disk full, I/O) make SQLite roll back the whole transaction; anything
        // after that would run in autocommit mode, outside the batch. Stop and fail the batch.
        if (!isApiError(error) && !db.inTransaction) throw new BatchAborted();
      }
    }
  });

  function flush(): void {
    scheduled = false;
    if (queue.length === 0) return;
    const batch = queue.length > maxBatch ? queue.splice(0, maxBatch) : queue;
    queue = batch === queue ? [] : queue;
    lastBatchSize = batch.length;
    if (queue.length > 0) schedule();
    const outcomes: Outcome[] = new Array(batch.length);
    let committed = true;
    const deferSync = durableWal !== null && db.open;
    try {
      if (!db.open) throw new Error("store closed");
      if (deferSync) db.pragma("synchronous = NORMAL");
      runBatch.immediate(batch, outcomes);
    } catch {
      committed = false;
      options.onRollback?.();
    } finally {
      if (deferSync && db.open) db.pragma("synchronous = FULL");
    }
    stats.batches++;
    stats.ops += batch.length;
    if (batch.length > stats.largestBatch) stats.largestBatch = batch.length;
    if (committed && deferSync && durableWal !== null) {
      // Acknowledged once on disk; a failed fsync acknowledges nothing (the store failed).
      syncWal(durableWal).then(
        () => settle(batch, outcomes, true),
        () => settle(batch, outcomes, false),
      );
    } else settle(batch, outcomes, committed);
  }

  function settle(batch: Pending[], outcomes: Outcome[], committed: boolean): void {
    for (let i = 0; i < batch.length; i++) {
      const o = outcomes[i];
      if (o && !o.ok && (committed || isApiError(o.error))) batch[i].reject(o.error);
      else if (!committed) batch[i].reject(options.storeFailure());
      else batch[i].resolve((o as { value: unknown }).value);
    }
  }

  return {
    submit<T>(op: () => T): Promise<T> {
      if (closed) return Promise.reject(options.storeFailure());
      return new Promise<T>((resolve, reject) => {
        queue.push({ op, resolve: resolve as (v: unknown) => void, reject });
        schedule();
      });
    },
    flush() {
      while (queue.length > 0) flush();
    },
    stats: () => ({ ...stats }),
    close() {
      if (windowTimer) clearTimeout(windowTimer);
      windowTimer = null;
      this.flush();
      closed = true;
    },
  };
}
