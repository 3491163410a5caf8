/**
 * The accounts service over SQLite: authentication, entitlements, debits/refunds with caps and
 * lazy plan grants, and the admin operations the CLI uses. Every read goes to the store (one
 * indexed lookup), so a change made by the CLI through another connection is seen by the next
 * request. See docs/api.md#accounts-and-keys and docs/api.md#credits-and-ledger.
 */
import type Database from "better-sqlite3";
import { ApiError, isApiError } from "../errors";
import { etPeriods, secondsUntilEtMidnight } from "./et-periods";
import { createGroupCommitter, type GroupCommitStats } from "./group-commit";
import {
  displayPrefix,
  generateKey,
  hashesEqual,
  hashKey,
  KEY_PREFIX,
  keyFromAuthorization,
  newId,
} from "./keys";
import { openAccountsDb } from "./open-db";
import { isPlan, OPRA_ENTITLEMENTS, planDefinition } from "./plans";
import type {
  AccountLimits,
  AccountRecord,
  AccountService,
  AccountStatus,
  BalanceResult,
  ClockLike,
  Entitlement,
  LedgerRef,
  Plan,
  Principal,
} from "./types";

/** A principal as this service issues it: the contract's fields plus the OPRA flag. */
export interface AccountPrincipal extends Principal {
  /** The account has a signed OPRA subscriber agreement on file. */
  opraAgreement: boolean;
}

export interface OpenAccountServiceOptions {
  /** Path of the SQLite file (`accountsDbPath(dataDir)`), or `:memory:` for throwaway tests. */
  dbPath: string;
  /** Wall clock for ledger timestamps, caps and grants (default `Date.now`). */
  clock?: ClockLike;
  /** Writer wait for another connection's lock before 503 `credit_check_failed` (ms, default 5000). */
  busyTimeoutMs?: number;
  /** `full` (default) or `normal`; see `OpenDbOptions.durability` and docs/operations.md#durability. */
  durability?: "full" | "normal";
  /**
   * Group-commit window of `debitAsync`/`refundAsync`, ms: 0 (default) batches what arrives in
   * the same event-loop turn; larger values wait that long for more. See docs/operations.md#group-commit.
   */
  groupCommitWindowMs?: number;
  /**
   * Whether a symbol exists in the market at all. When given, unknown symbols are left out of
   * the plan's symbol check, so the route drops them (spec: unknown symbols are dropped, 404 only
   * when none is known) instead of answering 403 `not_entitled`.
   */
  isKnownSymbol?: (symbol: string) => boolean;
}

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

export interface KeyInfo {
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

/** The full service: the contract plus admin operations for the CLI and tests. */
export interface SqliteAccountService extends AccountService {
  authenticate(authorizationHeader: string | null | undefined): AccountPrincipal;
  revalidate(p: Principal): AccountPrincipal;
  createAccount(input: CreateAccountInput): { accountId: string; keyId: string; key: string };
  updateAccount(accountId: string, input: UpdateAccountInput): AccountDetails;
  getAccount(accountId: string): AccountDetails;
  listAccounts(): AccountDetails[];
  findAccountByLabel(label: string): string | null;
  createKey(accountId: string, options?: { expiresAtMs?: number | null }): { keyId: string; key: string };
  /** Revoke by full key or by key id. Idempotent; 404 `key_not_found` when neither matches. */
  revokeKey(keyOrId: string): { keyId: string; accountId: string; alreadyRevoked: boolean };
  ledger(accountId: string, options?: { limit?: number }): LedgerEntry[];
  /** Accounts whose balance differs from their ledger sum (empty when the store is consistent). */
  verifyLedger(): { accountId: string; balance: number; ledgerSum: number }[];
  debitAsync(p: Principal, credits: number, ref: LedgerRef): Promise<BalanceResult>;
  refundAsync(p: Principal, credits: number, ref: LedgerRef): Promise<BalanceResult>;
  /** How many group commits acknowledged how many async debits and refunds so far. */
  groupCommitStats(): GroupCommitStats;
  /** The underlying connection (tests, backups). */
  readonly db: Database.Database;
}

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

interface AuthRow {
  key_id: string;
  hash: Buffer;
  revoked_ms: number | null;
  expires_ms: number | null;
  account_id: string;
  plan: Plan;
  status: AccountStatus;
  opra_agreement: number;
  requests_per_minute: number | null;
}

/** The one body for unknown, invalid, revoked and expired keys (spec: identical 403s). */
function forbidden(): ApiError {
  return new ApiError(403, "forbidden", "The API key is not valid.");
}

function statusError(status: AccountStatus): ApiError | null {
  if (status === "suspended") {
    return new ApiError(403, "account_suspended", "API access for this account is suspended.");
  }
  if (status === "blocked") {
    return new ApiError(403, "account_blocked", "API access for this account is blocked.");
  }
  return null;
}

function storeFailure(): ApiError {
  return new ApiError(503, "credit_check_failed", "The credit balance could not be verified; nothing was charged. Retry shortly.", {
    headers: { "Retry-After": "1" },
    details: { retry_after: 1 },
  });
}

function iso(ms: number | null): string | null {
  return ms == null ? null : new Date(ms).toISOString();
}

function assertCredits(name: string, value: number, allowZero: boolean): void {
  if (!Number.isSafeInteger(value) || value < 0 || (!allowZero && value === 0)) {
    throw new ApiError(400, "invalid_parameter", `${name} must be a ${allowZero ? "non-negative" : "positive"} integer number of credits.`);
  }
}

function assertRpm(value: number | null | undefined): void {
  if (value != null && (!Number.isSafeInteger(value) || value <= 0)) {
    throw new ApiError(400, "invalid_parameter", "requests per minute must be a positive integer.");
  }
}

function assertCap(name: string, value: number | null | undefined): void {
  if (value != null) assertCredits(name, value, true);
}

/**
 * Open the accounts store at `dbPath` (created and migrated if needed) and return the service.
 * @example
 * const accounts = openAccountService({ dbPath: accountsDbPath(dataDir) });
 * const p = accounts.authenticate(request.headers.get("authorization"));
 */
export function openAccountService(options: OpenAccountServiceOptions): SqliteAccountService {
  const db = openAccountsDb(options.dbPath, { busyTimeoutMs: options.busyTimeoutMs, durability: options.durability });
  const clock = options.clock;
  const now: () => number =
    clock == null
      ? Date.now
      : typeof clock === "function"
        ? clock
        : "now" in clock
          ? () => clock.now()
          : () => clock.nowMs();

  const q = {
    auth: db.prepare<[Buffer], AuthRow>(
      `SELECT k.id AS key_id, k.hash, k.revoked_ms, k.expires_ms,
              a.id AS account_id, a.plan, a.status, a.opra_agreement, a.requests_per_minute
         FROM api_keys k JOIN accounts a ON a.id = k.account_id
        WHERE k.hash = ?`,
    ),
    keyById: db.prepare<[string], { id: string; account_id: string; revoked_ms: number | null; expires_ms: number | null }>(
      `SELECT id, account_id, revoked_ms, expires_ms FROM api_keys WHERE id = ?`,
    ),
    keyByHash: db.prepare<[Buffer], { id: string; account_id: string; revoked_ms: number | null; hash: Buffer }>(
      `SELECT id, account_id, revoked_ms, hash FROM api_keys WHERE hash = ?`,
    ),
    account: db.prepare<[string], AccountRow>(`SELECT * FROM accounts WHERE id = ?`),
    accountIds: db.prepare<[], { id: string }>(`SELECT id FROM accounts ORDER BY created_ms, id`),
    accountByLabel: db.prepare<[string], { id: string }>(
      `SELECT id FROM accounts WHERE label = ? ORDER BY created_ms LIMIT 1`,
    ),
    insertAccount: db.prepare(
      `INSERT INTO accounts (id, label, plan, status, opra_agreement, daily_cap, monthly_cap, requests_per_minute, created_ms)
       VALUES (@id, @label, @plan, @status, @opra, @dailyCap, @monthlyCap, @rpm, @createdMs)`,
    ),
    insertBalance: db.prepare(`INSERT INTO balances (account_id, credits) VALUES (?, 0)`),
    balance: db.prepare<[string], { credits: number }>(`SELECT credits FROM balances WHERE account_id = ?`),
    debitBalance: db.prepare<[number, string, number], { credits: number }>(
      `UPDATE balances SET credits = credits - ? WHERE account_id = ? AND credits >= ? RETURNING credits`,
    ),
    creditBalance: db.prepare<[number, string], { credits: number }>(
      `UPDATE balances SET credits = credits + ? WHERE account_id = ? RETURNING credits`,
    ),
    insertLedger: db.prepare(
      `INSERT INTO ledger (account_id, ts_ms, delta, kind, request_id, route, balance_after)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
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
    requestLedger: db.prepare<[string, string], { debited: number | null; refunded: number | null; last_debit_ms: number | null }>(
      `SELECT sum(CASE WHEN kind = 'debit' THEN -delta END) AS debited,
              sum(CASE WHEN kind = 'refund' THEN delta END) AS refunded,
              max(CASE WHEN kind = 'debit' THEN ts_ms END) AS last_debit_ms
         FROM ledger WHERE account_id = ? AND request_id = ?`,
    ),
    grantExists: db.prepare<[string, string], { one: number }>(
      `SELECT 1 AS one FROM grants WHERE account_id = ? AND period = ?`,
    ),
    insertGrant: db.prepare(`INSERT INTO grants (account_id, period, ledger_id) VALUES (?, ?, ?)`),
    insertKey: db.prepare(
      `INSERT INTO api_keys (id, account_id, prefix, hash, created_ms, revoked_ms, expires_ms)
       VALUES (?, ?, ?, ?, ?, NULL, ?)`,
    ),
    activeKeyCount: db.prepare<[string, number], { n: number }>(
      `SELECT count(*) AS n FROM api_keys
        WHERE account_id = ? AND revoked_ms IS NULL AND (expires_ms IS NULL OR expires_ms > ?)`,
    ),
    keysOf: db.prepare<[string], { id: string; account_id: string; prefix: string; created_ms: number; revoked_ms: number | null; expires_ms: number | null }>(
      `SELECT id, account_id, prefix, created_ms, revoked_ms, expires_ms FROM api_keys
        WHERE account_id = ? ORDER BY created_ms, id`,
    ),
    revokeKey: db.prepare(`UPDATE api_keys SET revoked_ms = ? WHERE id = ? AND revoked_ms IS NULL`),
    ledgerSum: db.prepare<[string], { s: number }>(
      `SELECT coalesce(sum(delta), 0) AS s FROM ledger WHERE account_id = ?`,
    ),
    ledgerOf: db.prepare<[string, number], { id: number; account_id: string; ts_ms: number; delta: number; kind: LedgerEntry["kind"]; request_id: string | null; route: string | null; balance_after: number }>(
      `SELECT * FROM ledger WHERE account_id = ? ORDER BY id DESC LIMIT ?`,
    ),
    mismatches: db.prepare<[], { account_id: string; credits: number; s: number }>(
      `SELECT b.account_id, b.credits, coalesce(l.s, 0) AS s
         FROM balances b LEFT JOIN (SELECT account_id, sum(delta) AS s FROM ledger GROUP BY account_id) l
           ON l.account_id = b.account_id
        WHERE b.credits <> coalesce(l.s, 0)`,
    ),
  };

  /** Grants already known to be applied (grants are never removed, so this cannot go stale). */
  const appliedGrants = new Set<string>();

  function writeLedger(accountId: string, tsMs: number, delta: number, kind: LedgerEntry["kind"], ref: LedgerRef | null, balanceAfter: number): number {
    const info = q.insertLedger.run(accountId, tsMs, delta, kind, ref?.requestId ?? null, ref?.route ?? null, balanceAfter);
    return Number(info.lastInsertRowid);
  }

  /** Apply the plan's due grant, idempotently (one `grants` row per account and period). Call inside a transaction. */
  function ensureGrantTx(accountId: string, plan: Plan, tsMs: number): void {
    const def = planDefinition(plan);
    const period = def.grantSchedule === "monthly" ? `m:${etPeriods(tsMs).month}` : "once";
    const cacheKey = `${accountId}|${period}`;
    if (appliedGrants.has(cacheKey)) return;
    if (q.grantExists.get(accountId, period)) {
      // Cache only grants seen as already present: a grant inserted by this transaction may
      // still be rolled back (for example by a 402 later in the same debit).
      appliedGrants.add(cacheKey);
    } else {
      const current = q.balance.get(accountId)?.credits ?? 0;
      // Monthly plans top the balance up to the allowance (purchased credits above it are kept);
      // one-off grants add. A zero-delta row still marks the period as granted.
      const delta = def.grantSchedule === "monthly" ? Math.max(0, def.grantCredits - current) : def.grantCredits;
      const after = delta > 0 ? q.creditBalance.get(delta, accountId)!.credits : current;
      const ledgerId = writeLedger(accountId, tsMs, delta, "grant", { requestId: `grant:${period}`, route: "grant" }, after);
      q.insertGrant.run(accountId, period, ledgerId);
    }
  }

  function grantDue(accountId: string, plan: Plan, tsMs: number): boolean {
    const def = planDefinition(plan);
    const period = def.grantSchedule === "monthly" ? `m:${etPeriods(tsMs).month}` : "once";
    return !appliedGrants.has(`${accountId}|${period}`);
  }

  const ensureGrantTxn = db.transaction((accountId: string, plan: Plan, tsMs: number) => ensureGrantTx(accountId, plan, tsMs));

  /** Run a store operation, turning store failures (busy, I/O, closed) into 503 credit_check_failed. */
  function guarded<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      if (isApiError(error)) throw error;
      throw storeFailure();
    }
  }

  function requireAccount(accountId: string): AccountRow {
    const row = q.account.get(accountId);
    if (!row) throw new ApiError(404, "account_not_found", `No account ${accountId}.`);
    return row;
  }

  /** The plan's limits with the account's requests-per-minute override applied. */
  function limitsOf(plan: Plan, rpmOverride: number | null): AccountLimits {
    const limits = { ...planDefinition(plan).limits };
    if (rpmOverride != null) limits.requestsPerMinute = rpmOverride;
    return limits;
  }

  function principalFrom(row: AuthRow): AccountPrincipal {
    return {
      accountId: row.account_id,
      keyId: row.key_id,
      plan: row.plan,
      limits: limitsOf(row.plan, row.requests_per_minute),
      opraAgreement: row.opra_agreement === 1,
    };
  }

  function checkAuthRow(row: AuthRow | undefined, tsMs: number): AccountPrincipal {
    if (!row || row.revoked_ms != null || (row.expires_ms != null && row.expires_ms <= tsMs)) throw forbidden();
    const err = statusError(row.status);
    if (err) throw err;
    return principalFrom(row);
  }

  function keyState(revokedMs: number | null, expiresMs: number | null, tsMs: number): KeyState {
    if (revokedMs != null) return "revoked";
    if (expiresMs != null && expiresMs <= tsMs) return "expired";
    return "active";
  }

  function createKeyTx(accountId: string, expiresAtMs: number | null, tsMs: number): { keyId: string; key: string } {
    const account = requireAccount(accountId);
    const max = planDefinition(account.plan).limits.activeKeys;
    const active = q.activeKeyCount.get(accountId, tsMs)!.n;
    if (active >= max) {
      throw new ApiError(409, "key_limit_reached", `Account ${accountId} already has ${active} active keys (plan ${account.plan} allows ${max}); revoke one first.`);
    }
    const key = generateKey();
    const keyId = newId("key");
    q.insertKey.run(keyId, accountId, displayPrefix(key), hashKey(key), tsMs, expiresAtMs);
    return { keyId, key };
  }

  function details(accountId: string): AccountDetails {
    const row = requireAccount(accountId);
    const tsMs = now();
    if (grantDue(row.id, row.plan, tsMs)) ensureGrantTxn.immediate(row.id, row.plan, tsMs);
    const p = etPeriods(tsMs);
    const usage = q.capsAndUsage.get({ id: row.id, day: `d:${p.day}`, month: `m:${p.month}` })!;
    return {
      accountId: row.id,
      label: row.label,
      plan: row.plan,
      status: row.status,
      opraAgreement: row.opra_agreement === 1,
      dailyCapCredits: row.daily_cap,
      monthlyCapCredits: row.monthly_cap,
      requestsPerMinuteOverride: row.requests_per_minute,
      createdAt: iso(row.created_ms)!,
      creditsBalance: q.balance.get(row.id)?.credits ?? 0,
      ledgerSumCredits: q.ledgerSum.get(row.id)!.s,
      usedTodayCredits: usage.used_d,
      usedThisMonthCredits: usage.used_m,
      keys: q.keysOf.all(row.id).map((k) => ({
        keyId: k.id,
        accountId: k.account_id,
        prefix: k.prefix,
        state: keyState(k.revoked_ms, k.expires_ms, tsMs),
        createdAt: iso(k.created_ms)!,
        revokedAt: iso(k.revoked_ms),
        expiresAt: iso(k.expires_ms),
      })),
    };
  }

  /** Set the balance to exactly `credits` with an `adjust` entry (after any due grant). */
  function setBalanceTx(accountId: string, credits: number, tsMs: number): void {
    const current = q.balance.get(accountId)!.credits;
    const delta = credits - current;
    if (delta === 0) return;
    const after = q.creditBalance.get(delta, accountId)!.credits;
    writeLedger(accountId, tsMs, delta, "adjust", { requestId: "admin", route: "cli" }, after);
  }

  const debitTxn = db.transaction((p: Principal, credits: number, ref: LedgerRef, tsMs: number): BalanceResult => {
    ensureGrantTx(p.accountId, p.plan, tsMs);
    const periods = etPeriods(tsMs);
    const dayKey = `d:${periods.day}`;
    const monthKey = `m:${periods.month}`;
    const caps = q.capsAndUsage.get({ id: p.accountId, day: dayKey, month: monthKey });
    if (!caps) throw forbidden();
    const remaining = () => String(q.balance.get(p.accountId)?.credits ?? 0);
    if (caps.daily_cap != null && caps.used_d + credits > caps.daily_cap) {
      const retryAfter = secondsUntilEtMidnight(tsMs);
      throw new ApiError(402, "daily_cap_reached", `The daily credit cap of ${caps.daily_cap} credits is reached; it resets at midnight ET.`, {
        headers: { "Retry-After": String(retryAfter), "X-Credits-Remaining": remaining() },
        details: { retry_after: retryAfter },
      });
    }
    if (caps.monthly_cap != null && caps.used_m + credits > caps.monthly_cap) {
      throw new ApiError(402, "monthly_cap_reached", `The account's monthly spend cap of ${caps.monthly_cap} credits is reached; it resets on the 1st (ET) or when the cap is raised.`, {
        headers: { "X-Credits-Remaining": remaining() },
      });
    }
    const updated = q.debitBalance.get(credits, p.accountId, credits);
    if (!updated) {
      const balance = remaining();
      throw new ApiError(402, "insufficient_credits", `This request costs ${credits} credits; the balance is ${balance}.`, {
        headers: { "X-Credits-Remaining": balance },
      });
    }
    const ledgerId = writeLedger(p.accountId, tsMs, -credits, "debit", ref, updated.credits);
    q.addUsage.run({ id: p.accountId, period: dayKey, credits });
    q.addUsage.run({ id: p.accountId, period: monthKey, credits });
    return { balance: updated.credits, ledgerId };
  });

  const refundTxn = db.transaction((p: Principal, credits: number, ref: LedgerRef, tsMs: number): BalanceResult => {
    ensureGrantTx(p.accountId, p.plan, tsMs);
    const r = q.requestLedger.get(p.accountId, ref.requestId)!;
    const refundable = (r.debited ?? 0) - (r.refunded ?? 0);
    const amount = Math.min(credits, refundable);
    if (amount <= 0) return { balance: q.balance.get(p.accountId)?.credits ?? 0, ledgerId: null };
    const after = q.creditBalance.get(amount, p.accountId)!.credits;
    const ledgerId = writeLedger(p.accountId, tsMs, amount, "refund", ref, after);
    // Refunded credits do not count against the caps of the period they were spent in.
    const spent = etPeriods(r.last_debit_ms ?? tsMs);
    q.addUsage.run({ id: p.accountId, period: `d:${spent.day}`, credits: -amount });
    q.addUsage.run({ id: p.accountId, period: `m:${spent.month}`, credits: -amount });
    return { balance: after, ledgerId };
  });

  const committer = createGroupCommitter(db, {
    windowMs: options.groupCommitWindowMs,
    storeFailure,
    // A grant row seen inside a batch that was then rolled back must not stay cached.
    onRollback: () => appliedGrants.clear(),
  });

  const createAccountTxn = db.transaction((input: CreateAccountInput, tsMs: number) => {
    const def = planDefinition(input.plan);
    const accountId = newId("acct");
    q.insertAccount.run({
      id: accountId,
      label: input.label ?? null,
      plan: input.plan,
      status: input.status ?? "active",
      opra: input.opraAgreement === false ? 0 : 1,
      dailyCap: input.dailyCapCredits === undefined ? def.defaultDailyCapCredits : input.dailyCapCredits,
      monthlyCap: input.monthlyCapCredits === undefined ? def.defaultMonthlyCapCredits : input.monthlyCapCredits,
      rpm: input.requestsPerMinute ?? null,
      createdMs: tsMs,
    });
    q.insertBalance.run(accountId);
    ensureGrantTx(accountId, input.plan, tsMs);
    if (input.credits !== undefined) setBalanceTx(accountId, input.credits, tsMs);
    const { keyId, key } = createKeyTx(accountId, null, tsMs);
    return { accountId, keyId, key };
  });

  const updateAccountTxn = db.transaction((accountId: string, input: UpdateAccountInput, tsMs: number) => {
    const row = requireAccount(accountId);
    const set: string[] = [];
    const params: Record<string, unknown> = { id: accountId };
    const field = (column: string, value: unknown) => {
      set.push(`${column} = @${column}`);
      params[column] = value;
    };
    if (input.status !== undefined) field("status", input.status);
    if (input.plan !== undefined) field("plan", input.plan);
    if (input.dailyCapCredits !== undefined) field("daily_cap", input.dailyCapCredits);
    if (input.monthlyCapCredits !== undefined) field("monthly_cap", input.monthlyCapCredits);
    if (input.opraAgreement !== undefined) field("opra_agreement", input.opraAgreement ? 1 : 0);
    if (input.label !== undefined) field("label", input.label);
    if (input.requestsPerMinute !== undefined) field("requests_per_minute", input.requestsPerMinute);
    if (set.length > 0) db.prepare(`UPDATE accounts SET ${set.join(", ")} WHERE id = @id`).run(params);
    const plan = input.plan ?? row.plan;
    // Apply any due grant first, so a balance set now is not topped up a moment later.
    ensureGrantTx(accountId, plan, tsMs);
    if (input.credits !== undefined) setBalanceTx(accountId, input.credits, tsMs);
    if (input.addCredits !== undefined && input.addCredits > 0) {
      const after = q.creditBalance.get(input.addCredits, accountId)!.credits;
      writeLedger(accountId, tsMs, input.addCredits, "purchase", { requestId: "admin", route: "cli" }, after);
    }
  });

  const service: SqliteAccountService = {
    db,

    authenticate(header) {
      const key = keyFromAuthorization(header);
      if (key == null) {
        throw new ApiError(401, "unauthorized", "Missing Authorization header: send `Authorization: Bearer <API_KEY>`.");
      }
      const hash = hashKey(key);
      const row = guarded(() => q.auth.get(hash));
      // Compare in constant time against the stored hash (or a dummy on a miss).
      const ok = hashesEqual(hash, row?.hash);
      return checkAuthRow(ok ? row : undefined, now());
    },

    revalidate(p) {
      const tsMs = now();
      const row = guarded(() => {
        const k = q.keyById.get(p.keyId);
        if (!k) return undefined;
        const a = q.account.get(k.account_id);
        if (!a) return undefined;
        return {
          key_id: k.id,
          hash: Buffer.alloc(0),
          revoked_ms: k.revoked_ms,
          expires_ms: k.expires_ms,
          account_id: a.id,
          plan: a.plan,
          status: a.status,
          opra_agreement: a.opra_agreement,
          requests_per_minute: a.requests_per_minute,
        } satisfies AuthRow;
      });
      return checkAuthRow(row, tsMs);
    },

    assertEntitled(p, entitlement: Entitlement, symbols) {
      if (entitlement === "none") return;
      const def = planDefinition(p.plan);
      if (!def.entitlements.has(entitlement)) {
        throw new ApiError(403, "not_entitled", `The ${p.plan} plan does not include ${entitlement} data.`);
      }
      if (OPRA_ENTITLEMENTS.has(entitlement)) {
        const signed =
          (p as Partial<AccountPrincipal>).opraAgreement ??
          guarded(() => q.account.get(p.accountId)?.opra_agreement === 1);
        if (!signed) {
          throw new ApiError(403, "opra_agreement_required", "This data requires a signed OPRA subscriber agreement on the account.");
        }
      }
      if (def.symbols && symbols && symbols.length > 0) {
        const known = options.isKnownSymbol;
        const outside = symbols.filter((s) => {
          const sym = s.trim().toUpperCase();
          return !def.symbols!.has(sym) && (!known || known(sym));
        });
        if (outside.length > 0) {
          const shown = outside.slice(0, 10).join(", ") + (outside.length > 10 ? ", ..." : "");
          throw new ApiError(403, "not_entitled", `The ${p.plan} plan does not include these symbols: ${shown}.`, {
            details: { symbols: outside },
          });
        }
      }
    },

    debit(p, credits, ref) {
      assertCredits("credits", credits, true);
      const tsMs = now();
      if (credits === 0) return { balance: service.balance(p.accountId), ledgerId: null };
      return guarded(() => debitTxn.immediate(p, credits, ref, tsMs));
    },

    refund(p, credits, ref) {
      assertCredits("credits", credits, true);
      const tsMs = now();
      return guarded(() => refundTxn.immediate(p, credits, ref, tsMs));
    },

    debitAsync(p, credits, ref) {
      try {
        assertCredits("credits", credits, true);
        if (credits === 0) return Promise.resolve({ balance: service.balance(p.accountId), ledgerId: null });
      } catch (error) {
        return Promise.reject(error);
      }
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
        const row = requireAccount(accountId);
        const tsMs = now();
        if (grantDue(accountId, row.plan, tsMs)) ensureGrantTxn.immediate(accountId, row.plan, tsMs);
        return q.balance.get(accountId)?.credits ?? 0;
      });
    },

    accountView(p) {
      const d = guarded(() => details(p.accountId));
      const limits = limitsOf(d.plan, d.requestsPerMinuteOverride);
      return {
        customerId: d.accountId,
        status: d.status,
        plan: d.plan,
        apiEligible: true,
        unlimited: false,
        creditsBalance: d.creditsBalance,
        balanceUsd: Math.round(d.creditsBalance) / 1000,
        limits,
        caps: {
          dailyCredits: d.dailyCapCredits,
          monthlyCredits: d.monthlyCapCredits,
          usedTodayCredits: d.usedTodayCredits,
          usedThisMonthCredits: d.usedThisMonthCredits,
        },
      } satisfies AccountRecord;
    },

    createAccount(input) {
      if (!isPlan(input.plan)) throw new ApiError(400, "invalid_parameter", `Unknown plan ${String(input.plan)}.`);
      if (input.credits !== undefined) assertCredits("credits", input.credits, true);
      assertCap("daily cap", input.dailyCapCredits);
      assertRpm(input.requestsPerMinute);
      assertCap("monthly cap", input.monthlyCapCredits);
      return createAccountTxn.immediate(input, now());
    },

    updateAccount(accountId, input) {
      if (input.plan !== undefined && !isPlan(input.plan)) throw new ApiError(400, "invalid_parameter", `Unknown plan ${String(input.plan)}.`);
      if (input.credits !== undefined) assertCredits("credits", input.credits, true);
      if (input.addCredits !== undefined) assertCredits("added credits", input.addCredits, true);
      assertCap("daily cap", input.dailyCapCredits);
      assertRpm(input.requestsPerMinute);
      assertCap("monthly cap", input.monthlyCapCredits);
      updateAccountTxn.immediate(accountId, input, now());
      return details(accountId);
    },

    getAccount: (accountId) => details(accountId),

    listAccounts: () => q.accountIds.all().map((r) => details(r.id)),

    findAccountByLabel: (label) => q.accountByLabel.get(label)?.id ?? null,

    createKey(accountId, opts = {}) {
      const tsMs = now();
      return db.transaction(() => createKeyTx(accountId, opts.expiresAtMs ?? null, tsMs)).immediate();
    },

    revokeKey(keyOrId) {
      const tsMs = now();
      return db.transaction(() => {
        const trimmed = keyOrId.trim();
        let found: { id: string; account_id: string; revoked_ms: number | null } | undefined;
        if (trimmed.startsWith(KEY_PREFIX)) {
          const hash = hashKey(trimmed);
          const row = q.keyByHash.get(hash);
          found = hashesEqual(hash, row?.hash) ? row : undefined;
        } else {
          found = q.keyById.get(trimmed);
        }
        if (!found) throw new ApiError(404, "key_not_found", "No key matches that key or key id.");
        const changed = q.revokeKey.run(tsMs, found.id).changes;
        return { keyId: found.id, accountId: found.account_id, alreadyRevoked: changed === 0 };
      }).immediate();
    },

    ledger(accountId, opts = {}) {
      return q.ledgerOf.all(accountId, opts.limit ?? 100).map((r) => ({
        id: r.id,
        accountId: r.account_id,
        tsMs: r.ts_ms,
        delta: r.delta,
        kind: r.kind,
        requestId: r.request_id,
        route: r.route,
        balanceAfter: r.balance_after,
      }));
    },

    verifyLedger: () => q.mismatches.all().map((r) => ({ accountId: r.account_id, balance: r.credits, ledgerSum: r.s })),

    close() {
      committer.close();
      if (db.open) db.close();
    },
  };
  return service;
}
