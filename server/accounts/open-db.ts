/**
 * Open the accounts SQLite file with the durability settings the ledger relies on.
 * See docs/operations.md#durability.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { openSqlite, PAGE_CACHE_PRAGMA, type Sqlite } from "../sqlite";
import { migrate } from "./schema";

/** File name of the accounts store inside the data directory. */
const ACCOUNTS_DB_FILE = "accounts.sqlite";

/** Default data directory (DESIGN section 7). */
const DEFAULT_DATA_DIR = "./.optionscope";

/**
 * The data directory: an explicit flag, else `OPTIONSCOPE_DATA_DIR`, else `./.optionscope`.
 * @example resolveDataDir(undefined, {}) // absolute path of ./.optionscope
 */
export function resolveDataDir(flag: string | undefined, env: Record<string, string | undefined>): string {
  return resolve(flag ?? env.OPTIONSCOPE_DATA_DIR ?? DEFAULT_DATA_DIR);
}

/** Path of the accounts store for a data directory. */
export function accountsDbPath(dataDir: string): string {
  return join(dataDir, ACCOUNTS_DB_FILE);
}

export interface OpenDbOptions {
  /** How long a writer waits for another connection's write lock, ms (default 5000). */
  busyTimeoutMs?: number;
  readonly?: boolean;
  /**
   * `full` (default): `synchronous=FULL`, every commit is fsynced, so it survives `kill -9`, an
   * OS crash and power loss. `normal`: `synchronous=NORMAL`, commits survive `kill -9` (the WAL
   * write has reached the OS) but the last ones may be lost on power loss; about 10x faster
   * debits on this machine. See docs/operations.md#durability.
   */
  durability?: "full" | "normal";
  /** Called with the SQL of every statement run, parameters filled in (server/sqlite.ts `trace`). */
  traceSql?: (sql: string) => void;
}

/** Owner-only modes: the store holds key hashes, balances and OAuth grants. */
export const DATA_DIR_MODE = 0o700;
export const DB_FILE_MODE = 0o600;

/**
 * Create the file owner-only before SQLite opens it: SQLite gives the `-wal` and `-shm` files it
 * creates the database file's mode, so all three end up 0600 whatever the umask. Files left by
 * an older build are tightened too.
 */
function prepareDbFile(dbPath: string): void {
  const dir = dirname(resolve(dbPath));
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: DATA_DIR_MODE });
  closeSync(openSync(dbPath, "a", DB_FILE_MODE));
  restrictDbFiles(dbPath);
}

/** chmod 0600 the database file and its `-wal`/`-shm` companions that exist. */
function restrictDbFiles(dbPath: string): void {
  for (const path of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) {
    try {
      chmodSync(path, DB_FILE_MODE);
    } catch (error) {
      // Missing (no -wal yet), or another user's file in a shared directory: leave it as it is.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "EPERM") throw error;
    }
  }
}

/**
 * Open (creating the directory and file if needed) and migrate the store.
 * WAL lets the CLI write while the server reads; `synchronous=FULL` makes every acknowledged
 * commit survive a `kill -9` and an OS crash; `busy_timeout` queues writers instead of failing.
 */
export function openAccountsDb(dbPath: string, options: OpenDbOptions = {}): Sqlite {
  const onDisk = dbPath !== ":memory:" && dbPath !== "";
  if (onDisk && !options.readonly) prepareDbFile(dbPath);
  const db = openSqlite(dbPath, { readonly: options.readonly ?? false, timeoutMs: options.busyTimeoutMs ?? 5000, trace: options.traceSql });
  try {
    if (!options.readonly) {
      db.pragma(PAGE_CACHE_PRAGMA);
      db.pragma("journal_mode = WAL");
      db.pragma(`synchronous = ${options.durability === "normal" ? "NORMAL" : "FULL"}`);
      db.pragma("foreign_keys = ON");
      migrate(db);
      // WAL mode has now created the -wal and -shm files; make sure of their mode.
      if (onDisk) restrictDbFiles(dbPath);
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
