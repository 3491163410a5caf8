/**
 * `AccountAdmin` over the SQLite store: accounts, keys, the ledger listing and its audit, as the
 * CLI uses them while the server runs. See docs/operations.md#accounts-cli.
 */
import { ApiError } from "../errors";
import type { AccountDetails, SyncAdmin, CreateAccountInput, UpdateAccountInput } from "./admin-types";
import { assertCap, assertCredits, assertRpm } from "./account-errors";
import { displayPrefix, generateKey, hashesEqual, hashKey, KEY_PREFIX, newId } from "./keys";
import { isPlan, planDefinition } from "./plans";
import { usagePeriods } from "./sqlite-ledger";
import { ledgerEntryOf, type LedgerRow } from "./ledger-rows";
import { accountFieldsOf, keyInfoOf, type KeyRow } from "./account-rows";
import type { SqliteStore } from "./_sqlite-store";

export function createSqliteAdmin(store: SqliteStore): SyncAdmin {
  const { db, now } = store;
  const q = {
    keyById: db.prepare<[string], { id: string; account_id: string; revoked_ms: number | null }>(`SELECT id, account_id, revoked_ms FROM api_keys WHERE id = ?`),
    keyByHash: db.prepare<[Buffer], { id: string; account_id: string; revoked_ms: number | null; hash: Buffer }>(
      `SELECT id, account_id, revoked_ms, hash FROM api_keys WHERE hash = ?`,
    ),
    accountIds: db.prepare<[], { id: string }>(`SELECT id FROM accounts ORDER BY created_ms, id`),
    accountByLabel: db.prepare<[string], { id: string }>(`SELECT id FROM accounts WHERE label = ? ORDER BY created_ms LIMIT 1`),
    insertAccount: db.prepare(
      `INSERT INTO accounts (id, label, plan, status, opra_agreement, daily_cap, monthly_cap, requests_per_minute, created_ms)
       VALUES (@id, @label, @plan, @status, @opra, @dailyCap, @monthlyCap, @rpm, @createdMs)`,
    ),
    insertBalance: db.prepare(`INSERT INTO balances (account_id, credits) VALUES (?, 0)`),
    usage: db.prepare<[string, string], { credits: number }>(`SELECT credits FROM usage WHERE account_id = ? AND period = ?`),
    insertKey: db.prepare(
      `INSERT INTO api_keys (id, account_id, prefix, hash, created_ms, revoked_ms, expires_ms)
       VALUES (?, ?, ?, ?, ?, NULL, ?)`,
    ),
    activeKeyCount: db.prepare<[string, number], { n: number }>(
      `SELECT count(*) AS n FROM api_keys
        WHERE account_id = ? AND revoked_ms IS NULL AND (expires_ms IS NULL OR expires_ms > ?)`,
    ),
    keysOf: db.prepare<[string], KeyRow>(
      `SELECT id, account_id, prefix, created_ms, revoked_ms, expires_ms FROM api_keys
        WHERE account_id = ? ORDER BY created_ms, id`,
    ),
    revokeKey: db.prepare(`UPDATE api_keys SET revoked_ms = ? WHERE id = ? AND revoked_ms IS NULL`),
    // Audit figures: these read every ledger row of the account, so they stay off request paths.
    ledgerSum: db.prepare<[string], { s: number }>(`SELECT coalesce(sum(delta), 0) AS s FROM ledger WHERE account_id = ?`),
    ledgerOf: db.prepare<[string, number], LedgerRow>(`SELECT * FROM ledger WHERE account_id = ? ORDER BY id DESC LIMIT ?`),
    mismatches: db.prepare<[], { account_id: string; credits: number; s: number }>(
      `SELECT b.account_id, b.credits, coalesce(l.s, 0) AS s
         FROM balances b LEFT JOIN (SELECT account_id, sum(delta) AS s FROM ledger GROUP BY account_id) l
           ON l.account_id = b.account_id
        WHERE b.credits <> coalesce(l.s, 0)`,
    ),
  };

  function createKeyTx(accountId: string, expiresAtMs: number | null, tsMs: number): { keyId: string; key: string } {
    const account = store.requireAccount(accountId);
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
    const row = store.requireAccount(accountId);
    const tsMs = now();
    store.ensureGrant(row.id, row.plan, tsMs);
    const { day, month } = usagePeriods(tsMs);
    return {
      ...accountFieldsOf(row, row.opra_agreement === 1),
      creditsBalance: store.balanceOf(row.id),
      ledgerSumCredits: q.ledgerSum.get(row.id)!.s,
      usedTodayCredits: q.usage.get(row.id, day)?.credits ?? 0,
      usedThisMonthCredits: q.usage.get(row.id, month)?.credits ?? 0,
      keys: q.keysOf.all(row.id).map((k) => keyInfoOf(k, tsMs)),
    };
  }

  /** Set the balance to exactly `credits` with an `adjust` entry (after any due grant). */
  function setBalanceTx(accountId: string, credits: number, tsMs: number): void {
    const delta = credits - store.balanceOf(accountId);
    if (delta === 0) return;
    const after = store.addBalance(accountId, delta);
    store.writeLedger(accountId, tsMs, delta, "adjust", { requestId: "admin", route: "cli" }, after);
  }

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
    store.ensureGrantTx(accountId, input.plan, tsMs);
    if (input.credits !== undefined) setBalanceTx(accountId, input.credits, tsMs);
    const { keyId, key } = createKeyTx(accountId, null, tsMs);
    return { accountId, keyId, key };
  });

  const updateAccountTxn = db.transaction((accountId: string, input: UpdateAccountInput, tsMs: number) => {
    const row = store.requireAccount(accountId);
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
    // Apply any due grant first, so a balance set now is not topped up a moment later.
    store.ensureGrantTx(accountId, input.plan ?? row.plan, tsMs);
    if (input.credits !== undefined) setBalanceTx(accountId, input.credits, tsMs);
    if (input.addCredits !== undefined && input.addCredits > 0) {
      const after = store.addBalance(accountId, input.addCredits);
      store.writeLedger(accountId, tsMs, input.addCredits, "purchase", { requestId: "admin", route: "cli" }, after);
    }
  });

  return {
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
      return db
        .transaction(() => {
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
        })
        .immediate();
    },

    ledger(accountId, opts = {}) {
      return q.ledgerOf.all(accountId, opts.limit ?? 100).map(ledgerEntryOf);
    },

    verifyLedger: () => q.mismatches.all().map((r) => ({ accountId: r.account_id, balance: r.credits, ledgerSum: r.s })),
  };
}
