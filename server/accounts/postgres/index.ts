/**
 * The accounts service over PostgreSQL, for several server instances sharing one store:
 * `AccountAuth`, `CreditLedger` and `AccountAdmin` over one connection pool, composed like the
 * SQLite service (server/accounts/account-service.ts). Opening it connects and migrates: an
 * unreachable store fails the start. The console's tables and OAuth grants are here too
 * (migration 004). See docs/operations.md#postgresql.
 */
import { isApiError } from "../../errors";
import { DEFAULT_STORE_TIMEOUT_MS, withDeadline } from "../../store-deadline";
import { storeFailure } from "../account-errors";
import { clockFn } from "../_sqlite-store";
import type { AccountService, ClockLike } from "../types";
import { createPgAdmin, type PgAdmin } from "./pg-admin";
import { AUTH_CHANNEL, createPgAuth, type PgAuth } from "./pg-auth";
import { createPgConsoleStore, type PgConsoleStore } from "./pg-console";
import { createPgOAuthStore } from "./pg-oauth";
import type { GrantStanding, OAuthStore, OAuthStoreOptions } from "../../oauth/oauth-store";
import type { ConsoleStoreOptions } from "../console-types";
import type { PgBatcher } from "./pg-batcher";
import { openPgPool, redactUrl, type Sql } from "./pg-connection";
import { createPgLedger, type PgCreditLedger } from "./pg-ledger";
import { createPgStore } from "./pg-store";
import { migratePg } from "./migrate";

export { loadMigrations } from "./migrate";

export interface OpenPostgresOptions {
  /** `postgres://user[:password]@host[:port]/database` */
  url: string;
  clock?: ClockLike;
  /** Pool size (default 10). */
  maxConnections?: number;
  /** Seconds to wait for a new connection (default 10; see `PgConnectionOptions`). */
  connectTimeoutS?: number;
  /**
   * The deadline of one store call, ms (default `DEFAULT_STORE_TIMEOUT_MS`): past it the request
   * answers 503 (docs/operations.md#store-deadline).
   */
  timeoutMs?: number;
  /** Reuse window of an authenticated key row, ms (default 1000; 0 reads on every request). */
  authCacheTtlMs?: number;
  /**
   * Group-commit window of debits and refunds under load, ms (default
   * `DEFAULT_PG_GROUP_COMMIT_WINDOW_MS`; 0: one event-loop turn). See `PgBatcherOptions.windowMs`.
   */
  groupCommitWindowMs?: number;
  isKnownSymbol?: (symbol: string) => boolean;
}

/** The PostgreSQL service: the app's contract and the admin operations, all answering with promises. */
export interface PostgresAccountService
  extends Omit<AccountService, keyof PgAuth | keyof PgCreditLedger | "close" | "openOAuthStore" | "openConsoleStore">,
    PgAuth,
    Omit<PgCreditLedger, "batcher">,
    Omit<PgAdmin, "inTx"> {
  readonly kind: "postgres";
  readonly sql: Sql;
  /** The OAuth tables (migration 004), shared by every instance; `grantStanding` is the service's own. */
  openOAuthStore(options?: Omit<OAuthStoreOptions, "grantStanding">): OAuthStore;
  /** The console tables (migration 004), shared by every instance. */
  openConsoleStore(options?: ConsoleStoreOptions): PgConsoleStore;
  groupCommitStats(): ReturnType<PgBatcher["stats"]>;
  /** Wait for queued debits and in-doubt compensations (tests, shutdown). */
  drain(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Connect, migrate, and return the service. Rejects (with the URL's password hidden) when the
 * store cannot be reached or migrated.
 * @example const accounts = await openPostgresAccountService({ url: "postgres://optionscope@127.0.0.1/optionscope" });
 */
export async function openPostgresAccountService(options: OpenPostgresOptions): Promise<PostgresAccountService> {
  const sql = openPgPool(options.url, { max: options.maxConnections, connectTimeoutS: options.connectTimeoutS });
  try {
    await migratePg(sql);
  } catch (error) {
    await sql.end({ timeout: 1 }).catch(() => {});
    throw new Error(`PostgreSQL store ${redactUrl(options.url)} could not be opened: ${(error as Error).message}`);
  }
  const store = createPgStore(sql, clockFn(options.clock), options.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS);
  const auth = createPgAuth(store, { isKnownSymbol: options.isKnownSymbol, cacheTtlMs: options.authCacheTtlMs });
  // Admin writes from any process notify the account; a (re)connected listener may have missed
  // notices, so it starts from an empty cache. Without the listener the cache's TTL is the bound.
  await sql
    .listen(
      AUTH_CHANNEL,
      (accountId) => auth.invalidate(accountId),
      () => auth.invalidate(),
    )
    .catch(() => {});
  // Group commit has one batch at the server at a time: one connection of its own keeps one warm
  // backend on it, instead of the pool handing each batch to whichever of its connections is next
  // (docs/methodology.md#set-based-group-commit).
  const openCommitSql = () => openPgPool(options.url, { max: 1, connectTimeoutS: options.connectTimeoutS });
  let commitSql = openCommitSql();
  const ledger = createPgLedger(store, { groupCommitWindowMs: options.groupCommitWindowMs, commitSql, reopenCommitSql: () => (commitSql = openCommitSql()) });
  const admin = createPgAdmin(store);
  /**
   * Admin calls fail like the rest of the store: 503 when it cannot be reached or does not answer
   * within the deadline. The whole-table reports (`ledger`, `verifyLedger`: the CLI's) have none.
   */
  const guard =
    <A extends unknown[], R>(fn: (...a: A) => Promise<R>, timeoutMs = store.timeoutMs) =>
    (...a: A): Promise<R> =>
      withDeadline(fn(...a), timeoutMs).catch((error: unknown) => {
        throw isApiError(error) ? error : storeFailure();
      });
  /** How an OAuth grant stands against the key that signed it in (as the SQLite service decides it). */
  const grantStanding = async (grant: { accountId: string; keyId: string | null }): Promise<GrantStanding> => {
    if (grant.keyId === null) return "gone";
    try {
      await auth.principalForGrant({ accountId: grant.accountId, keyId: grant.keyId, bucketId: "" });
      return "live";
    } catch (error) {
      if (isApiError(error) && error.code === "forbidden") return "gone";
      // Suspended, blocked, or the store could not be read: refuse for now, revoke nothing.
      return "paused";
    }
  };
  let closed = false;
  return {
    kind: "postgres",
    sql,
    authenticate: auth.authenticate,
    revalidate: auth.revalidate,
    principalForGrant: auth.principalForGrant,
    assertEntitled: auth.assertEntitled,
    invalidate: auth.invalidate,
    debit: ledger.debit,
    refund: ledger.refund,
    debitAsync: ledger.debitAsync,
    refundAsync: ledger.refundAsync,
    balance: ledger.balance,
    accountView: ledger.accountView,
    createAccount: guard(admin.createAccount),
    updateAccount: guard(async (accountId: string, input: Parameters<PgAdmin["updateAccount"]>[1]) => {
      try {
        return await admin.updateAccount(accountId, input);
      } finally {
        auth.invalidate(accountId);
      }
    }),
    getAccount: guard(admin.getAccount),
    listAccounts: guard(admin.listAccounts),
    findAccountByLabel: guard(admin.findAccountByLabel),
    createKey: guard(admin.createKey),
    revokeKey: guard(async (keyOrId: string) => {
      try {
        return await admin.revokeKey(keyOrId);
      } finally {
        auth.invalidate();
      }
    }),
    ledger: guard(admin.ledger, 0),
    verifyLedger: guard(admin.verifyLedger, 0),
    openOAuthStore: (oauthOptions = {}) => createPgOAuthStore(sql, { now: store.now, timeoutMs: store.timeoutMs, ...oauthOptions, grantStanding }),
    openConsoleStore: (consoleOptions = {}) => {
      const consoleStore = createPgConsoleStore(sql, admin.inTx, { now: store.now, ...consoleOptions }, store.timeoutMs);
      // A change made here takes effect here on the next request, not when this instance's own
      // NOTIFY comes back (the other instances drop their rows on the notice).
      const invalidating =
        <A extends [string, ...unknown[]], R>(op: (...args: A) => Promise<R>) =>
        async (...args: A): Promise<R> => {
          try {
            return await op(...args);
          } finally {
            auth.invalidate(args[0]);
          }
        };
      return { ...consoleStore, applyInvite: invalidating(consoleStore.applyInvite), setMonthlyCap: invalidating(consoleStore.setMonthlyCap) };
    },
    groupCommitStats: () => ledger.batcher.stats(),
    drain: (timeoutMs) => ledger.batcher.drain(timeoutMs),
    async close() {
      if (closed) return;
      closed = true;
      await ledger.batcher.drain(2000);
      ledger.batcher.close();
      await Promise.all([sql.end({ timeout: 2 }), commitSql.end({ timeout: 2 })]);
    },
  };
}
