/**
 * The administrative side of the accounts store (the CLI and tests): accounts, keys, the ledger
 * listing and its audit. Store-agnostic: no driver types. See docs/operations.md#accounts-cli.
 */
import type { AccountStatus, MaybePromise, Plan, Synchronous } from "./types";

export interface CreateAccountInput {
  plan: Plan;
  /** Starting balance; when given it replaces the plan's initial grant (an `adjust` entry). */
  credits?: number;
  label?: string | null;
  status?: AccountStatus;
  /** Credits per ET day; null = no cap; undefined = the plan's default. */
  dailyCapCredits?: number | null;
  /** Credits per ET month; null = no cap; undefined = the plan's default. */
  monthlyCapCredits?: number | null;
  opraAgreement?: boolean;
  /**
   * Requests per minute per key instead of the plan's `limits.requestsPerMinute`; null or
   * undefined = the plan's. For load benches and negotiated limits (docs/operations.md#group-commit).
   */
  requestsPerMinute?: number | null;
}

export interface UpdateAccountInput {
  status?: AccountStatus;
  plan?: Plan;
  /** Set the balance to exactly this many credits (an `adjust` ledger entry). */
  credits?: number;
  /** Add purchased credits (a `purchase` ledger entry). */
  addCredits?: number;
  dailyCapCredits?: number | null;
  monthlyCapCredits?: number | null;
  opraAgreement?: boolean;
  label?: string | null;
  /** Requests-per-minute override; null = back to the plan's limit. */
  requestsPerMinute?: number | null;
}

export type KeyState = "active" | "revoked" | "expired";

interface KeyInfo {
  keyId: string;
  accountId: string;
  /** Non-secret display prefix, e.g. `osk_live_a1B2c3`. */
  prefix: string;
  state: KeyState;
  createdAt: string;
  revokedAt: string | null;
  expiresAt: string | null;
}

export interface AccountDetails {
  accountId: string;
  label: string | null;
  plan: Plan;
  status: AccountStatus;
  opraAgreement: boolean;
  dailyCapCredits: number | null;
  monthlyCapCredits: number | null;
  /** Requests-per-minute override, or null when the plan's limit applies. */
  requestsPerMinuteOverride: number | null;
  createdAt: string;
  creditsBalance: number;
  /** Sum of the account's ledger (an audit figure: it reads every row, so admin views only). */
  ledgerSumCredits: number;
  usedTodayCredits: number;
  usedThisMonthCredits: number;
  keys: KeyInfo[];
}

export interface LedgerEntry {
  id: number;
  accountId: string;
  tsMs: number;
  delta: number;
  kind: "debit" | "refund" | "grant" | "purchase" | "adjust";
  requestId: string | null;
  route: string | null;
  balanceAfter: number;
}

/** Admin operations; none of them is on a request path. Each may answer at once or with a promise. */
export interface AccountAdmin {
  createAccount(input: CreateAccountInput): MaybePromise<{ accountId: string; keyId: string; key: string }>;
  updateAccount(accountId: string, input: UpdateAccountInput): MaybePromise<AccountDetails>;
  getAccount(accountId: string): MaybePromise<AccountDetails>;
  listAccounts(): MaybePromise<AccountDetails[]>;
  findAccountByLabel(label: string): MaybePromise<string | null>;
  createKey(accountId: string, options?: { expiresAtMs?: number | null }): MaybePromise<{ keyId: string; key: string }>;
  /**
   * Revoke by full key or by key id. Idempotent; 404 `key_not_found` when neither matches.
   * OAuth grants signed in with the key stop with it (`AccountAuth.principalForGrant`).
   */
  revokeKey(keyOrId: string): MaybePromise<{ keyId: string; accountId: string; alreadyRevoked: boolean }>;
  ledger(accountId: string, options?: { limit?: number }): MaybePromise<LedgerEntry[]>;
  /** Accounts whose balance differs from their ledger sum (empty when the store is consistent). */
  verifyLedger(): MaybePromise<{ accountId: string; balance: number; ledgerSum: number }[]>;
}

/** The admin operations answering at once (the SQLite store). */
export type SyncAdmin = Synchronous<AccountAdmin, keyof AccountAdmin>;
