/**
 * `AccountAuth` over PostgreSQL: the same rules as the SQLite store (server/accounts/sqlite-auth.ts),
 * each check one indexed read. Entitlements need no read (the principal carries the OPRA flag).
 * See docs/api.md#accounts-and-keys.
 */
import { ApiError } from "../../errors";
import { forbidden, statusError } from "../account-errors";
import { hashesEqual, hashKey, keyFromAuthorization } from "../keys";
import { limitsOf } from "../_sqlite-store";
import type { AccountPrincipal } from "../sqlite-auth";
import { assertPlanEntitled } from "../entitlements";
import type { AccountAuth, AccountStatus, GrantRef, Plan, Principal } from "../types";
import type { PgStore } from "./pg-store";

interface AuthRow {
  key_id: string;
  hash: Buffer | null;
  revoked_ms: number | null;
  expires_ms: number | null;
  account_id: string;
  plan: Plan;
  status: AccountStatus;
  opra_agreement: boolean;
  requests_per_minute: number | null;
}

export interface PgAuth extends AccountAuth {
  authenticate(header: string | null | undefined): Promise<AccountPrincipal>;
  revalidate(p: Principal): Promise<AccountPrincipal>;
  principalForGrant(grant: GrantRef): Promise<AccountPrincipal>;
  assertEntitled(p: Principal, entitlement: Parameters<AccountAuth["assertEntitled"]>[1], symbols?: readonly string[]): void;
}

export function createPgAuth(store: PgStore, options: { isKnownSymbol?: (symbol: string) => boolean } = {}): PgAuth {
  const { sql, guarded, now } = store;

  const principalFrom = (row: AuthRow, keyId: string): AccountPrincipal => ({
    accountId: row.account_id,
    keyId,
    plan: row.plan,
    limits: limitsOf(row.plan, row.requests_per_minute),
    opraAgreement: row.opra_agreement,
  });

  function checkAuthRow(row: AuthRow | undefined, tsMs: number): AuthRow {
    if (!row || row.revoked_ms != null || (row.expires_ms != null && row.expires_ms <= tsMs)) throw forbidden();
    const err = statusError(row.status);
    if (err) throw err;
    return row;
  }

  const byKeyId = (keyId: string) =>
    guarded(async () => {
      const [row] = await sql<AuthRow[]>`
        SELECT k.id AS key_id, NULL::bytea AS hash, k.revoked_ms, k.expires_ms,
               a.id AS account_id, a.plan, a.status, a.opra_agreement, a.requests_per_minute
          FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.id = ${keyId}`;
      return row;
    });

  return {
    async authenticate(header) {
      const key = keyFromAuthorization(header);
      if (key == null) {
        throw new ApiError(401, "unauthorized", "Missing Authorization header: send `Authorization: Bearer <API_KEY>`.");
      }
      const hash = hashKey(key);
      const row = await guarded(async () => {
        const [r] = await sql<AuthRow[]>`
          SELECT k.id AS key_id, k.hash, k.revoked_ms, k.expires_ms,
                 a.id AS account_id, a.plan, a.status, a.opra_agreement, a.requests_per_minute
            FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = ${hash}`;
        return r;
      });
      const ok = hashesEqual(hash, row?.hash);
      const live = checkAuthRow(ok ? row : undefined, now());
      return principalFrom(live, live.key_id);
    },

    async revalidate(p) {
      const live = checkAuthRow(await byKeyId(p.keyId), now());
      return principalFrom(live, live.key_id);
    },

    async principalForGrant(grant) {
      const row = await byKeyId(grant.keyId);
      const live = checkAuthRow(row && row.account_id === grant.accountId ? row : undefined, now());
      return principalFrom(live, grant.bucketId);
    },

    assertEntitled(p, entitlement, symbols) {
      // Principals of this store always carry the OPRA flag; one without it is refused flow data.
      assertPlanEntitled(p, entitlement, symbols, (p as Partial<AccountPrincipal>).opraAgreement ?? false, options.isKnownSymbol);
    },
  };
}
