/**
 * The one module that owns the SQLite driver (`@photostructure/sqlite`, the `node:sqlite` API as an
 * N-API addon whose prebuilt binaries ship inside its npm tarball, so installing compiles nothing).
 * Every store opens its file with `openSqlite` and sees only this thin wrapper: the subset of the
 * better-sqlite3 API the stores were written against, with its behaviour kept where the stores
 * rely on it (transactions nest as savepoints, errors are `SqliteError`s whose `code` is SQLite's
 * extended result code name, a closed handle throws "The database connection is not open", a 5 s
 * busy timeout by default, the stores' 16 MB page cache in `PAGE_CACHE_PRAGMA`).
 * Why this package and what differs: docs/operations.md#sqlite-driver.
 */
import { DatabaseSync, type DatabaseSyncInstance, type StatementSyncInstance } from "@photostructure/sqlite";

/** A failed SQLite call; `code` is the extended result code's name (`SQLITE_BUSY`, `SQLITE_CONSTRAINT_UNIQUE`). */
export class SqliteError extends Error {
  readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.name = "SqliteError";
    this.code = code;
  }
}

/** What `openSqlite` takes. */
export interface SqliteOptions {
  /** Open read-only (default false). */
  readonly?: boolean;
  /** How long a statement waits for another connection's lock before `SQLITE_BUSY`, ms (default 5000). */
  timeoutMs?: number;
  /** Called with the SQL of every statement run, parameters filled in (transaction control included). */
  trace?: (sql: string) => void;
}

interface SqliteRunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

/** A prepared statement: `P` its parameters, `R` the row it reads. */
export interface SqliteStatement<P extends unknown[] = unknown[], R = unknown> {
  run(...params: P): SqliteRunResult;
  get(...params: P): R | undefined;
  all(...params: P): R[];
  /** Read the first column's value instead of the row (`R` stays what the caller declared). */
  pluck(on?: boolean): this;
}

/** Parameters as the caller declares them: a tuple, or one object of named parameters. */
type StatementOf<P, R> = P extends unknown[] ? SqliteStatement<P, R> : SqliteStatement<[P], R>;

/** `fn` run in a transaction; the variants pick how it begins (only the outermost call begins one). */
interface SqliteTransaction<F extends (...args: never[]) => unknown> {
  (...args: Parameters<F>): ReturnType<F>;
  deferred: SqliteTransaction<F>;
  immediate: SqliteTransaction<F>;
  exclusive: SqliteTransaction<F>;
}

interface SqliteFunctionOptions {
  deterministic?: boolean;
  directOnly?: boolean;
  varargs?: boolean;
}

/** One open connection. */
export interface Sqlite {
  prepare<P extends unknown[] | object = unknown[], R = unknown>(sql: string): StatementOf<P, R>;
  /** Run one or more statements (no parameters, nothing read). */
  exec(sql: string): void;
  /**
   * `fn` inside BEGIN/COMMIT, or inside SAVEPOINT/RELEASE when a transaction is already open; on a
   * throw, ROLLBACK (or ROLLBACK TO and RELEASE) if SQLite has not already rolled back, and rethrow.
   */
  transaction<F extends (...args: never[]) => unknown>(fn: F): SqliteTransaction<F>;
  /** `PRAGMA source`: every row, or with `simple` the first row's first column. */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  /** A SQL function calling `fn`; what `fn` throws reaches the statement's caller unchanged. */
  function(name: string, fn: (...args: never[]) => unknown): void;
  function(name: string, options: SqliteFunctionOptions, fn: (...args: never[]) => unknown): void;
  /** Close (again: nothing). */
  close(): void;
  readonly open: boolean;
  readonly inTransaction: boolean;
}

/** Busy timeout when the caller names none, ms (better-sqlite3's, which the stores were tuned with). */
const DEFAULT_TIMEOUT_MS = 5000;

/**
 * better-sqlite3's page cache (16 MB per connection; this build's default is 2 MB), as a pragma a
 * store runs with its others: setting it reads the schema, so `openSqlite` itself does not (opening
 * reads nothing, and a damaged or locked file fails the store's first statement as before).
 */
export const PAGE_CACHE_PRAGMA = "cache_size = -16000";

/** Primary result codes by number. */
const PRIMARY: Record<number, string> = {
  0: "OK",
  1: "ERROR",
  2: "INTERNAL",
  3: "PERM",
  4: "ABORT",
  5: "BUSY",
  6: "LOCKED",
  7: "NOMEM",
  8: "READONLY",
  9: "INTERRUPT",
  10: "IOERR",
  11: "CORRUPT",
  12: "NOTFOUND",
  13: "FULL",
  14: "CANTOPEN",
  15: "PROTOCOL",
  16: "EMPTY",
  17: "SCHEMA",
  18: "TOOBIG",
  19: "CONSTRAINT",
  20: "MISMATCH",
  21: "MISUSE",
  22: "NOLFS",
  23: "AUTH",
  24: "FORMAT",
  25: "RANGE",
  26: "NOTADB",
  27: "NOTICE",
  28: "WARNING",
  100: "ROW",
  101: "DONE",
};

/** Extended result codes (sqlite3.h): code = primary | (index << 8), index 1 first; "" where none. */
const EXTENDED: Record<number, string[]> = {
  0: ["LOAD_PERMANENTLY", "SYMLINK"],
  1: ["MISSING_COLLSEQ", "RETRY", "SNAPSHOT"],
  4: ["", "ROLLBACK"],
  5: ["RECOVERY", "SNAPSHOT"],
  6: ["SHAREDCACHE", "VTAB"],
  8: ["RECOVERY", "CANTLOCK", "ROLLBACK", "DBMOVED", "CANTINIT", "DIRECTORY"],
  10: [
    "READ",
    "SHORT_READ",
    "WRITE",
    "FSYNC",
    "DIR_FSYNC",
    "TRUNCATE",
    "FSTAT",
    "UNLOCK",
    "RDLOCK",
    "DELETE",
    "BLOCKED",
    "NOMEM",
    "ACCESS",
    "CHECKRESERVEDLOCK",
    "LOCK",
    "CLOSE",
    "DIR_CLOSE",
    "SHMOPEN",
    "SHMSIZE",
    "SHMLOCK",
    "SHMMAP",
    "SEEK",
    "DELETE_NOENT",
    "MMAP",
    "GETTEMPPATH",
    "CONVPATH",
    "VNODE",
    "AUTH",
    "BEGIN_ATOMIC",
    "COMMIT_ATOMIC",
    "ROLLBACK_ATOMIC",
    "DATA",
    "CORRUPTFS",
    "IN_PAGE",
  ],
  11: ["VTAB", "SEQUENCE", "INDEX"],
  14: ["NOTEMPDIR", "ISDIR", "FULLPATH", "CONVPATH", "DIRTYWAL", "SYMLINK"],
  19: ["CHECK", "COMMITHOOK", "FOREIGNKEY", "FUNCTION", "NOTNULL", "PRIMARYKEY", "TRIGGER", "UNIQUE", "VTAB", "ROWID", "PINNED", "DATATYPE"],
  23: ["USER"],
  27: ["RECOVER_WAL", "RECOVER_ROLLBACK", "RBU"],
  28: ["AUTOINDEX"],
};

/**
 * The name of an (extended) result code, as better-sqlite3 named it.
 * @example sqliteCodeName(2067) // "SQLITE_CONSTRAINT_UNIQUE"
 */
export function sqliteCodeName(code: number): string {
  const primary = PRIMARY[code & 0xff];
  const index = code >> 8;
  const extended = index === 0 ? "" : EXTENDED[code & 0xff]?.[index - 1];
  if (primary === undefined || extended === undefined || (index > 0 && extended === "")) return `UNKNOWN_SQLITE_ERROR_${code}`;
  return extended === "" ? `SQLITE_${primary}` : `SQLITE_${primary}_${extended}`;
}

/** The driver's error as the stores know it: SQLite's own failures become `SqliteError`s. */
function translate(error: unknown, open: boolean): unknown {
  const e = error as { code?: unknown; errcode?: unknown; message?: unknown };
  if (e?.code === "ERR_SQLITE_ERROR" && typeof e.errcode === "number") return new SqliteError(String(e.message), sqliteCodeName(e.errcode));
  if (e?.code === "ERR_INVALID_STATE" && !open) return new TypeError("The database connection is not open");
  return error;
}

class Statement implements SqliteStatement {
  readonly #raw: StatementSyncInstance;
  readonly #conn: Connection;
  #pluck = false;

  constructor(raw: StatementSyncInstance, conn: Connection) {
    this.#raw = raw;
    this.#conn = conn;
    // better-sqlite3 ignored keys of a named-parameter object that the SQL does not use.
    raw.setAllowUnknownNamedParameters(true);
  }

  run(...params: unknown[]): SqliteRunResult {
    try {
      return this.#raw.run(...params);
    } catch (error) {
      throw translate(error, this.#conn.raw.isOpen);
    } finally {
      this.#traced();
    }
  }

  get(...params: unknown[]): unknown {
    try {
      const row = this.#raw.get(...params) as unknown[] | undefined;
      return this.#pluck ? row?.[0] : row;
    } catch (error) {
      throw translate(error, this.#conn.raw.isOpen);
    } finally {
      this.#traced();
    }
  }

  all(...params: unknown[]): unknown[] {
    try {
      const rows = this.#raw.all(...params) as unknown[];
      return this.#pluck ? rows.map((r) => (r as unknown[])[0]) : rows;
    } catch (error) {
      throw translate(error, this.#conn.raw.isOpen);
    } finally {
      this.#traced();
    }
  }

  pluck(on = true): this {
    this.#raw.setReturnArrays(on);
    this.#pluck = on;
    return this;
  }

  #traced(): void {
    const trace = this.#conn.trace;
    if (trace === undefined || !this.#conn.raw.isOpen) return;
    trace(this.#raw.expandedSQL ?? this.#raw.sourceSQL);
  }
}

/** Transaction control statements, prepared once per connection on first use. */
interface Control {
  begin: Record<"deferred" | "immediate" | "exclusive", Statement>;
  commit: Statement;
  rollback: Statement;
  savepoint: Statement;
  release: Statement;
  rollbackTo: Statement;
}

/** A savepoint name no store's SQL uses (better-sqlite3 used one of the same kind). */
const SAVEPOINT = '"\t_optionscope_txn\t"';

class Connection implements Sqlite {
  readonly raw: DatabaseSyncInstance;
  readonly trace: ((sql: string) => void) | undefined;
  #control: Control | undefined;

  constructor(raw: DatabaseSyncInstance, trace: ((sql: string) => void) | undefined) {
    this.raw = raw;
    this.trace = trace;
  }

  get open(): boolean {
    return this.raw.isOpen;
  }

  get inTransaction(): boolean {
    return this.raw.isOpen && this.raw.isTransaction;
  }

  prepare<P extends unknown[] | object = unknown[], R = unknown>(sql: string): StatementOf<P, R> {
    try {
      return new Statement(this.raw.prepare(sql), this) as unknown as StatementOf<P, R>;
    } catch (error) {
      throw translate(error, this.raw.isOpen);
    }
  }

  exec(sql: string): void {
    try {
      this.raw.exec(sql);
    } catch (error) {
      throw translate(error, this.raw.isOpen);
    } finally {
      if (this.trace !== undefined && this.raw.isOpen) this.trace(sql);
    }
  }

  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const stmt = this.prepare(`PRAGMA ${source}`);
    return options.simple ? stmt.pluck().get() : stmt.all();
  }

  function(name: string, ...rest: [(...args: never[]) => unknown] | [SqliteFunctionOptions, (...args: never[]) => unknown]): void {
    const [options, fn] = rest.length === 1 ? [{}, rest[0]] : rest;
    const { deterministic = false, directOnly = false, varargs = false } = options;
    try {
      this.raw.function(name, { deterministic, directOnly, varargs }, fn);
    } catch (error) {
      throw translate(error, this.raw.isOpen);
    }
  }

  close(): void {
    if (this.raw.isOpen) this.raw.close();
  }

  transaction<F extends (...args: never[]) => unknown>(fn: F): SqliteTransaction<F> {
    const variant = (mode: keyof Control["begin"]) => {
      const conn = this;
      return function sqliteTransaction(this: unknown, ...args: Parameters<F>): ReturnType<F> {
        const c = conn.#controls();
        const nested = conn.inTransaction;
        const [before, after, undo] = nested ? [c.savepoint, c.release, c.rollbackTo] : [c.begin[mode], c.commit, c.rollback];
        before.run();
        try {
          const result = fn.apply(this, args) as ReturnType<F>;
          if (typeof (result as { then?: unknown } | null)?.then === "function") throw new TypeError("Transaction function cannot return a promise");
          after.run();
          return result;
        } catch (error) {
          // SQLite may have rolled the whole transaction back already (SQLITE_FULL, IOERR, BUSY...).
          if (conn.inTransaction) {
            undo.run();
            if (nested) after.run();
          }
          throw error;
        }
      };
    };
    const deferred = variant("deferred");
    const immediate = variant("immediate");
    const exclusive = variant("exclusive");
    for (const f of [deferred, immediate, exclusive]) Object.assign(f, { deferred, immediate, exclusive });
    return deferred as unknown as SqliteTransaction<F>;
  }

  #controls(): Control {
    if (this.#control === undefined) {
      const s = (sql: string) => this.prepare(sql) as unknown as Statement;
      this.#control = {
        begin: { deferred: s("BEGIN"), immediate: s("BEGIN IMMEDIATE"), exclusive: s("BEGIN EXCLUSIVE") },
        commit: s("COMMIT"),
        rollback: s("ROLLBACK"),
        savepoint: s(`SAVEPOINT ${SAVEPOINT}`),
        release: s(`RELEASE ${SAVEPOINT}`),
        rollbackTo: s(`ROLLBACK TO ${SAVEPOINT}`),
      };
    }
    return this.#control;
  }
}

/**
 * Open (creating a missing file unless `readonly`) the database at `path` (`":memory:"` for one in memory).
 * @example const db = openSqlite(":memory:"); db.prepare("SELECT 1 AS one").get() // { one: 1 }
 */
export function openSqlite(path: string, options: SqliteOptions = {}): Sqlite {
  const timeout = Math.max(0, Math.floor(options.timeoutMs ?? DEFAULT_TIMEOUT_MS));
  let raw: DatabaseSyncInstance;
  try {
    raw = new DatabaseSync(path, { readOnly: options.readonly ?? false, timeout });
  } catch (error) {
    throw translate(error, true);
  }
  return new Connection(raw, options.trace);
}
