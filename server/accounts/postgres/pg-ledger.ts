/**
 * `CreditLedger` over PostgreSQL: every debit and refund goes through the group-committing batcher
 * (`os_apply`: the conditional balance update, the ledger row and the cap counters in one
 * transaction), so `debit` and `debitAsync` are the same call. Outcomes map to the same errors as
 * the SQLite ledger. See docs/api.md#credits-and-ledger and docs/operations.md#postgresql.
 */
import { ApiError } from "../../errors";
import { assertCredits, forbidden, storeFailure } from "../account-errors";
import { secondsUntilEtMidnight } from "../et-periods";
import { accountRecordOf } from "../account-rows";
import { usagePeriods } from "../sqlite-ledger";
import type { AccountRecord, BalanceResult, CreditLedger, LedgerRef, Principal } from "../types";
import { createPgBatcher, DEFAULT_PG_GROUP_COMMIT_WINDOW_MS, type PgBatcher, type PgOpResult } from "./pg-batcher";
import type { Sql } from "./pg-connection";
import { grantDue, type PgStore } from "./pg-store";

export interface PgCreditLedger extends CreditLedger {
  debit(p: Principal, credits: number, ref: LedgerRef): Promise<BalanceResult>;
  refund(p: Principal, credits: number, ref: LedgerRef): Promise<BalanceResult>;
  debitAsync(p: Principal, credits: number, ref: LedgerRef, after?: Promise<unknown>): Promise<BalanceResult>;
  refundAsync(p: Principal, credits: number, ref: LedgerRef): Promise<BalanceResult>;
  balance(accountId: string): Promise<number>;
  accountView(p: Principal): Promise<AccountRecord>;
  batcher: PgBatcher;
}

/** The error of a refused debit (the same bodies and headers as the SQLite ledger). */
function refusal(r: PgOpResult, credits: number, tsMs: number): ApiError {
  const remaining = String(r.balance ?? 0);
  if (r.code === "forbidden") return forbidden();
  if (r.code === "daily_cap_reached") {
    const retryAfter = secondsUntilEtMidnight(tsMs);
    return new ApiError(402, "daily_cap_reached", `The daily credit cap of ${r.cap} credits is reached; it resets at midnight ET.`, {
      headers: { "Retry-After": String(retryAfter), "X-Credits-Remaining": remaining },
      details: { retry_after: retryAfter },
    });
  }
  if (r.code === "monthly_cap_reached") {
    return new ApiError(
      402,
      "monthly_cap_reached",
      `The account's monthly spend cap of ${r.cap} credits is reached; it resets on the 1st (ET) or when the cap is raised.`,
      {
        headers: { "X-Credits-Remaining": remaining },
      },
    );
  }
  if (r.code === "insufficient_credits") {
    return new ApiError(402, "insufficient_credits", `This request costs ${credits} credits; the balance is ${remaining}.`, {
      headers: { "X-Credits-Remaining": remaining },
    });
  }
  return storeFailure();
}

export function createPgLedger(store: PgStore, options: { groupCommitWindowMs?: number; commitSql?: Sql; reopenCommitSql?: () => Sql } = {}): PgCreditLedger {
  const { sql, guarded, now } = store;
  // Batches go on `commitSql` when given (a connection of their own, replaced by `reopenCommitSql`
  // after a batch passed the deadline), else on the store's pool.
  const batcher = createPgBatcher(options.commitSql ?? sql, {
    windowMs: options.groupCommitWindowMs ?? DEFAULT_PG_GROUP_COMMIT_WINDOW_MS,
    storeFailure,
    timeoutMs: store.timeoutMs,
    reopen: options.commitSql ? options.reopenCommitSql : undefined,
  });

  async function debit(p: Principal, credits: number, ref: LedgerRef, after?: Promise<unknown>): Promise<BalanceResult> {
    assertCredits("credits", credits, true);
    if (credits === 0) {
      await after;
      return { balance: await ledger.balance(p.accountId), ledgerId: null };
    }
    const tsMs = now();
    const { day, month } = usagePeriods(tsMs);
    const g = grantDue(p.plan, tsMs);
    const r = await batcher.submit(
      { op: "debit", a: p.accountId, n: credits, rq: ref.requestId, rt: ref.route, ts: tsMs, d: day, m: month, gp: g.period, gc: g.credits, gm: g.monthly },
      after,
    );
    if (r.code !== "ok") throw refusal(r, credits, tsMs);
    return { balance: r.balance!, ledgerId: r.ledger_id };
  }

  async function refund(p: Principal, credits: number, ref: LedgerRef): Promise<BalanceResult> {
    assertCredits("credits", credits, true);
    const tsMs = now();
    const g = grantDue(p.plan, tsMs);
    const r = await batcher.submit({ op: "refund", a: p.accountId, n: credits, rq: ref.requestId, rt: ref.route, ts: tsMs, gp: g.period, gc: g.credits, gm: g.monthly });
    if (r.code !== "ok") throw refusal(r, credits, tsMs);
    return { balance: r.balance ?? 0, ledgerId: r.ledger_id };
  }

  const ledger: PgCreditLedger = {
    batcher,
    debit,
    refund,
    debitAsync: debit,
    refundAsync: refund,

    balance: (accountId) =>
      guarded(async () => {
        const row = await store.requireAccount(accountId);
        await store.ensureGrant(accountId, row.plan, now());
        return store.balanceOf(accountId);
      }),

    accountView: (p) =>
      guarded(async () => {
        const tsMs = now();
        const row = await store.requireAccount(p.accountId);
        await store.ensureGrant(row.id, row.plan, tsMs);
        const { day, month } = usagePeriods(tsMs);
        const [u] = await sql<{ credits: number; used_d: number; used_m: number }[]>`
          SELECT b.credits,
                 coalesce((SELECT credits FROM usage WHERE account_id = b.account_id AND period = ${day}), 0) AS used_d,
                 coalesce((SELECT credits FROM usage WHERE account_id = b.account_id AND period = ${month}), 0) AS used_m
            FROM balances b WHERE b.account_id = ${row.id}`;
        const creditsBalance = u?.credits ?? 0;
        return accountRecordOf(row, creditsBalance, {
          dailyCredits: row.daily_cap,
          monthlyCredits: row.monthly_cap,
          usedTodayCredits: u?.used_d ?? 0,
          usedThisMonthCredits: u?.used_m ?? 0,
        });
      }),
  };
  return ledger;
}
