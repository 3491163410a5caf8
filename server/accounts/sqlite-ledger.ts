/**
 * `CreditLedger` over the SQLite store: debits and refunds (synchronous, or group-committed),
 * caps, lazy plan grants, balance and the account view. Nothing here reads more than the rows of
 * one account and one request: the balance is stored, and the caps read per-account ET-day and
 * ET-month counters (`usage`) written in the same transaction as each debit and refund, so the
 * cost of a call does not grow with the ledger. See docs/api.md#credits-and-ledger and
 * docs/operations.md#ledger-cost.
 */
import { ApiError } from "../errors";
import { assertCredits, forbidden, storeFailure } from "./account-errors";
import { etPeriods, secondsUntilEtMidnight } from "./et-periods";
import { createGroupCommitter, type GroupCommitStats } from "./group-commit";
import type { SqliteStore } from "./_sqlite-store";
import { accountRecordOf } from "./account-rows";
import type { BalanceResult, LedgerRef, Principal, SyncLedger } from "./types";

export interface SqliteLedgerOptions {
  /** Group-commit window of `debitAsync`/`refundAsync`, ms (see `OpenAccountServiceOptions`). */
  groupCommitWindowMs?: number;
}

/** The ledger with its async half required, plus what tests and benches inspect. */
export interface SqliteCreditLedger extends SyncLedger {
  debitAsync(p: Principal, credits: number, ref: LedgerRef, after?: Promise<unknown>): Promise<BalanceResult>;
  refundAsync(p: Principal, credits: number, ref: LedgerRef): Promise<BalanceResult>;
  /** How many group commits acknowledged how many async debits and refunds so far. */
  groupCommitStats(): GroupCommitStats;
  /** Flush queued async operations and refuse new ones. */
  close(): void;
}

/** ET day and month usage keys of an instant (rows of the `usage` table). */
export function usagePeriods(tsMs: number): { day: string; month: string } {
  const p = etPeriods(tsMs);
  return { day: `d:${p.day}`, month: `m:${p.month}` };
}

export function createSqliteLedger(store: SqliteStore, options: SqliteLedgerOptions = {}): SqliteCreditLedger {
  const { db, guarded, now } = store;
  const q = {
    debitBalance: db.prepare<[number, string, number], { credits: number }>(
      `UPDATE balances SET credits = credits - ? WHERE account_id = ? AND credits >= ? RETURNING credits`,
    ),
    capsAndUsage: db.prepare<[{ id: string; day: string; month: string }], { daily_cap: number | null; monthly_cap: number | null; used_d: number; used_m: number }>(
      `SELECT a.daily_cap, a.monthly_cap,
              coalesce((SELECT credits FROM usage WHERE account_id = a.id AND period = @day), 0) AS used_d,
              coalesce((SELECT credits FROM usage WHERE account_id = a.id AND period = @month), 0) AS used_m
         FROM accounts a WHERE a.id = @id`,
    ),
    addUsage: db.prepare<[{ id: string; period: string; credits: number }]>(
      `INSERT INTO usage (account_id, period, credits) VALUES (@id, @period, max(0, @credits))
       ON CONFLICT (account_id, period) DO UPDATE SET credits = max(0, credits + @credits)`,
    ),
    // Bounded by the entries of one request (ledger_request index), not by the ledger.
    requestLedger: db.prepare<[string, string], { debited: number | null; refunded: number | null; last_debit_ms: number | null }>(
      `SELECT sum(CASE WHEN kind = 'debit' THEN -delta END) AS debited,
              sum(CASE WHEN kind = 'refund' THEN delta END) AS refunded,
              max(CASE WHEN kind = 'debit' THEN ts_ms END) AS last_debit_ms
         FROM ledger WHERE account_id = ? AND request_id = ?`,
    ),
  };

  const debitTxn = db.transaction((p: Principal, credits: number, ref: LedgerRef, tsMs: number): BalanceResult => {
    store.ensureGrantTx(p.accountId, p.plan, tsMs);
    const { day, month } = usagePeriods(tsMs);
    const caps = q.capsAndUsage.get({ id: p.accountId, day, month });
    if (!caps) throw forbidden();
    const remaining = () => String(store.balanceOf(p.accountId));
    if (caps.daily_cap != null && caps.used_d + credits > caps.daily_cap) {
      const retryAfter = secondsUntilEtMidnight(tsMs);
      throw new ApiError(402, "daily_cap_reached", `The daily credit cap of ${caps.daily_cap} credits is reached; it resets at midnight ET.`, {
        headers: { "Retry-After": String(retryAfter), "X-Credits-Remaining": remaining() },
        details: { retry_after: retryAfter },
      });
    }
    if (caps.monthly_cap != null && caps.used_m + credits > caps.monthly_cap) {
      throw new ApiError(
        402,
        "monthly_cap_reached",
        `The account's monthly spend cap of ${caps.monthly_cap} credits is reached; it resets on the 1st (ET) or when the cap is raised.`,
        {
          headers: { "X-Credits-Remaining": remaining() },
        },
      );
    }
    const updated = q.debitBalance.get(credits, p.accountId, credits);
    if (!updated) {
      const balance = remaining();
      throw new ApiError(402, "insufficient_credits", `This request costs ${credits} credits; the balance is ${balance}.`, {
        headers: { "X-Credits-Remaining": balance },
      });
    }
    const ledgerId = store.writeLedger(p.accountId, tsMs, -credits, "debit", ref, updated.credits);
    q.addUsage.run({ id: p.accountId, period: day, credits });
    q.addUsage.run({ id: p.accountId, period: month, credits });
    return { balance: updated.credits, ledgerId };
  });

  const refundTxn = db.transaction((p: Principal, credits: number, ref: LedgerRef, tsMs: number): BalanceResult => {
    store.ensureGrantTx(p.accountId, p.plan, tsMs);
    const r = q.requestLedger.get(p.accountId, ref.requestId)!;
    const refundable = (r.debited ?? 0) - (r.refunded ?? 0);
    const amount = Math.min(credits, refundable);
    if (amount <= 0) return { balance: store.balanceOf(p.accountId), ledgerId: null };
    const after = store.addBalance(p.accountId, amount);
    const ledgerId = store.writeLedger(p.accountId, tsMs, amount, "refund", ref, after);
    // Refunded credits do not count against the caps of the period they were spent in.
    const spent = usagePeriods(r.last_debit_ms ?? tsMs);
    q.addUsage.run({ id: p.accountId, period: spent.day, credits: -amount });
    q.addUsage.run({ id: p.accountId, period: spent.month, credits: -amount });
    return { balance: after, ledgerId };
  });

  const committer = createGroupCommitter(db, {
    windowMs: options.groupCommitWindowMs,
    storeFailure,
    // A grant row seen inside a batch that was then rolled back must not stay cached.
    onRollback: () => store.forgetCachedGrants(),
  });

  const ledger: SqliteCreditLedger = {
    debit(p, credits, ref) {
      assertCredits("credits", credits, true);
      const tsMs = now();
      if (credits === 0) return { balance: ledger.balance(p.accountId), ledgerId: null };
      return guarded(() => debitTxn.immediate(p, credits, ref, tsMs));
    },

    refund(p, credits, ref) {
      assertCredits("credits", credits, true);
      const tsMs = now();
      return guarded(() => refundTxn.immediate(p, credits, ref, tsMs));
    },

    debitAsync(p, credits, ref, after) {
      try {
        assertCredits("credits", credits, true);
      } catch (error) {
        return Promise.reject(error);
      }
      // A gate (the rate-limit answer) first: nothing is written before it admits the call.
      if (after) return after.then(() => ledger.debitAsync(p, credits, ref));
      if (credits === 0) return Promise.resolve({ balance: ledger.balance(p.accountId), ledgerId: null });
      const tsMs = now();
      return committer.submit(() => debitTxn(p, credits, ref, tsMs));
    },

    refundAsync(p, credits, ref) {
      try {
        assertCredits("credits", credits, true);
      } catch (error) {
        return Promise.reject(error);
      }
      const tsMs = now();
      return committer.submit(() => refundTxn(p, credits, ref, tsMs));
    },

    groupCommitStats: () => committer.stats(),

    balance(accountId) {
      return guarded(() => {
        const row = store.requireAccount(accountId);
        store.ensureGrant(accountId, row.plan, now());
        return store.balanceOf(accountId);
      });
    },

    accountView(p) {
      return guarded(() => {
        const tsMs = now();
        const row = store.requireAccount(p.accountId);
        store.ensureGrant(row.id, row.plan, tsMs);
        const { day, month } = usagePeriods(tsMs);
        const usage = q.capsAndUsage.get({ id: row.id, day, month })!;
        const creditsBalance = store.balanceOf(row.id);
        return accountRecordOf(row, creditsBalance, {
          dailyCredits: usage.daily_cap,
          monthlyCredits: usage.monthly_cap,
          usedTodayCredits: usage.used_d,
          usedThisMonthCredits: usage.used_m,
        });
      });
    },

    close: () => committer.close(),
  };
  return ledger;
}
