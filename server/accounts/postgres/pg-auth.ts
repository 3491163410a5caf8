/**
 * `AccountAuth` over PostgreSQL: the same rules as the SQLite store (server/accounts/sqlite-auth.ts).
 * `authenticate` reads the key's row once and keeps it in process for a short time (the hot path's
 * round trip saved): a revocation, suspension or plan change made elsewhere takes effect within
 * that bound, and at once where a listener's notice or this process's own admin call invalidates
 * it. Expiry is still checked against the clock on every request. `revalidate` and
 * `principalForGrant` always read. Entitlements need no read (the principal carries the OPRA flag).
 * See docs/api.md#accounts-and-keys and docs/methodology.md#postgresql-group-commit-and-the-auth-cache.
 */
import { ApiError } from "../../errors";
import { checkAuthRow, principalOf } from "../account-rows";
import { hashesEqual, hashKey, keyFromAuthorization } from "../keys";
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

/** The PostgreSQL channel on which admin writes name an account whose key rows must be re-read. */
export const AUTH_CHANNEL = "optionscope_auth";

/** How long an authenticated key row is reused without a read, ms (the revocation bound). */
export const AUTH_CACHE_TTL_MS = 1000;
/** Cached key rows at most (a full cache is emptied: bounded memory under a flood of keys). */
const AUTH_CACHE_MAX = 10_000;

export interface PgAuthOptions {
  isKnownSymbol?: (symbol: string) => boolean;
  /** Reuse window of a key row, ms (default `AUTH_CACHE_TTL_MS`; 0 reads on every request). */
  cacheTtlMs?: number;
  /** Monotonic clock for the reuse window (default `performance.now`; the store clock may be pinned). */
  monotonicMs?: () => number;
}

export interface PgAuth extends AccountAuth {
  authenticate(header: string | null | undefined): Promise<AccountPrincipal>;
  revalidate(p: Principal): Promise<AccountPrincipal>;
  principalForGrant(grant: GrantRef): Promise<AccountPrincipal>;
  assertEntitled(p: Principal, entitlement: Parameters<AccountAuth["assertEntitled"]>[1], symbols?: readonly string[]): void;
  /** Forget cached key rows: all of them, or those of one account. */
  invalidate(accountId?: string): void;
}

export function createPgAuth(store: PgStore, options: PgAuthOptions = {}): PgAuth {
  const { sql, guarded, now } = store;
  const ttlMs = options.cacheTtlMs ?? AUTH_CACHE_TTL_MS;
  const mono = options.monotonicMs ?? (() => performance.now());
  /**
   * Presented key -> the row read for it and when. Only keys that matched a row are kept. Keyed by
   * the key itself so that a hit needs no SHA-256 (the hot path's largest fixed cost after the
   * round trip); the process holds each key in memory for the request anyway.
   */
  const cache = new Map<string, { row: AuthRow; readAt: number }>();

  const principalFrom = (row: AuthRow, keyId: string): AccountPrincipal => principalOf(row, keyId, row.opra_agreement);

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
      const cached = cache.get(key);
      if (cached && mono() - cached.readAt < ttlMs) {
        const live = checkAuthRow(cached.row, now());
        return principalFrom(live, live.key_id);
      }
      const hash = hashKey(key);
      const readAt = mono();
      const row = await guarded(async () => {
        const [r] = await sql<AuthRow[]>`
          SELECT k.id AS key_id, k.hash, k.revoked_ms, k.expires_ms,
                 a.id AS account_id, a.plan, a.status, a.opra_agreement, a.requests_per_minute
            FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = ${hash}`;
        return r;
      });
      const ok = hashesEqual(hash, row?.hash);
      if (ok && row && ttlMs > 0) {
        if (cache.size >= AUTH_CACHE_MAX) cache.clear();
        cache.set(key, { row, readAt });
      }
      const live = checkAuthRow(ok ? row : undefined, now());
      return principalFrom(live, live.key_id);
    },

    invalidate(accountId) {
      if (accountId === undefined) return cache.clear();
      for (const [key, entry] of cache) if (entry.row.account_id === accountId) cache.delete(key);
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
