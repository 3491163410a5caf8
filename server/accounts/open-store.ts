/**
 * Which accounts store a command uses: the embedded SQLite file in the data directory (default),
 * or PostgreSQL when `--store postgres://...` / `OPTIONSCOPE_STORE` names one (several instances
 * share it; `resolveStoreUrl` in server/config.ts reads the choice). See docs/operations.md#postgresql.
 */
import { openAccountService, type SqliteAccountService } from "./account-service";
import { accountsDbPath } from "./open-db";
import { openPostgresAccountService, type PostgresAccountService } from "./postgres";
import type { ClockLike } from "./types";

/** Either store; its methods may answer at once (SQLite) or with promises (PostgreSQL): `await` them. */
export type AccountStore = SqliteAccountService | PostgresAccountService;

export interface OpenAccountStoreOptions {
  /** PostgreSQL URL; undefined -> the SQLite file of `dataDir`. */
  storeUrl: string | undefined;
  dataDir: string;
  durability?: "full" | "normal";
  /** Group-commit window, ms (`--group-commit-ms`); absent: each store's default. */
  groupCommitWindowMs?: number;
  /** PostgreSQL: the deadline of one store call, ms (`--store-timeout-ms`; docs/operations.md#store-deadline). */
  storeTimeoutMs?: number;
  clock?: ClockLike;
  isKnownSymbol?: (symbol: string) => boolean;
}

/** Open the store (PostgreSQL: connect and migrate, rejecting when it cannot be reached). */
export async function openAccountStore(o: OpenAccountStoreOptions): Promise<AccountStore> {
  const { groupCommitWindowMs } = o;
  if (o.storeUrl)
    return openPostgresAccountService({ url: o.storeUrl, clock: o.clock, isKnownSymbol: o.isKnownSymbol, groupCommitWindowMs, timeoutMs: o.storeTimeoutMs });
  return openAccountService({ dbPath: accountsDbPath(o.dataDir), durability: o.durability, clock: o.clock, isKnownSymbol: o.isKnownSymbol, groupCommitWindowMs });
}

/** True for the SQLite store (its file is the whole store: backups, pragmas, the pause flag read from it). */
export function isSqliteStore(store: AccountStore): store is SqliteAccountService {
  return "db" in store;
}
