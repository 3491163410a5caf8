// Contract
export type {
  AccountLimits,
  AccountRecord,
  AccountService,
  AccountStatus,
  BalanceResult,
  ClockLike,
  ConcurrencyLimiter,
  AccountAuth,
  CreditLedger,
  Entitlement,
  GrantRef,
  LedgerRef,
  Plan,
  Principal,
  RateLimiter,
} from "./types";
export { ACCOUNT_STATUSES, PLANS, SLOT_HISTORICAL, SLOT_STREAM_SYMBOLS } from "./types";
export { AccountLimitsSchema, AccountRecordSchema, AccountStatusSchema, PlanSchema } from "./schemas";
export type { AccountAdmin } from "./admin-types";
// Service over SQLite
export {
  openAccountService,
  type AccountDetails,
  type AccountPrincipal,
  type CreateAccountInput,
  type KeyInfo,
  type KeyState,
  type LedgerEntry,
  type OpenAccountServiceOptions,
  type SqliteAccountService,
  type UpdateAccountInput,
} from "./account-service";
// Either store (SQLite default, PostgreSQL with --store)
export { isSqliteStore, openAccountStore, type AccountStore, type OpenAccountStoreOptions } from "./open-store";
export { openPostgresAccountService, type OpenPostgresOptions, type PostgresAccountService } from "./postgres";
export type { MaybePromise } from "./types";
export { accountsDbPath, ACCOUNTS_DB_FILE, DEFAULT_DATA_DIR, openAccountsDb, resolveDataDir } from "./open-db";
export { ensureDemoAccount, DEMO_ACCOUNT_LABEL } from "./demo-account";
// Plans, keys, periods
export { isPlan, OPRA_ENTITLEMENTS, PLAN_DEFINITIONS, planDefinition, type PlanDefinition } from "./plans";
export { KEY_PREFIX, keyFromAuthorization } from "./keys";
export { etPeriods, secondsUntilEtMidnight } from "./et-periods";
export { MIGRATIONS, SCHEMA_VERSION } from "./schema";
