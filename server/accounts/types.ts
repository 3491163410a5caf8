/**
 * The contract between the accounts/limits services and the rest of the server (pipeline,
 * routes, streams, MCP, CLI), split by job: `AccountAuth`, `CreditLedger` (composed into the
 * `AccountService` the app receives) and `AccountAdmin` (`./admin-types`, for the CLI). No driver
 * types appear here. Every method may answer at once (the embedded SQLite store) or with a
 * promise (PostgreSQL, shared by several instances), like the limiter interfaces: callers always
 * `await`. `debitAsync`/`refundAsync` are group-committed and always promises.
 * See docs/api.md#accounts-and-keys, docs/api.md#credits-and-ledger, docs/api.md#limits.
 */
import type { z } from "zod";
import type { OAuthStore, OAuthStoreOptions } from "../oauth/oauth-store";
import type { ConsoleStore, ConsoleStoreOptions } from "./console-types";
import { AccountStatusSchema, PlanSchema, type AccountLimitsSchema, type AccountRecordSchema } from "./schemas";

/** Plan tiers of the spec ("Plans decide which data an account may read"). */
export type Plan = z.output<typeof PlanSchema>;
export const PLANS: readonly Plan[] = PlanSchema.options;

/** Administrative state of an account; only `active` may call the API. */
export type AccountStatus = z.output<typeof AccountStatusSchema>;
export const ACCOUNT_STATUSES: readonly AccountStatus[] = AccountStatusSchema.options;

/** The spec's `limits.*` fields of the Account record (all integers). */
export type AccountLimits = z.output<typeof AccountLimitsSchema>;

/** A value now (embedded store) or later (networked store); callers `await` it. */
export type MaybePromise<T> = T | Promise<T>;

/** Who is calling: the result of `authenticate`. Never contains the key itself. */
export interface Principal {
  accountId: string;
  keyId: string;
  plan: Plan;
  limits: AccountLimits;
}

/**
 * What a route needs. `none` is for free, key-only routes such as `/v1/account`.
 * `positioning` (heatmap, levels, stats, stream), `replay` (`/v1/historical`), `flow` (the flow
 * module), `volatility` (the volatility module), `price` (the price/UDF host).
 */
export type Entitlement = "positioning" | "replay" | "flow" | "volatility" | "price" | "none";

/** `data` of `GET /v1/account`: the spec's Account record plus additive fields. */
export type AccountRecord = z.output<typeof AccountRecordSchema>;

/** Reference to the request a ledger entry belongs to. */
export interface LedgerRef {
  requestId: string;
  route: string;
}

/** Result of a debit or a refund: the balance after it and the ledger row written (if any). */
export interface BalanceResult {
  balance: number;
  /** Id of the ledger row written; null when nothing was written (0 credits, nothing to refund). */
  ledgerId: number | null;
}

/** A clock: a function returning Unix ms, or an object with `now()` (lib/market's `Clock`) or `nowMs()`. */
export type ClockLike = (() => number) | { now(): number } | { nowMs(): number };

/**
 * What an OAuth grant names: the account, the API key that signed in (the grant lives only as
 * long as that key), and the rate-limit bucket of the connected app.
 */
export interface GrantRef {
  accountId: string;
  keyId: string;
  /** Rate-limit bucket (the connected app's id): becomes `Principal.keyId`. */
  bucketId: string;
}

/** Who is calling and what they may read. Store-agnostic: no driver types. */
export interface AccountAuth {
  /**
   * Resolve the `Authorization` header to a principal. Throws `ApiError`:
   * 401 `unauthorized` (no header / empty), 403 `forbidden` (unknown, revoked, expired key:
   * identical bodies), 403 `account_suspended`, 403 `account_blocked`.
   */
  authenticate(authorizationHeader: string | null | undefined): MaybePromise<Principal>;
  /**
   * Re-check a principal that was authenticated earlier (long-lived streams). Throws the same
   * errors as `authenticate`; a revoked or expired key gives 403 `forbidden` (streams map that
   * to their `key_revoked` close reason). Returns a fresh principal (plan/limits may have changed).
   */
  revalidate(p: Principal): MaybePromise<Principal>;
  /**
   * The principal of an OAuth grant: the account's current plan and limits, `keyId` = the
   * grant's `bucketId`. Throws 403 `forbidden` when the key that signed in is revoked, expired
   * or not the account's (the grant died with it), 403 `account_suspended` / `account_blocked`,
   * 503 `credit_check_failed`. Reads by primary key only.
   */
  principalForGrant(grant: GrantRef): MaybePromise<Principal>;
  /** 403 `not_entitled` / `opra_agreement_required`. `symbols` are checked against the plan's list. */
  assertEntitled(p: Principal, entitlement: Entitlement, symbols?: readonly string[]): MaybePromise<void>;
}

/**
 * Credits: charging, refunds, balance, caps and the account view. Every method costs O(1) in the
 * ledger's size (docs/operations.md#ledger-cost).
 */
export interface CreditLedger {
  /**
   * Atomically charge `credits`. 402 `insufficient_credits` (header X-Credits-Remaining),
   * `daily_cap_reached` (Retry-After to midnight ET), `monthly_cap_reached`;
   * 503 `credit_check_failed` when the store cannot be read or written (nothing charged).
   */
  debit(p: Principal, credits: number, ref: LedgerRef): MaybePromise<BalanceResult>;
  /**
   * Compensating entry for an earlier debit of the same `requestId`; never refunds more than
   * was debited (net) under that request id, so calling it twice is harmless.
   */
  refund(p: Principal, credits: number, ref: LedgerRef): MaybePromise<BalanceResult>;
  /**
   * `debit` through group commit: resolves once the transaction holding it is committed (fsynced
   * at `synchronous=FULL`), together with the other debits and refunds of the same short window;
   * rejects with the same errors as `debit`. Optional so that test doubles may omit it; the
   * pipeline falls back to `debit`. See docs/operations.md#group-commit.
   * `after`: the call's rate-limit answer, still coming. The debit may be queued meanwhile (its
   * group-commit window already counting) but is written only once `after` resolves; if it
   * rejects, nothing is written and this rejects with its error (docs/architecture.md#admission-overlap).
   */
  debitAsync?(p: Principal, credits: number, ref: LedgerRef, after?: Promise<unknown>): Promise<BalanceResult>;
  /** `refund` through group commit (see `debitAsync`). */
  refundAsync?(p: Principal, credits: number, ref: LedgerRef): Promise<BalanceResult>;
  /** Current balance in credits (applies a due monthly grant first). */
  balance(accountId: string): MaybePromise<number>;
  /** `data` of `GET /v1/account`. */
  accountView(p: Principal): MaybePromise<AccountRecord>;
}

/** What the app receives: auth and credits over one store. */
export interface AccountService extends AccountAuth, CreditLedger {
  /**
   * The OAuth store kept in the same database as these accounts (its grants name accounts and
   * keys, and are checked against them through `principalForGrant`). Absent when the store keeps
   * none (test doubles): the tool server then takes API keys only.
   */
  openOAuthStore?(options?: OAuthStoreOptions): OAuthStore;
  /**
   * The developer console's store in the same database (sessions, passwords, invite codes,
   * last-used times). Absent when the store keeps none (test doubles): the console is then not served.
   */
  openConsoleStore?(options?: ConsoleStoreOptions): ConsoleStore;
  close(): MaybePromise<void>;
}

/** Per-key requests-per-minute limiter: at most the limit in any 60 s (an exact sliding log, server/limits/rate-limiter.ts). */
/** One rate-limit decision: the three `X-RateLimit-*` figures and whether the request counts. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSec: number;
}

/**
 * Per-key requests-per-minute limiter. In-process limiters answer at once; shared ones (Redis,
 * for several instances) answer with a promise, so callers always `await`.
 */
export interface RateLimiter {
  take(keyId: string, limitPerMinute: number, nowMs: number): RateDecision | Promise<RateDecision>;
  /** The same figures without counting a request (responses that are not requests of their own). */
  peek?(keyId: string, limitPerMinute: number, nowMs: number): RateDecision | Promise<RateDecision>;
}

/** Frees a held slot; idempotent. */
export type SlotRelease = () => void;

/**
 * Per-account concurrency slots by kind (`historical`, `stream-symbols`, ...). `units` (default
 * 1) lets streams hold one unit per symbol. The returned release function is idempotent.
 */
export interface ConcurrencyLimiter {
  tryAcquire(accountId: string, kind: string, max: number, units?: number): SlotRelease | null | Promise<SlotRelease | null>;
  /** Units currently held by an account for a kind. */
  inUse(accountId: string, kind: string): number | Promise<number>;
}

/** Concurrency kinds used across the server, so nobody spells them differently. */
export const SLOT_HISTORICAL = "historical";
export const SLOT_STREAM_SYMBOLS = "stream-symbols";

/**
 * `T` with the named methods answering at once (what the embedded SQLite store gives its direct
 * callers: tests, the CLI, backups), so those need not `await`.
 */
export type Synchronous<T, K extends keyof T> = Omit<T, K> & {
  [P in K]-?: NonNullable<T[P]> extends (...args: infer A) => infer R ? (...args: A) => Awaited<R> : T[P];
};

/** The contract's methods, all answering at once: what the SQLite store gives. */
export type SyncAuth = Synchronous<AccountAuth, keyof AccountAuth>;
export type SyncLedger = Synchronous<CreditLedger, "debit" | "refund" | "balance" | "accountView">;
