// The persisted daily store: finished sessions' derived data (flow session summaries, volatility
// closing readings) in one SQLite file of the data directory, keyed by (kind, symbol, session)
// with the fingerprint of the market and formulas that produced each row. A finished session
// never changes, so each row is computed once per data directory; a row with another fingerprint
// is stale and reads as missing (the next write replaces it).
// See docs/architecture.md#persisted-daily-store and docs/operations.md#daily-store.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import Database from "better-sqlite3";
import { DATA_DIR_MODE, DB_FILE_MODE } from "../accounts/open-db";
import { decodeDaily, encodeDaily } from "./codec";
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
export interface DailyStoreStats {
  hits: number;
  misses: number;
  writes: number;
}

export interface DailyDataStore {
  readonly path: string;
  /** The market identity rows are fingerprinted with (`marketIdentity`). */
  readonly identity: string;
  /** The value of (kind, symbol, session), or undefined when absent or stale. `null` is a stored value. */
  get<T>(kind: DailyKind, symbol: string, session: string): T | undefined;
  /** Every symbol's fresh value of one session. */
  session<T>(kind: DailyKind, session: string): Map<string, T>;
  /** One symbol's fresh values of the sessions in `[from, to]`, by session. */
  range<T>(kind: DailyKind, symbol: string, from: string, to: string): Map<string, T>;
  /** The symbols with a fresh value at `session`. */
  symbolsAt(kind: DailyKind, session: string): Set<string>;
  /** Write one value (replacing a stale row). */
  put<T>(kind: DailyKind, symbol: string, session: string, value: T): void;
  /** Write many values in one transaction: all of them or, if any fails, none. */
  putMany<T>(kind: DailyKind, rows: readonly DailyRow<T>[]): void;
  /** Fresh rows of `kind`. */
  count(kind: DailyKind): number;
  stats(): DailyStoreStats;
  /** Progress of the background fill (updated by the filler, read by the modules). */
  readonly fill: FillTracker;
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
 * Open (creating if needed) the store at `path` for the market `identity`. WAL lets the fill
 * worker write while the server reads; `synchronous=NORMAL` is enough for data that can always
 * be recomputed (a commit lost on power loss is filled again).
 * @example const store = openDailyStore(dailyDbPath(dataDir), marketIdentity({ kind: "simulated", seed: 42 }));
 */
export function openDailyStore(path: string, identity: string, options: { fill?: FillTracker } = {}): DailyDataStore {
  prepareFile(path);
  const db = new Database(path);
  try {
    db.pragma("busy_timeout = 5000");
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.exec(SCHEMA);
    restrict(path);
  } catch (error) {
    db.close();
    throw error;
  }
  const fp = Object.fromEntries(DAILY_KINDS.map((k) => [k, kindFingerprint(identity, k)])) as Record<DailyKind, string>;
  const qGet = db.prepare("SELECT body FROM daily WHERE kind = ? AND symbol = ? AND session = ? AND fingerprint = ?").pluck();
  const qSession = db.prepare("SELECT symbol, body FROM daily WHERE kind = ? AND session = ? AND fingerprint = ?");
  const qRange = db.prepare("SELECT session, body FROM daily WHERE kind = ? AND symbol = ? AND session BETWEEN ? AND ? AND fingerprint = ?");
  const qSymbols = db.prepare("SELECT symbol FROM daily WHERE kind = ? AND session = ? AND fingerprint = ?").pluck();
  const qPut = db.prepare("INSERT OR REPLACE INTO daily (kind, symbol, session, fingerprint, body) VALUES (?, ?, ?, ?, ?)");
  const qCount = db.prepare("SELECT count(*) FROM daily WHERE kind = ? AND fingerprint = ?").pluck();
  const stats: DailyStoreStats = { hits: 0, misses: 0, writes: 0 };
  const putAll = db.transaction((kind: DailyKind, rows: readonly DailyRow[]) => {
    for (const r of rows) qPut.run(kind, r.symbol, r.session, fp[kind], encodeDaily(r.value));
  });
  let closed = false;
  return {
    path,
    identity,
    get<T>(kind: DailyKind, symbol: string, session: string) {
      const body = qGet.get(kind, symbol, session, fp[kind]) as Buffer | undefined;
      if (body === undefined) {
        stats.misses++;
        return undefined;
      }
      stats.hits++;
      return decodeDaily<T>(body);
    },
    session<T>(kind: DailyKind, session: string) {
      const out = new Map<string, T>();
      for (const r of qSession.iterate(kind, session, fp[kind]) as Iterable<{ symbol: string; body: Buffer }>) out.set(r.symbol, decodeDaily<T>(r.body));
      stats.hits += out.size;
      return out;
    },
    range<T>(kind: DailyKind, symbol: string, from: string, to: string) {
      const out = new Map<string, T>();
      for (const r of qRange.iterate(kind, symbol, from, to, fp[kind]) as Iterable<{ session: string; body: Buffer }>) out.set(r.session, decodeDaily<T>(r.body));
      stats.hits += out.size;
      return out;
    },
    symbolsAt: (kind, session) => new Set(qSymbols.all(kind, session, fp[kind]) as string[]),
    put(kind, symbol, session, value) {
      qPut.run(kind, symbol, session, fp[kind], encodeDaily(value));
      stats.writes++;
    },
    putMany(kind, rows) {
      putAll(kind, rows);
      stats.writes += rows.length;
    },
    count: (kind) => qCount.get(kind, fp[kind]) as number,
    stats: () => ({ ...stats }),
    fill: options.fill ?? createFillTracker(),
    close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}
