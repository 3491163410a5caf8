/**
 * `ConsoleStore` over the SQLite accounts file: the console tables (`./console-store.ts`) plus the
 * steps that touch the accounts too (invite redemption, the plan, the usage report), each invite
 * step one immediate transaction with the account writes it causes.
 * See docs/operations.md#invite-codes.
 */
import { ApiError } from "../errors";
import type { SyncAdmin } from "./admin-types";
import { openConsoleStore } from "./console-store";
import type { ConsoleStore, ConsoleStoreOptions, SignedUp } from "./console-types";
import type { Sqlite } from "../sqlite";
import { usageReport } from "./usage-report";
import type { Plan } from "./types";

/** The SQLite service parts the console store writes through. */
export interface SqliteConsoleAccounts extends Pick<SyncAdmin, "createAccount" | "updateAccount"> {
  readonly db: Sqlite;
}

export const inviteNotFound = () => new ApiError(404, "invite_not_found", "That invite code is unknown, already redeemed or expired.");

export const inviteNotApplicable = (invitePlan: Plan, current: Plan) =>
  new ApiError(409, "invite_not_applicable", `This invite code is for the ${invitePlan} plan; the account is on ${current}, which an invite code does not change.`);

/** Whether an invite for `invitePlan` may be applied to an account on `current` (only `invite` accounts move). */
export const inviteApplies = (invitePlan: Plan, current: Plan): boolean => invitePlan === current || current === "invite";

/**
 * The console store of a SQLite accounts service (synchronous answers).
 * @example const store = openSqliteConsoleStore(accounts); store.createInvite({ plan: "invite" });
 */
export function openSqliteConsoleStore(accounts: SqliteConsoleAccounts, options: ConsoleStoreOptions = {}) {
  const { db } = accounts;
  const tables = openConsoleStore(db, options);
  const planOf = db.prepare<[string], { plan: Plan }>(`SELECT plan FROM accounts WHERE id = ?`);
  const accountPlan = (accountId: string): Plan | null => planOf.get(accountId)?.plan ?? null;

  const store = {
    ...tables,
    accountPlan,
    usageReport: (accountId: string, nowMs: number, days: number) => usageReport(db, accountId, nowMs, days),

    signUpWithInvite(code: string, passwordHash: string): SignedUp | null {
      return db
        .transaction(() => {
          const invite = tables.redeemInviteTx(code, null);
          if (!invite) return null;
          const account = accounts.createAccount({ plan: invite.plan, label: invite.label });
          tables.setInviteRedeemerTx(invite.inviteId, account.accountId);
          if (invite.credits > 0) accounts.updateAccount(account.accountId, { addCredits: invite.credits });
          tables.setPasswordHashTx(account.accountId, passwordHash);
          const session = tables.createSession(account.accountId);
          return { accountId: account.accountId, keyId: account.keyId, key: account.key, invite: { ...invite, redeemedBy: account.accountId }, session };
        })
        .immediate();
    },

    applyInvite(accountId: string, code: string) {
      return db
        .transaction(() => {
          const invite = tables.redeemInviteTx(code, accountId);
          if (!invite) throw inviteNotFound();
          const current = accountPlan(accountId);
          if (current === null) throw new ApiError(404, "account_not_found", "The account no longer exists.");
          // Thrown inside the transaction: the code is un-redeemed with it.
          if (!inviteApplies(invite.plan, current)) throw inviteNotApplicable(invite.plan, current);
          accounts.updateAccount(accountId, { plan: invite.plan, ...(invite.credits > 0 ? { addCredits: invite.credits } : {}) });
          return { plan: invite.plan, creditsAdded: invite.credits };
        })
        .immediate();
    },
  };
  return store satisfies ConsoleStore;
}

export type SqliteConsoleStore = ReturnType<typeof openSqliteConsoleStore>;
