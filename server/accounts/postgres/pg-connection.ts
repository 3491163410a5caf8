/**
 * The PostgreSQL connection pool of the accounts store (porsager's `postgres` driver) and how its
 * failures read: a stopped store is refused at once and an unreachable host after the connect timeout, BIGINT
 * columns come back as numbers (credits stay far below 2^53), and every driver or server error
 * becomes 503 `credit_check_failed` (nothing charged) at the store's edge.
 * See docs/operations.md#postgresql.
 */
import postgres from "postgres";

export type Sql = postgres.Sql<{ int8: number }>;

export interface PgConnectionOptions {
  /** Connections in the pool (default 10). */
  max?: number;
  /**
   * Seconds to wait for a new connection before failing (default 10). A stopped server refuses at
   * once, so this bounds only an unreachable host; shorter values turned pool growth on a loaded
   * machine (a new backend taking seconds to fork) into false 503s.
   */
  connectTimeoutS?: number;
}

/**
 * Longest wait before the driver reconnects a closed connection, s. The driver's own backoff grows
 * to 20 s with the failures of an outage, and a call queued for a connection waits it out, so
 * service came back tens of seconds after the database did (docs/operations.md#store-deadline).
 */
export const PG_RECONNECT_MAX_S = 0.5;
/** TCP keepalive of idle connections, s: a dead peer's connection is found and dropped sooner. */
const PG_KEEPALIVE_S = 10;

/** Reconnect delay after `failures` failed connections in a row, s: 50 ms doubling, capped. */
export function pgReconnectDelayS(failures: number): number {
  return Math.min(PG_RECONNECT_MAX_S, 0.05 * 2 ** Math.max(0, failures - 1));
}

/** Open the pool (lazily: the first query connects). */
export function openPgPool(url: string, options: PgConnectionOptions = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    connect_timeout: options.connectTimeoutS ?? 10,
    idle_timeout: 60,
    keep_alive: PG_KEEPALIVE_S,
    backoff: pgReconnectDelayS,
    // BIGINT (oid 20) as a JS number: balances, caps and ids stay below Number.MAX_SAFE_INTEGER.
    types: { int8: { to: 20, from: [20], serialize: (x: number) => String(x), parse: (x: string) => Number(x) } },
    onnotice: () => {},
    connection: { application_name: "optionscope" },
  }) as unknown as Sql;
}

/**
 * True when the server answered the statement with an error (so it was rolled back and nothing of
 * it is stored); false for connection failures, where a COMMIT may or may not have happened.
 */
export function isServerError(error: unknown): boolean {
  return error instanceof postgres.PostgresError;
}

/** A connection string without its password, for logs and messages. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
}
