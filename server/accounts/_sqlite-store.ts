/**
 * What the SQLite auth, ledger and admin parts share: one connection, the clock, the rows every
 * part reads (account, balance), ledger writes and the lazy plan grants. Internal to the store.
 */
import type { Sqlite } from "../sqlite";
import { ApiError, isApiError } from "../errors";
import type { LedgerEntry } from "./admin-types";
import { storeFailure } from "./account-errors";
import { etPeriods } from "./et-periods";
import { planDefinition } from "./plans";
import type { AccountLimits, AccountStatus, ClockLike, LedgerRef, Plan } from "./types";

interface AccountRow {
  id: string;
  label: string | null;
  plan: Plan;
  status: AccountStatus;
  opra_agreement: number;
  daily_cap: number | null;
  monthly_cap: number | null;
  requests_per_minute: number | null;
  created_ms: number;
}

export interface SqliteStore {
  db: Sqlite;
  now: () => number;
  /** Run a store operation, turning store failures (busy, I/O, closed) into 503 credit_check_failed. */
  guarded<T>(fn: () => T): T;
  /** The account row, or 404 `account_not_found`. */
  requireAccount(accountId: string): AccountRow;
  balanceOf(accountId: string): number;
  /** Add `delta` (may be negative) to the balance; returns the balance after. */
  addBalance(accountId: string, delta: number): number;
  writeLedger(accountId: string, tsMs: number, delta: number, kind: LedgerEntry["kind"], ref: LedgerRef | null, balanceAfter: number): number;
  /** Apply the plan's due grant, idempotently. Call inside a transaction. */
  ensureGrantTx(accountId: string, plan: Plan, tsMs: number): void;
  /** Apply a due grant in its own transaction when one may be due (cheap when none is). */
  ensureGrant(accountId: string, plan: Plan, tsMs: number): void;
  /** Forget grants cached from a transaction that was rolled back. */
  forgetCachedGrants(): void;
}

/** The clock as a function of Unix ms. */
export function clockFn(clock: ClockLike | undefined): () => number {
  if (clock == null) return Date.now;
  if (typeof clock === "function") return clock;
  return "now" in clock ? () => clock.now() : () => clock.nowMs();
}

/** The plan's limits with the account's requests-per-minute override applied. */
export function limitsOf(plan: Plan, rpmOverride: number | null): AccountLimits {
  const limits = { ...planDefinition(plan).limits };
  if (rpmOverride != null) limits.requestsPerMinute = rpmOverride;
  return limits;
}

export function createSqliteStore(db: Sqlite, now: () => number): SqliteStore {
  const q = {
    account: db.prepare<[string], AccountRow>(`SELECT * FROM accounts WHERE id = ?`),
    balance: db.prepare<[string], { credits: number }>(`SELECT credits FROM balances WHERE account_id = ?`),
    creditBalance: db.prepare<[number, string], { credits: number }>(`UPDATE balances SET credits = credits + ? WHERE account_id = ? RETURNING credits`),
    insertLedger: db.prepare(
      `INSERT INTO ledger (account_id, ts_ms, delta, kind, request_id, route, balance_after)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    grantExists: db.prepare<[string, string], { one: number }>(`SELECT 1 AS one FROM grants WHERE account_id = ? AND period = ?`),
    insertGrant: db.prepare(`INSERT INTO grants (account_id, period, ledger_id) VALUES (?, ?, ?)`),
  };

  /** Grants already known to be applied (grants are never removed, so this cannot go stale). */
  const appliedGrants = new Set<string>();
  const grantPeriod = (plan: Plan, tsMs: number) => (planDefinition(plan).grantSchedule === "monthly" ? `m:${etPeriods(tsMs).month}` : "once");

  const store: SqliteStore = {
    db,
    now,
    guarded(fn) {
      try {
        return fn();
      } catch (error) {
        if (isApiError(error)) throw error;
        throw storeFailure();
      }
    },
    requireAccount(accountId) {
      const row = q.account.get(accountId);
      if (!row) throw new ApiError(404, "account_not_found", `No account ${accountId}.`);
      return row;
    },
    balanceOf: (accountId) => q.balance.get(accountId)?.credits ?? 0,
    addBalance: (accountId, delta) => q.creditBalance.get(delta, accountId)!.credits,
    writeLedger(accountId, tsMs, delta, kind, ref, balanceAfter) {
      const info = q.insertLedger.run(accountId, tsMs, delta, kind, ref?.requestId ?? null, ref?.route ?? null, balanceAfter);
      return Number(info.lastInsertRowid);
    },
    ensureGrantTx(accountId, plan, tsMs) {
      const def = planDefinition(plan);
      const period = grantPeriod(plan, tsMs);
      const cacheKey = `${accountId}|${period}`;
      if (appliedGrants.has(cacheKey)) return;
      if (q.grantExists.get(accountId, period)) {
        // Cache only grants seen as already present: a grant inserted by this transaction may
        // still be rolled back (for example by a 402 later in the same debit).
        appliedGrants.add(cacheKey);
        return;
      }
      const current = store.balanceOf(accountId);
      // Monthly plans top the balance up to the allowance (purchased credits above it are kept);
      // one-off grants add. A zero-delta row still marks the period as granted.
      const delta = def.grantSchedule === "monthly" ? Math.max(0, def.grantCredits - current) : def.grantCredits;
      const after = delta > 0 ? store.addBalance(accountId, delta) : current;
      const ledgerId = store.writeLedger(accountId, tsMs, delta, "grant", { requestId: `grant:${period}`, route: "grant" }, after);
      q.insertGrant.run(accountId, period, ledgerId);
    },
    ensureGrant(accountId, plan, tsMs) {
      if (!appliedGrants.has(`${accountId}|${grantPeriod(plan, tsMs)}`)) ensureGrantTxn.immediate(accountId, plan, tsMs);
    },
    forgetCachedGrants: () => appliedGrants.clear(),
  };
  const ensureGrantTxn = db.transaction((accountId: string, plan: Plan, tsMs: number) => store.ensureGrantTx(accountId, plan, tsMs));
  return store;
}
