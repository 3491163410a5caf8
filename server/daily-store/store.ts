// The persisted daily store: finished sessions' derived data (flow session summaries, volatility
// closing readings) in one SQLite file of the data directory, keyed by (kind, symbol, session)
// with the fingerprint of the market and formulas that produced each row. A finished session
// never changes, so each row is computed once per data directory; a row with another fingerprint
// is stale and reads as missing (the next write replaces it).
// See docs/architecture.md#persisted-daily-store and docs/operations.md#daily-store.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { DATA_DIR_MODE, DB_FILE_MODE } from "../accounts/open-db";
import type { Logger } from "../services";
import { openSqlite, PAGE_CACHE_PRAGMA, type Sqlite, type SqliteStatement } from "../sqlite";
import { decodeDaily, encodeDaily, encodeDailyOffThread } from "./codec";
import { corruptionError, headerProblem, isCorruptionError, moveAside } from "./corruption";
import { type BodyWrite, createDeferredWrites, isLockBusy } from "./deferred-writes";
import { kindFingerprint } from "./fingerprint";
import { DAILY_KINDS, type DailyKind } from "./kinds";
import { createFillTracker, type FillTracker } from "./progress";

/** File name of the store inside the data directory. */
export const DAILY_DB_FILE = "daily.sqlite";

/** Path of the store for a data directory. */
export function dailyDbPath(dataDir: string): string {
  return join(dataDir, DAILY_DB_FILE);
}

/** One row to write. */
export interface DailyRow<T = unknown> {
  symbol: string;
  session: string;
  value: T;
}

/** Reads and writes of one open store (tests count them; status pages show them). */
interface DailyStoreStats {
  hits: number;
  misses: number;
  writes: number;
  /** Rows written late because another connection held the file (`lockedWrites: "defer"`). */
  writesDeferred: number;
  /** Rows given up after waiting too long for the lock, or that failed to write. */
  writesDropped: number;
}

export interface DailyDataStore {
  readonly path: string;
  /** The market identity rows are fingerprinted with (`marketIdentity`). */
  readonly identity: string;
  /** The value of (kind, symbol, session), or undefined when absent or stale. `null` is a stored value. */
  get<T>(kind: DailyKind, symbol: string, session: string): T | undefined;
  /**
   * The stored body of (kind, symbol, session) as `encodeDaily` made it, not decoded (a worker
   * decodes it: `SUMMARY_PREMIUMS`), or undefined when absent or stale. Absent on a test's stand-in store.
   */
  getEncoded?(kind: DailyKind, symbol: string, session: string): Uint8Array | undefined;
  /** Every symbol's fresh value of one session. */
  session<T>(kind: DailyKind, session: string): Map<string, T>;
  /** One symbol's fresh values of the sessions in `[from, to]`, by session. */
  range<T>(kind: DailyKind, symbol: string, from: string, to: string): Map<string, T>;
  /** The symbols with a fresh value at `session`. */
  symbolsAt(kind: DailyKind, session: string): Set<string>;
  /** Write one value (replacing a stale row). */
  put<T>(kind: DailyKind, symbol: string, session: string, value: T): void;
  /**
   * `put`, its compression on the thread pool (the calling thread only serialises the value):
   * what a request loop writes. Resolves once written; a closed store writes nothing.
   */
  putOffThread?<T>(kind: DailyKind, symbol: string, session: string, value: T): Promise<void>;
  /**
   * Write a body `encodeDaily` made (in a worker: `FLOW_SUMMARY_STORED`), so the calling thread
   * neither encodes nor compresses. Absent on a test's stand-in store.
   */
  putEncoded?(kind: DailyKind, symbol: string, session: string, body: Uint8Array): void;
  /** Write many values in one transaction: all of them or, if any fails, none. */
  putMany<T>(kind: DailyKind, rows: readonly DailyRow<T>[]): void;
  /** Fresh rows of `kind`. */
  count(kind: DailyKind): number;
  stats(): DailyStoreStats;
  /** Progress of the background fill (updated by the filler, read by the modules). */
  readonly fill: FillTracker;
  /**
   * Call `listener` whenever the file was replaced by an empty store (it was corrupt, here or in
   * another process), so the filler starts over on the new file. Returns the unsubscribe.
   */
  onReset(listener: () => void): () => void;
  /** Another connection to this file (the fill worker's) met corruption: recover as a read would. */
  reportCorruption(error: unknown): void;
  close(): void;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS daily (
  kind TEXT NOT NULL,
  symbol TEXT NOT NULL,
  session TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  body BLOB NOT NULL,
  PRIMARY KEY (kind, symbol, session)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS daily_by_session ON daily (kind, session);
`;

/** Owner-only file (and its -wal/-shm) in an owner-only directory, as the accounts store. */
function prepareFile(path: string): void {
  const dir = dirname(resolve(path));
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: DATA_DIR_MODE });
  closeSync(openSync(path, "a", DB_FILE_MODE));
}

function restrict(path: string): void {
  for (const p of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(p, DB_FILE_MODE);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "EPERM") throw error;
    }
  }
}

/**
 * How often an open store looks whether its file was replaced (another process recovered it), ms.
 * @see docs/operations.md#corrupt-daily-store
 */
const FOLLOW_CHECK_MS = 1000;

/** SQLite's busy timeout of a connection that waits for another's lock, ms. */
const WAITING_BUSY_TIMEOUT_MS = 5000;

/** One SQLite connection to the file and its statements. */
interface Connection {
  db: Sqlite;
  /** Inode of the file it opened: a different one at `path` means the file was replaced. */
  ino: number;
  get: SqliteStatement;
  session: SqliteStatement;
  range: SqliteStatement;
  symbols: SqliteStatement;
  put: SqliteStatement;
  count: SqliteStatement;
  putAll: (kind: DailyKind, rows: readonly DailyRow[]) => void;
  /** Encoded rows of any kinds in one transaction. */
  putBodies: (writes: readonly BodyWrite[]) => void;
}

/**
 * Connect to the file at `path`; with `check`, a damaged file throws a corruption error
 * (`PRAGMA quick_check`, which reads every page but checks no index against its table).
 */
function connect(path: string, fp: Record<DailyKind, string>, check: boolean, busyTimeoutMs: number): Connection {
  prepareFile(path);
  // Opening waits like any connection (another process may be creating the file); `defer` stores
  // stop waiting once open.
  const db = openSqlite(path, { timeoutMs: WAITING_BUSY_TIMEOUT_MS });
  try {
    db.pragma(PAGE_CACHE_PRAGMA);
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    if (check) {
      const found = (db.pragma("quick_check(5)") as { quick_check: string }[]).map((r) => r.quick_check);
      if (found.join() !== "ok") throw corruptionError(`quick_check: ${found.join("; ").slice(0, 500)}`);
    }
    db.exec(SCHEMA);
    restrict(path);
    if (busyTimeoutMs !== WAITING_BUSY_TIMEOUT_MS) db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  } catch (error) {
    db.close();
    throw error;
  }
  const put = db.prepare("INSERT OR REPLACE INTO daily (kind, symbol, session, fingerprint, body) VALUES (?, ?, ?, ?, ?)");
  const insertAll = db.transaction((kind: DailyKind, rows: readonly DailyRow[], bodies: readonly Buffer[]) => {
    for (let i = 0; i < rows.length; i++) put.run(kind, rows[i].symbol, rows[i].session, fp[kind], bodies[i]);
  });
  const insertBodies = db.transaction((writes: readonly BodyWrite[]) => {
    for (const w of writes) put.run(w.kind, w.symbol, w.session, fp[w.kind], w.body);
  });
  return {
    db,
    ino: statSync(path).ino,
    get: db.prepare("SELECT body FROM daily WHERE kind = ? AND symbol = ? AND session = ? AND fingerprint = ?").pluck(),
    session: db.prepare("SELECT symbol, body FROM daily WHERE kind = ? AND session = ? AND fingerprint = ?"),
    range: db.prepare("SELECT session, body FROM daily WHERE kind = ? AND symbol = ? AND session BETWEEN ? AND ? AND fingerprint = ?"),
    symbols: db.prepare("SELECT symbol FROM daily WHERE kind = ? AND session = ? AND fingerprint = ?").pluck(),
    put,
    count: db.prepare("SELECT count(*) FROM daily WHERE kind = ? AND fingerprint = ?").pluck(),
    // Encoded before the transaction: the write lock, which the server's loop may be waiting for
    // (the fill writes from its own thread), is held only for the inserts. A value that cannot be
    // encoded still writes none of the rows.
    putAll: (kind: DailyKind, rows: readonly DailyRow[]) =>
      insertAll(
        kind,
        rows,
        rows.map((r) => encodeDaily(r.value)),
      ),
    putBodies: (writes) => insertBodies(writes),
  };
}

/** A stored body that no longer decodes (a damaged row in a sound file) reads as missing. */
function decodeOrMiss<T>(body: Uint8Array): T | undefined {
  try {
    return decodeDaily<T>(body);
  } catch {
    return undefined;
  }
}

export interface DailyStoreOptions {
  /** Progress tracker shared with the filler (default: a new one). */
  fill?: FillTracker;
  /**
   * A corrupt file: `recover` (default) checks the file at open and moves a damaged one aside for
   * a fresh store, at open and whenever a read or write meets corruption; `throw` checks nothing
   * and lets the errors through (the fill worker: its server recovers for it).
   */
  corruption?: "recover" | "throw";
  /** Where a recovery is logged (`daily_store_corrupt`). */
  log?: Logger;
  /** Wall clock of the moved-aside file's name (tests pin it). */
  nowMs?: () => number;
  /**
   * When another connection (the fill worker's) holds the file's write lock: `wait` (default) up
   * to SQLite's busy timeout, 5 s; `defer` (the server's event loop) never waits: a write is kept
   * and retried later (`deferred-writes.ts`) and a read that meets the lock reads as a miss.
   * See docs/operations.md#daily-store-locks.
   */
  lockedWrites?: "wait" | "defer";
}

/**
 * Open (creating if needed) the store at `path` for the market `identity`. WAL lets the fill
 * worker write while the server reads; `synchronous=NORMAL` is enough for data that can always
 * be recomputed (a commit lost on power loss is filled again). A corrupt file is moved aside and
 * replaced by an empty store (see `DailyStoreOptions.corruption`, docs/operations.md#corrupt-daily-store).
 * @example const store = openDailyStore(dailyDbPath(dataDir), marketIdentity({ kind: "simulated", seed: 42 }));
 */
export function openDailyStore(path: string, identity: string, options: DailyStoreOptions = {}): DailyDataStore {
  const recovering = (options.corruption ?? "recover") === "recover";
  const log = options.log ?? (() => {});
  const wallMs = options.nowMs ?? Date.now;
  const fp = Object.fromEntries(DAILY_KINDS.map((k) => [k, kindFingerprint(identity, k)])) as Record<DailyKind, string>;
  const stats = { hits: 0, misses: 0, writes: 0 };
  const defers = options.lockedWrites === "defer";
  const busyTimeoutMs = defers ? 0 : WAITING_BUSY_TIMEOUT_MS;
  const resetListeners = new Set<() => void>();
  let closed = false;
  let followCheckedAt = performance.now();

  /** Move the file aside (unless another process already replaced it) and log why. */
  const setAside = (why: string, at: "open" | "run") => {
    const now = statSync(path, { throwIfNoEntry: false });
    const movedTo = now && (!c || now.ino === c.ino) ? moveAside(path, wallMs()) : null;
    log({ ts: new Date().toISOString(), level: "error", msg: "daily_store_corrupt", file: path, movedTo, at, error: why.slice(0, 500) });
  };
  const reset = () => {
    for (const l of [...resetListeners]) {
      try {
        l();
      } catch {
        // a listener's failure must not fail the read that found the corruption
      }
    }
  };

  let c: Connection | null = null;
  try {
    if (!recovering) c = connect(path, fp, false, busyTimeoutMs);
    else {
      const problem = headerProblem(path);
      if (problem) setAside(problem, "open");
      try {
        c = connect(path, fp, true, busyTimeoutMs);
      } catch (error) {
        if (!isCorruptionError(error)) throw error;
        setAside(String((error as Error).message), "open");
        c = connect(path, fp, false, busyTimeoutMs);
      }
    }
  } catch (error) {
    // What stops a start names the file (a full disk, a directory without write permission).
    throw Object.assign(new Error(`daily store ${path}: ${(error as Error)?.message ?? error}`, { cause: error }), { code: (error as { code?: unknown })?.code });
  }

  /** The open connection, reconnecting after a recovery whose reopen failed (disk full, ...). */
  const conn = (): Connection => {
    if (closed || !recovering) return c!;
    const t = performance.now();
    if (c && t - followCheckedAt >= FOLLOW_CHECK_MS) {
      followCheckedAt = t;
      // Another process found the file corrupt and replaced it: follow it to the new file.
      if (statSync(path, { throwIfNoEntry: false })?.ino !== c.ino) {
        c.db.close();
        c = null;
        log({ ts: new Date().toISOString(), level: "info", msg: "daily_store_replaced", file: path });
        c = connect(path, fp, false, busyTimeoutMs);
        reset();
      }
    }
    if (!c) {
      // The reopen after a recovery failed (a full disk): this one starts the refill instead.
      c = connect(path, fp, false, busyTimeoutMs);
      reset();
    }
    return c;
  };

  /** Move the corrupt file aside and start a fresh store in its place; listeners refill it. */
  const recover = (error: unknown) => {
    const was = c;
    setAside(String((error as Error)?.message ?? error), "run");
    c = null;
    try {
      was?.db.close();
    } catch {
      // closing a damaged file may fail; the handle is dropped either way
    }
    c = connect(path, fp, false, busyTimeoutMs);
    reset();
  };

  /** `op` on the connection; on corruption (when recovering) the store is rebuilt and `after` answers. */
  const guarded = <T>(op: (k: Connection) => T, after: () => T): T => {
    const k = conn();
    try {
      return op(k);
    } catch (error) {
      // A read that meets another connection's lock without waiting: `after` is the miss.
      if (defers && isLockBusy(error)) return after();
      if (!recovering || closed || !isCorruptionError(error)) throw error;
      recover(error);
      return after();
    }
  };

  /** Encoded rows in one transaction, retried on a new connection after a recovery. */
  const writeAll = (writes: readonly BodyWrite[]) =>
    guarded(
      (k) => k.putBodies(writes),
      () => conn().putBodies(writes),
    );
  const deferred = defers
    ? createDeferredWrites({
        writeAll,
        onError: (error, dropped) =>
          log({
            ts: new Date().toISOString(),
            level: "error",
            msg: "daily_store_write_failed",
            file: path,
            dropped,
            error: String((error as Error)?.message ?? error).slice(0, 500),
          }),
      })
    : null;
  /** Now, or (a `defer` store while another connection holds the lock) later. */
  const writeBodies = (writes: readonly BodyWrite[]) => {
    if (deferred) deferred.write(writes);
    else writeAll(writes);
    stats.writes += writes.length;
  };

  return {
    path,
    identity,
    getEncoded(kind: DailyKind, symbol: string, session: string) {
      const body = guarded(
        (k) => k.get.get(kind, symbol, session, fp[kind]) as Uint8Array | undefined,
        () => undefined,
      );
      if (body === undefined) stats.misses++;
      else stats.hits++;
      return body;
    },
    get<T>(kind: DailyKind, symbol: string, session: string) {
      const body = guarded(
        (k) => k.get.get(kind, symbol, session, fp[kind]) as Uint8Array | undefined,
        () => undefined,
      );
      const value = body === undefined ? undefined : decodeOrMiss<T>(body);
      if (value === undefined) {
        stats.misses++;
        return undefined;
      }
      stats.hits++;
      return value;
    },
    session<T>(kind: DailyKind, session: string) {
      const rows = guarded(
        (k) => k.session.all(kind, session, fp[kind]) as { symbol: string; body: Uint8Array }[],
        () => [],
      );
      const out = new Map<string, T>();
      for (const r of rows) {
        const v = decodeOrMiss<T>(r.body);
        if (v !== undefined) out.set(r.symbol, v);
      }
      stats.hits += out.size;
      return out;
    },
    range<T>(kind: DailyKind, symbol: string, from: string, to: string) {
      const rows = guarded(
        (k) => k.range.all(kind, symbol, from, to, fp[kind]) as { session: string; body: Uint8Array }[],
        () => [],
      );
      const out = new Map<string, T>();
      for (const r of rows) {
        const v = decodeOrMiss<T>(r.body);
        if (v !== undefined) out.set(r.session, v);
      }
      stats.hits += out.size;
      return out;
    },
    symbolsAt: (kind, session) =>
      new Set(
        guarded(
          (k) => k.symbols.all(kind, session, fp[kind]) as string[],
          () => [],
        ),
      ),
    put(kind, symbol, session, value) {
      writeBodies([{ kind, symbol, session, body: encodeDaily(value) }]);
    },
    async putOffThread(kind, symbol, session, value) {
      const body = await encodeDailyOffThread(value);
      if (closed) return;
      writeBodies([{ kind, symbol, session, body }]);
    },
    putEncoded(kind, symbol, session, body) {
      if (closed) return;
      writeBodies([{ kind, symbol, session, body }]);
    },
    putMany(kind, rows) {
      if (deferred) {
        writeBodies(rows.map((r) => ({ kind, symbol: r.symbol, session: r.session, body: encodeDaily(r.value) })));
        return;
      }
      guarded(
        (k) => k.putAll(kind, rows),
        () => conn().putAll(kind, rows),
      );
      stats.writes += rows.length;
    },
    count: (kind) =>
      guarded(
        (k) => k.count.get(kind, fp[kind]) as number,
        () => 0,
      ),
    stats: () => ({ ...stats, writesDeferred: deferred?.stats().deferred ?? 0, writesDropped: deferred?.stats().dropped ?? 0 }),
    fill: options.fill ?? createFillTracker(),
    onReset(listener) {
      resetListeners.add(listener);
      return () => void resetListeners.delete(listener);
    },
    reportCorruption(error) {
      if (!recovering || closed) return;
      recover(error);
    },
    close() {
      if (closed) return;
      deferred?.close();
      closed = true;
      resetListeners.clear();
      c?.db.close();
    },
  };
}

/**
 * Write a value from a request loop: off-thread compression when the store offers it (every
 * SQLite store does; a test's stand-in may not).
 * @see docs/architecture.md#worker-pools
 */
export function putFromLoop<T>(store: DailyDataStore, kind: DailyKind, symbol: string, session: string, value: T): Promise<void> {
  if (store.putOffThread) return store.putOffThread(kind, symbol, session, value);
  store.put(kind, symbol, session, value);
  return Promise.resolve();
}
