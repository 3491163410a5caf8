// Writes to the daily store that never wait for another connection's lock: what the server's
// event loop uses. The fill worker runs below the loop's priority and holds the file's write lock
// for its transactions; on a busy machine it can be off a core with the lock held, and a loop
// waiting in SQLite's busy handler (up to 5 s) sleeps for as long (priority inversion). A
// write that finds the file locked is kept, in order, and retried in one transaction later.
// Rows are derived data: one dropped is recomputed when next needed. See
// docs/operations.md#daily-store-locks.
import type { DailyKind } from "./kinds";

/** One encoded row to write. */
export interface BodyWrite {
  kind: DailyKind;
  symbol: string;
  session: string;
  body: Uint8Array;
}

/** SQLite could not take a lock another connection holds (`SQLITE_BUSY` and its extended codes). */
export function isLockBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

export interface DeferredWritesOptions {
  /** Writes every row in one transaction (all or none); throws `SQLITE_BUSY` while the file is locked. */
  writeAll: (writes: readonly BodyWrite[]) => void;
  /** A write failed for another reason than the lock: its rows are dropped. */
  onError: (error: unknown, dropped: number) => void;
  /** Delay of the first retry, ms; each busy retry doubles it up to `maxDelayMs`. */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** Rows waiting longer than this are dropped, ms. */
  maxAgeMs?: number;
  /** Rows kept at most; the oldest go first. */
  maxRows?: number;
  nowMs?: () => number;
}

export interface DeferredWrites {
  /** Write now, or, while the file is locked (or rows are waiting: order is kept), later. Throws what is not a lock. */
  write(writes: readonly BodyWrite[]): void;
  /** Rows waiting for the lock. */
  pending(): number;
  /** Rows written late and rows dropped since start. */
  stats(): { deferred: number; dropped: number };
  /** One last attempt, without waiting; what is still locked out is dropped. */
  close(): void;
}

const DEFAULTS = { firstDelayMs: 25, maxDelayMs: 1000, maxAgeMs: 60_000, maxRows: 1024 };

/**
 * @example const deferred = createDeferredWrites({ writeAll: (ws) => tx(ws), onError: log });
 * deferred.write([{ kind, symbol, session, body }]); // never sleeps on SQLite's busy handler
 */
export function createDeferredWrites(options: DeferredWritesOptions): DeferredWrites {
  const { firstDelayMs, maxDelayMs, maxAgeMs, maxRows } = { ...DEFAULTS, ...options };
  const now = options.nowMs ?? performance.now.bind(performance);
  let queue: { write: BodyWrite; atMs: number }[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let delayMs = firstDelayMs;
  let closed = false;
  const counts = { deferred: 0, dropped: 0 };

  /** Writes the queue; false while the file is still locked. Other failures drop the rows. */
  const flush = (): boolean => {
    const t = now();
    const fresh = queue.filter((q) => t - q.atMs <= maxAgeMs);
    counts.dropped += queue.length - fresh.length;
    queue = fresh;
    if (queue.length === 0) return true;
    try {
      options.writeAll(queue.map((q) => q.write));
      queue = [];
      return true;
    } catch (error) {
      if (isLockBusy(error)) return false;
      const n = queue.length;
      queue = [];
      counts.dropped += n;
      options.onError(error, n);
      return true;
    }
  };

  const schedule = () => {
    if (timer || closed) return;
    timer = setTimeout(retry, delayMs);
    timer.unref?.();
  };

  function retry(): void {
    timer = null;
    if (flush()) {
      delayMs = firstDelayMs;
      return;
    }
    delayMs = Math.min(delayMs * 2, maxDelayMs);
    schedule();
  }

  return {
    write(writes) {
      if (writes.length === 0 || closed) return;
      if (queue.length === 0) {
        try {
          options.writeAll(writes);
          return;
        } catch (error) {
          if (!isLockBusy(error)) throw error;
        }
      }
      const atMs = now();
      for (const w of writes) queue.push({ write: w, atMs });
      counts.deferred += writes.length;
      if (queue.length > maxRows) {
        counts.dropped += queue.length - maxRows;
        queue.splice(0, queue.length - maxRows);
      }
      schedule();
    },
    pending: () => queue.length,
    stats: () => ({ ...counts }),
    close() {
      if (closed) return;
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      if (!flush()) {
        counts.dropped += queue.length;
        queue = [];
      }
    },
  };
}
