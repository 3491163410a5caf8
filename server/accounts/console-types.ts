/**
 * The developer console's store, store-agnostic: passwords, setup links, sessions, invite codes,
 * last-used times, the monthly cap, the key list and the usage report. Every method may answer at
 * once (SQLite, `./sqlite-console.ts`) or with a promise (PostgreSQL, `./postgres/pg-console.ts`):
 * callers `await`. Invite redemption is one operation per use (`signUpWithInvite`, `applyInvite`),
 * each one transaction with its conditional update, so a code is spent once across instances.
 * The two ways in that spend a secret (`setUpWithLink`, `signUpWithInvite`) also set the password
 * and open the session in that transaction: all of it happens or none of it
 * (docs/operations.md#console-failures).
 * See docs/operations.md#console-on-postgresql.
 */
import type { KeyState } from "./admin-types";
import type { UsageReport } from "./usage-report";
import type { MaybePromise, Plan } from "./types";

export interface ConsoleSession {
  accountId: string;
  csrfToken: string;
  createdMs: number;
  expiresMs: number;
}

export interface InviteCode {
  inviteId: string;
  /** Non-secret display prefix of the code. */
  prefix: string;
  plan: Plan;
  /** Purchased credits added on redemption (0 = none). */
  credits: number;
  label: string | null;
  createdAt: string;
  expiresAt: string | null;
  redeemedAt: string | null;
  redeemedBy: string | null;
  state: "open" | "redeemed" | "expired";
}

/** A key as the console lists it (never the key itself). */
export interface ConsoleKey {
  keyId: string;
  prefix: string;
  state: KeyState;
  createdAt: string;
  revokedAt: string | null;
  expiresAt: string | null;
  /** Last authenticated use, to the minute (written in batches by the server); null = never. */
  lastUsedAt: string | null;
}

/** Session lifetimes: absolute and idle, ms. */
export interface SessionTtls {
  absoluteMs: number;
  idleMs: number;
}

/** A session just written: the cookie value (shown once), the page's CSRF token, its absolute expiry. */
export interface NewSession {
  sessionId: string;
  csrfToken: string;
  expiresMs: number;
}

export interface ConsoleStoreOptions {
  now?: () => number;
  sessionTtls?: SessionTtls;
}

export interface NewInvite {
  plan: Plan;
  credits?: number;
  label?: string | null;
  expiresAtMs?: number | null;
}

/** An account opened with an invite code: its first key (shown once) and its first session. */
export interface SignedUp {
  accountId: string;
  keyId: string;
  key: string;
  invite: InviteCode;
  session: NewSession;
}

export interface ConsoleStore {
  now: () => number;
  passwordHash(accountId: string): MaybePromise<string | null>;
  /** Set the account's password hash and end its sessions (a changed password signs everyone out). */
  setPasswordHash(accountId: string, passwordHash: string): MaybePromise<void>;
  /** A one-time setup link token for the account (the CLI prints it inside a URL). */
  createSetupLink(accountId: string, ttlMs?: number): MaybePromise<{ token: string; expiresMs: number }>;
  /** Use a setup link: the account it names, once; null when unknown, used or expired. */
  consumeSetupLink(token: string): MaybePromise<string | null>;
  /**
   * Sign in through a setup link, in one transaction: the link is spent, the password set (ending
   * the account's other sessions) and a session opened. null (nothing written) when the link is
   * unknown, used or expired; a failure leaves the link unspent and the password unchanged.
   */
  setUpWithLink(token: string, passwordHash: string): MaybePromise<({ accountId: string } & NewSession) | null>;
  /** A new session (always a fresh id: a session id is never chosen by the browser). */
  createSession(accountId: string): MaybePromise<NewSession>;
  /** The live session of an id, or null (unknown, expired, idle too long). Refreshes its idle clock. */
  session(sessionId: string): MaybePromise<ConsoleSession | null>;
  endSession(sessionId: string): MaybePromise<boolean>;
  endSessionsOf(accountId: string): MaybePromise<number>;
  /** A new invite code (shown once) for `plan`, adding `credits` on redemption. */
  createInvite(input: NewInvite): MaybePromise<{ code: string; invite: InviteCode }>;
  listInvites(): MaybePromise<InviteCode[]>;
  /** Write last-use times of keys (batched by the server; a deleted key is skipped). */
  recordKeyUses(uses: ReadonlyMap<string, number>): MaybePromise<void>;
  /** Set (null: remove) the monthly spend cap; `undefined` when the account does not exist. */
  setMonthlyCap(accountId: string, credits: number | null): MaybePromise<number | null | undefined>;
  /** The account's keys with their state and last use (no ledger read). */
  keysOf(accountId: string): MaybePromise<ConsoleKey[]>;
  /** The account's plan, or null when there is no such account. */
  accountPlan(accountId: string): MaybePromise<Plan | null>;
  /** Credits spent by ET day and endpoint over the last `days` days (docs/methodology.md#console-usage-report). */
  usageReport(accountId: string, nowMs: number, days: number): MaybePromise<UsageReport>;
  /**
   * Open an account with an invite code, in one transaction: the code is marked redeemed (only if
   * open and unexpired), the account is created on its plan with its label, its credits added as
   * a purchase, its password set and a session opened. null (nothing written) when the code is
   * unknown, used or expired; a failure leaves the code open and no account.
   */
  signUpWithInvite(code: string, passwordHash: string): MaybePromise<SignedUp | null>;
  /**
   * Redeem a code on an existing account, in one transaction: 404 `invite_not_found` (unknown,
   * used, expired), 409 `invite_not_applicable` (a listed plan is never changed by a code; the
   * code stays open). Moves an `invite` account to the code's plan and adds its credits.
   */
  applyInvite(accountId: string, code: string): MaybePromise<{ plan: Plan; creditsAdded: number }>;
}
