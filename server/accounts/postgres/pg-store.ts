/**
 * What the PostgreSQL auth, ledger and admin parts share: the pool, the clock, failure mapping,
 * the account row and the lazy plan grants (applied by `os_ensure_grant`, cached once seen).
 * Internal to the store. See docs/operations.md#postgresql.
 */
import { ApiError, isApiError } from "../../errors";
import { DEFAULT_STORE_TIMEOUT_MS, withDeadline } from "../../store-deadline";
import { storeFailure } from "../account-errors";
import { etPeriods } from "../et-periods";
import { planDefinition } from "../plans";
import type { AccountStatus, Plan } from "../types";
import type { Sql } from "./pg-connection";

export interface PgAccountRow {
  id: string;
  label: string | null;
  plan: Plan;
  status: AccountStatus;
  opra_agreement: boolean;
  daily_cap: number | null;
  monthly_cap: number | null;
  requests_per_minute: number | null;
  created_ms: number;
}

/** The grant a plan is due at an instant: its period key, its credits, and whether it tops up. */
export interface GrantDue {
  period: string;
  credits: number;
  monthly: boolean;
}

export function grantDue(plan: Plan, tsMs: number): GrantDue {
  const def = planDefinition(plan);
  const monthly = def.grantSchedule === "monthly";
  return { period: monthly ? `m:${etPeriods(tsMs).month}` : "once", credits: def.grantCredits, monthly };
}

export interface PgStore {
  sql: Sql;
  now: () => number;
  /** The deadline of one store call, ms (docs/operations.md#store-deadline). */
  timeoutMs: number;
  /**
   * Run a store operation; driver and server failures, and an answer later than `timeoutMs`,
   * become 503 `credit_check_failed`.
   */
  guarded<T>(fn: () => Promise<T>): Promise<T>;
  /** The account row, or 404 `account_not_found`. */
  requireAccount(accountId: string): Promise<PgAccountRow>;
  balanceOf(accountId: string): Promise<number>;
  /** Apply the plan's due grant (one round trip the first time per account and period, none after). */
  ensureGrant(accountId: string, plan: Plan, tsMs: number): Promise<void>;
}

export function createPgStore(sql: Sql, now: () => number, timeoutMs = DEFAULT_STORE_TIMEOUT_MS): PgStore {
  /** Grants known to be applied (grants are never removed, so this cannot go stale). */
  const applied = new Set<string>();
  const store: PgStore = {
    sql,
    now,
    timeoutMs,
    async guarded(fn) {
      try {
        return await withDeadline(fn(), timeoutMs);
      } catch (error) {
        if (isApiError(error)) throw error;
        throw storeFailure();
      }
    },
    async requireAccount(accountId) {
      const [row] = await sql<PgAccountRow[]>`SELECT * FROM accounts WHERE id = ${accountId}`;
      if (!row) throw new ApiError(404, "account_not_found", `No account ${accountId}.`);
      return row;
    },
    async balanceOf(accountId) {
      const [row] = await sql<{ credits: number }[]>`SELECT credits FROM balances WHERE account_id = ${accountId}`;
      return row?.credits ?? 0;
    },
    async ensureGrant(accountId, plan, tsMs) {
      const g = grantDue(plan, tsMs);
      const key = `${accountId}|${g.period}`;
      if (applied.has(key)) return;
      await sql`SELECT os_ensure_grant(${accountId}, ${g.period}, ${g.credits}, ${g.monthly}, ${tsMs})`;
      applied.add(key);
    },
  };
  return store;
}
