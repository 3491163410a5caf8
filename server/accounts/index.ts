// Contract
export type {
  AccountService,
  ConcurrencyLimiter,
  Entitlement,
  Plan,
  Principal,
  RateLimiter,
} from "./types";
// Service over SQLite
export { openAccountService, type AccountPrincipal, type SqliteAccountService } from "./account-service";
// Either store (SQLite default, PostgreSQL with --store)
export { isSqliteStore, openAccountStore, type AccountStore } from "./open-store";
export { openPostgresAccountService, type PostgresAccountService } from "./postgres";
export { accountsDbPath, resolveDataDir } from "./open-db";
export { ensureDemoAccount } from "./demo-account";
// Plans, keys, periods
export { PLAN_DEFINITIONS, planDefinition } from "./plans";
export { secondsUntilEtMidnight } from "./et-periods";
export { SCHEMA_VERSION } from "./schema";
