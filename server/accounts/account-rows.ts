// The accounts and api_keys rows as both stores read them (SQLite: server/accounts/schema.ts;
// PostgreSQL: migration 001, the same columns), and what the admin and auth sides answer with.
// The one difference between the stores: SQLite keeps booleans as 0/1, so callers pass
// `opra_agreement` as a boolean.
import { forbidden, statusError } from "./account-errors";
import type { AccountDetails, KeyState } from "./admin-types";
import type { AccountPrincipal } from "./sqlite-auth";
import { limitsOf } from "./_sqlite-store";
import type { AccountRecord, AccountStatus, Plan } from "./types";

/** An instant as ISO 8601, or null. */
const iso = (ms: number | null): string | null => (ms == null ? null : new Date(ms).toISOString());

/** A key's state at `tsMs`. */
function keyState(revokedMs: number | null, expiresMs: number | null, tsMs: number): KeyState {
  if (revokedMs != null) return "revoked";
  if (expiresMs != null && expiresMs <= tsMs) return "expired";
  return "active";
}

/** An api_keys row as the admin details list it. */
export interface KeyRow {
  id: string;
  account_id: string;
  prefix: string;
  created_ms: number;
  revoked_ms: number | null;
  expires_ms: number | null;
}

/** One key of `AccountDetails.keys`. */
export function keyInfoOf(k: KeyRow, tsMs: number): AccountDetails["keys"][number] {
  return {
    keyId: k.id,
    accountId: k.account_id,
    prefix: k.prefix,
    state: keyState(k.revoked_ms, k.expires_ms, tsMs),
    createdAt: iso(k.created_ms)!,
    revokedAt: iso(k.revoked_ms),
    expiresAt: iso(k.expires_ms),
  };
}

/** The accounts row's columns the admin details show. */
interface AccountColumns {
  id: string;
  label: string | null;
  plan: Plan;
  status: AccountStatus;
  daily_cap: number | null;
  monthly_cap: number | null;
  requests_per_minute: number | null;
  created_ms: number;
}

/** The fields of `AccountDetails` an accounts row gives (the figures come from other tables). */
export function accountFieldsOf(row: AccountColumns, opraAgreement: boolean) {
  return {
    accountId: row.id,
    label: row.label,
    plan: row.plan,
    status: row.status,
    opraAgreement,
    dailyCapCredits: row.daily_cap,
    monthlyCapCredits: row.monthly_cap,
    requestsPerMinuteOverride: row.requests_per_minute,
    createdAt: iso(row.created_ms)!,
  } satisfies Partial<AccountDetails>;
}

/** The key must be live (not revoked, not expired) and its account active. */
export function checkAuthRow<R extends { revoked_ms: number | null; expires_ms: number | null; status: AccountStatus }>(row: R | undefined, tsMs: number): R {
  if (!row || row.revoked_ms != null || (row.expires_ms != null && row.expires_ms <= tsMs)) throw forbidden();
  const err = statusError(row.status);
  if (err) throw err;
  return row;
}

/** The principal of a live key's row. */
export function principalOf(row: { account_id: string; plan: Plan; requests_per_minute: number | null }, keyId: string, opraAgreement: boolean): AccountPrincipal {
  return { accountId: row.account_id, keyId, plan: row.plan, limits: limitsOf(row.plan, row.requests_per_minute), opraAgreement };
}

/** The account view (`/v1/account`) of an accounts row, its balance and its caps with their usage. */
export function accountRecordOf(
  row: { id: string; status: AccountStatus; plan: Plan; requests_per_minute: number | null },
  creditsBalance: number,
  caps: AccountRecord["caps"],
): AccountRecord {
  return {
    customerId: row.id,
    status: row.status,
    plan: row.plan,
    apiEligible: true,
    unlimited: false,
    creditsBalance,
    balanceUsd: Math.round(creditsBalance) / 1000,
    limits: limitsOf(row.plan, row.requests_per_minute),
    caps,
  };
}
