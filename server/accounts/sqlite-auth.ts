/**
 * `AccountAuth` over the SQLite store: API keys to principals (one indexed lookup, compared in
 * constant time), re-checks for streams and OAuth grants, and plan entitlements. Every read goes
 * to the store, so a change made by the CLI through another connection is seen at once.
 * See docs/api.md#accounts-and-keys.
 */
import { ApiError } from "../errors";
import { checkAuthRow, principalOf } from "./account-rows";
import { hashesEqual, hashKey, keyFromAuthorization } from "./keys";
import { assertPlanEntitled } from "./entitlements";
import type { SqliteStore } from "./_sqlite-store";
import type { AccountAuth, AccountStatus, Entitlement, Plan, Principal, SyncAuth } from "./types";

/** A principal as this store issues it: the contract's fields plus the OPRA flag. */
export interface AccountPrincipal extends Principal {
  /** The account has a signed OPRA subscriber agreement on file. */
  opraAgreement: boolean;
}

interface AuthRow {
  key_id: string;
  hash: Buffer | null;
  revoked_ms: number | null;
  expires_ms: number | null;
  account_id: string;
  plan: Plan;
  status: AccountStatus;
  opra_agreement: number;
  requests_per_minute: number | null;
}

const AUTH_COLUMNS = `k.id AS key_id, k.revoked_ms, k.expires_ms,
  a.id AS account_id, a.plan, a.status, a.opra_agreement, a.requests_per_minute`;

export interface SqliteAuthOptions {
  /** Whether a symbol exists in the market at all (see `OpenAccountServiceOptions.isKnownSymbol`). */
  isKnownSymbol?: (symbol: string) => boolean;
}

export function createSqliteAuth(
  store: SqliteStore,
  options: SqliteAuthOptions = {},
): SyncAuth & {
  authenticate(header: string | null | undefined): AccountPrincipal;
  revalidate(p: Principal): AccountPrincipal;
  principalForGrant(grant: Parameters<AccountAuth["principalForGrant"]>[0]): AccountPrincipal;
} {
  const { db, guarded, now } = store;
  const q = {
    byHash: db.prepare<[Buffer], AuthRow>(`SELECT ${AUTH_COLUMNS}, k.hash FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = ?`),
    byKeyId: db.prepare<[string], AuthRow>(`SELECT ${AUTH_COLUMNS}, NULL AS hash FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.id = ?`),
    opra: db.prepare<[string], { opra_agreement: number }>(`SELECT opra_agreement FROM accounts WHERE id = ?`),
  };

  const principalFrom = (row: AuthRow, keyId: string): AccountPrincipal => principalOf(row, keyId, row.opra_agreement === 1);

  return {
    authenticate(header) {
      const key = keyFromAuthorization(header);
      if (key == null) {
        throw new ApiError(401, "unauthorized", "Missing Authorization header: send `Authorization: Bearer <API_KEY>`.");
      }
      const hash = hashKey(key);
      const row = guarded(() => q.byHash.get(hash));
      // Compare in constant time against the stored hash (or a dummy on a miss).
      const ok = hashesEqual(hash, row?.hash);
      const live = checkAuthRow(ok ? row : undefined, now());
      return principalFrom(live, live.key_id);
    },

    revalidate(p) {
      const live = checkAuthRow(
        guarded(() => q.byKeyId.get(p.keyId)),
        now(),
      );
      return principalFrom(live, live.key_id);
    },

    principalForGrant(grant) {
      const row = guarded(() => q.byKeyId.get(grant.keyId));
      // A key of another account cannot carry this grant (only a forged or corrupted row would).
      const live = checkAuthRow(row && row.account_id === grant.accountId ? row : undefined, now());
      return principalFrom(live, grant.bucketId);
    },

    assertEntitled(p, entitlement: Entitlement, symbols) {
      const opra = () => (p as Partial<AccountPrincipal>).opraAgreement ?? guarded(() => q.opra.get(p.accountId)?.opra_agreement === 1);
      assertPlanEntitled(p, entitlement, symbols, opra, options.isKnownSymbol);
    },
  };
}
