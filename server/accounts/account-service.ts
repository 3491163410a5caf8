/**
 * The accounts service over SQLite: `AccountAuth` (keys, grants, entitlements), `CreditLedger`
 * (debits, refunds, caps, the account view) and `AccountAdmin` (what the CLI does), each its own
 * module over one shared connection, composed here into what the app and the CLI receive.
 * See docs/api.md#accounts-and-keys and docs/api.md#credits-and-ledger.
 */
import type { Sqlite } from "../sqlite";
import { isApiError } from "../errors";
import { openOAuthStore, type GrantStanding, type OAuthStoreOptions, type SyncOAuthStore } from "../oauth/oauth-store";
import type { SyncAdmin } from "./admin-types";
import type { GroupCommitStats } from "./group-commit";
import { openAccountsDb } from "./open-db";
import type { ConsoleStoreOptions } from "./console-types";
import { openSqliteConsoleStore, type SqliteConsoleStore } from "./sqlite-console";
import { createSqliteAdmin } from "./sqlite-admin";
import { createSqliteAuth, type AccountPrincipal } from "./sqlite-auth";
import { createSqliteLedger } from "./sqlite-ledger";
import { clockFn, createSqliteStore } from "./_sqlite-store";
import type { AccountAuth, AccountService, BalanceResult, ClockLike, LedgerRef, Principal, SyncAuth, SyncLedger } from "./types";

export type { AccountPrincipal } from "./sqlite-auth";

export interface OpenAccountServiceOptions {
  /** Path of the SQLite file (`accountsDbPath(dataDir)`), or `:memory:` for throwaway tests. */
  dbPath: string;
  /** Wall clock for ledger timestamps, caps and grants (default `Date.now`). */
  clock?: ClockLike;
  /** Writer wait for another connection's lock before 503 `credit_check_failed` (ms, default 5000). */
  busyTimeoutMs?: number;
  /** `full` (default) or `normal`; see `OpenDbOptions.durability` and docs/operations.md#durability. */
  durability?: "full" | "normal";
  /**
   * Group-commit window of `debitAsync`/`refundAsync`, ms: 0 (default) batches what arrives in
   * the same event-loop turn; larger values wait that long for more once a batch found company
   * (`GroupCommitOptions.windowMs`). See docs/operations.md#group-commit.
   */
  groupCommitWindowMs?: number;
  /**
   * Whether a symbol exists in the market at all. When given, unknown symbols are left out of
   * the plan's symbol check, so the route drops them (spec: unknown symbols are dropped, 404 only
   * when none is known) instead of answering 403 `not_entitled`.
   */
  isKnownSymbol?: (symbol: string) => boolean;
  /** Called with the SQL of every statement run (diagnostics, and tests that check query plans). */
  traceSql?: (sql: string) => void;
}

/** The SQLite service: the app's contract, the admin operations, and what tests and backups use. */
export interface SqliteAccountService extends Omit<AccountService, keyof SyncAuth | keyof SyncLedger | "close">, SyncAuth, SyncLedger, SyncAdmin {
  authenticate(authorizationHeader: string | null | undefined): AccountPrincipal;
  revalidate(p: Principal): AccountPrincipal;
  principalForGrant(grant: Parameters<AccountAuth["principalForGrant"]>[0]): AccountPrincipal;
  debitAsync(p: Principal, credits: number, ref: LedgerRef, after?: Promise<unknown>): Promise<BalanceResult>;
  refundAsync(p: Principal, credits: number, ref: LedgerRef): Promise<BalanceResult>;
  /** The OAuth tables of this file (synchronous answers). */
  openOAuthStore(options?: OAuthStoreOptions): SyncOAuthStore;
  /** The console tables of this file (synchronous answers). */
  openConsoleStore(options?: ConsoleStoreOptions): SqliteConsoleStore;
  /** How many group commits acknowledged how many async debits and refunds so far. */
  groupCommitStats(): GroupCommitStats;
  /** The underlying connection (tests, backups); the app and the CLI go through the interfaces. */
  readonly db: Sqlite;
  close(): void;
}

/**
 * Open the accounts store at `dbPath` (created and migrated if needed) and return the service.
 * @example
 * const accounts = openAccountService({ dbPath: accountsDbPath(dataDir) });
 * const p = accounts.authenticate(request.headers.get("authorization"));
 */
export function openAccountService(options: OpenAccountServiceOptions): SqliteAccountService {
  const db = openAccountsDb(options.dbPath, { busyTimeoutMs: options.busyTimeoutMs, durability: options.durability, traceSql: options.traceSql });
  const store = createSqliteStore(db, clockFn(options.clock));
  const auth = createSqliteAuth(store, { isKnownSymbol: options.isKnownSymbol });
  const ledger = createSqliteLedger(store, { groupCommitWindowMs: options.groupCommitWindowMs });
  const admin = createSqliteAdmin(store);

  /** How an OAuth grant stands against the key that signed it in (see `GrantStanding`). */
  const grantStanding = (grant: { accountId: string; keyId: string | null }): GrantStanding => {
    if (grant.keyId === null) return "gone";
    try {
      auth.principalForGrant({ accountId: grant.accountId, keyId: grant.keyId, bucketId: "" });
      return "live";
    } catch (error) {
      if (isApiError(error) && (error.code === "account_suspended" || error.code === "account_blocked")) return "paused";
      if (isApiError(error) && error.code === "forbidden") return "gone";
      // The store could not be read: refuse for now, revoke nothing.
      return "paused";
    }
  };

  // Own properties only (no prototype): callers and test doubles may spread the service.
  const service: SqliteAccountService = {
    db,
    authenticate: auth.authenticate,
    revalidate: auth.revalidate,
    principalForGrant: auth.principalForGrant,
    assertEntitled: auth.assertEntitled,
    debit: ledger.debit,
    refund: ledger.refund,
    debitAsync: ledger.debitAsync,
    refundAsync: ledger.refundAsync,
    balance: ledger.balance,
    accountView: ledger.accountView,
    groupCommitStats: ledger.groupCommitStats,
    ...admin,
    openOAuthStore: (oauthOptions = {}) => openOAuthStore(db, { now: store.now, ...oauthOptions, grantStanding }),
    openConsoleStore: (consoleOptions = {}) =>
      openSqliteConsoleStore({ db, createAccount: admin.createAccount, updateAccount: admin.updateAccount }, { now: store.now, ...consoleOptions }),
    close() {
      ledger.close();
      if (db.open) db.close();
    },
  };
  return service;
}
