/**
 * Whether a thrown value is a backing store that could not be used (PostgreSQL via `postgres`,
 * Redis via `ioredis`, SQLite via `server/sqlite.ts`) rather than a programming error: the one
 * classifier behind the 503 `store_unavailable` of every renderer. The lists of codes and
 * messages, and why each is there, are in docs/operations.md#store-failures-that-reach-no-guard.
 */

/** Node's socket-level failures: the store's host or port did not answer, or dropped us. */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

/** The `postgres` driver's own connection codes, and a store call past its deadline (store-deadline.ts). */
const PG_CLIENT_CODES = new Set(["CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT", "STORE_TIMEOUT"]);

/** SQLSTATEs of a server that is there but cannot serve now (classes 08, 53, 57P, 58; retryable 40). */
const PG_SQLSTATE = /^(08|53|58|57P0[1-5]$|57014$|40001$|40P01$|55P03$|25006$)/;

/** SQLite result codes of a database that is busy, locked, unreadable or unwritable (extended codes included). */
const SQLITE_CODE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|PROTOCOL|CORRUPT|NOTADB)(_|$)/;

/** Messages of `server/sqlite.ts` (closed handle) and `ioredis` (no connection, offline queue off, timeout). */
const CLIENT_MESSAGES = [
  /^The database connection is not open$/,
  /^Connection is closed\.$/,
  /^Stream isn't writeable and enableOfflineQueue options is false$/,
  /^Command timed out$/,
];

/** Redis replies of a server that is loading, busy, read-only or without its primary. */
const REDIS_REPLY = /^(LOADING|BUSY|READONLY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|NOREPLICAS) /;

/** One error object, without following `cause`. */
function isOutageItself(error: object): boolean {
  const e = error as { name?: unknown; code?: unknown; message?: unknown };
  const name = typeof e.name === "string" ? e.name : "";
  const code = typeof e.code === "string" ? e.code : "";
  const message = typeof e.message === "string" ? e.message : "";
  if (NETWORK_CODES.has(code) || PG_CLIENT_CODES.has(code)) return true;
  if (name === "PostgresError") return PG_SQLSTATE.test(code);
  if (name === "SqliteError") return SQLITE_CODE.test(code);
  if (name === "MaxRetriesPerRequestError") return true;
  if (name === "ReplyError") return REDIS_REPLY.test(message);
  return CLIENT_MESSAGES.some((m) => m.test(message));
}

/**
 * True when `error` (or an error in its `cause` chain, or one of an `AggregateError`'s) says a
 * store could not be reached or used. A SQL syntax error, a constraint violation or a plain
 * `TypeError` is a programming error: false.
 * @example isStoreOutage(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })) // true
 */
export function isStoreOutage(error: unknown): boolean {
  const seen = new Set<object>();
  const visit = (e: unknown): boolean => {
    if (typeof e !== "object" || e === null || seen.has(e)) return false;
    seen.add(e);
    if (isOutageItself(e)) return true;
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some(visit)) return true;
    return visit((e as { cause?: unknown }).cause);
  };
  return visit(error);
}
