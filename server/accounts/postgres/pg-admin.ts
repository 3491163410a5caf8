/**
 * `AccountAdmin` over PostgreSQL: the same operations and checks as the SQLite admin
 * (server/accounts/sqlite-admin.ts), each write one transaction; key creation locks the account
 * row so two instances cannot pass the active-key limit together. See docs/operations.md#accounts-cli.
 */
import { ApiError } from "../../errors";
import type { AccountAdmin, AccountDetails, CreateAccountInput, LedgerEntry, UpdateAccountInput } from "../admin-types";
import { assertCap, assertCredits, assertRpm } from "../account-errors";
import { displayPrefix, generateKey, hashesEqual, hashKey, KEY_PREFIX, newId } from "../keys";
import { ledgerEntryOf, type LedgerRow } from "../ledger-rows";
import { isPlan, planDefinition } from "../plans";
import { usagePeriods } from "../sqlite-ledger";
import { AUTH_CHANNEL } from "./pg-auth";
import type { Sql } from "./pg-connection";
import { grantDue, type PgAccountRow, type PgStore } from "./pg-store";
import { accountFieldsOf, keyInfoOf, type KeyRow } from "../account-rows";

type Tx = Sql;

/** Admin steps run inside a caller's transaction. */
export interface PgAdminTxSteps {
  createAccount(tx: Tx, input: CreateAccountInput, tsMs: number): Promise<{ accountId: string; keyId: string; key: string }>;
  lockedAccount(tx: Tx, accountId: string): Promise<PgAccountRow>;
  addCredits(tx: Tx, accountId: string, delta: number, kind: LedgerEntry["kind"], tsMs: number): Promise<void>;
  grant(tx: Tx, accountId: string, plan: PgAccountRow["plan"], tsMs: number): Promise<unknown>;
}

export interface PgAdmin extends AccountAdmin {
  inTx: PgAdminTxSteps;
  createAccount(input: CreateAccountInput): Promise<{ accountId: string; keyId: string; key: string }>;
  updateAccount(accountId: string, input: UpdateAccountInput): Promise<AccountDetails>;
  getAccount(accountId: string): Promise<AccountDetails>;
  listAccounts(): Promise<AccountDetails[]>;
  findAccountByLabel(label: string): Promise<string | null>;
  createKey(accountId: string, options?: { expiresAtMs?: number | null }): Promise<{ keyId: string; key: string }>;
  revokeKey(keyOrId: string): Promise<{ keyId: string; accountId: string; alreadyRevoked: boolean }>;
  ledger(accountId: string, options?: { limit?: number }): Promise<LedgerEntry[]>;
  verifyLedger(): Promise<{ accountId: string; balance: number; ledgerSum: number }[]>;
}

export function createPgAdmin(store: PgStore): PgAdmin {
  const { sql, now } = store;

  async function lockedAccount(tx: Tx, accountId: string): Promise<PgAccountRow> {
    const [row] = await tx<PgAccountRow[]>`SELECT * FROM accounts WHERE id = ${accountId} FOR UPDATE`;
    if (!row) throw new ApiError(404, "account_not_found", `No account ${accountId}.`);
    return row;
  }

  async function createKeyTx(tx: Tx, accountId: string, expiresAtMs: number | null, tsMs: number) {
    const account = await lockedAccount(tx, accountId);
    const max = planDefinition(account.plan).limits.activeKeys;
    const [{ n }] = await tx<{ n: number }[]>`
      SELECT count(*)::bigint AS n FROM api_keys
       WHERE account_id = ${accountId} AND revoked_ms IS NULL AND (expires_ms IS NULL OR expires_ms > ${tsMs})`;
    if (n >= max) {
      throw new ApiError(409, "key_limit_reached", `Account ${accountId} already has ${n} active keys (plan ${account.plan} allows ${max}); revoke one first.`);
    }
    const key = generateKey();
    const keyId = newId("key");
    await tx`INSERT INTO api_keys (id, account_id, prefix, hash, created_ms, expires_ms)
             VALUES (${keyId}, ${accountId}, ${displayPrefix(key)}, ${hashKey(key)}, ${tsMs}, ${expiresAtMs})`;
    return { keyId, key };
  }

  /** Add `delta` to the balance with a ledger entry of `kind` (inside a transaction). */
  async function addCreditsTx(tx: Tx, accountId: string, delta: number, kind: LedgerEntry["kind"], tsMs: number): Promise<void> {
    const [{ credits }] = await tx<{ credits: number }[]>`
      UPDATE balances SET credits = credits + ${delta} WHERE account_id = ${accountId} RETURNING credits`;
    await tx`INSERT INTO ledger (account_id, ts_ms, delta, kind, request_id, route, balance_after)
             VALUES (${accountId}, ${tsMs}, ${delta}, ${kind}, 'admin', 'cli', ${credits})`;
  }

  async function setBalanceTx(tx: Tx, accountId: string, credits: number, tsMs: number): Promise<void> {
    const [{ credits: current }] = await tx<{ credits: number }[]>`SELECT credits FROM balances WHERE account_id = ${accountId} FOR UPDATE`;
    if (credits !== current) await addCreditsTx(tx, accountId, credits - current, "adjust", tsMs);
  }

  const grantTx = (tx: Tx, accountId: string, plan: PgAccountRow["plan"], tsMs: number) => {
    const g = grantDue(plan, tsMs);
    return tx`SELECT os_ensure_grant(${accountId}, ${g.period}, ${g.credits}, ${g.monthly}, ${tsMs})`;
  };

  /** A new account with its balance, due grant, starting credits and first key (inside a transaction; input checked). */
  async function createAccountTx(tx: Tx, input: CreateAccountInput, tsMs: number): Promise<{ accountId: string; keyId: string; key: string }> {
    const def = planDefinition(input.plan);
    const accountId = newId("acct");
    const dailyCap = input.dailyCapCredits === undefined ? def.defaultDailyCapCredits : input.dailyCapCredits;
    const monthlyCap = input.monthlyCapCredits === undefined ? def.defaultMonthlyCapCredits : input.monthlyCapCredits;
    await tx`INSERT INTO accounts (id, label, plan, status, opra_agreement, daily_cap, monthly_cap, requests_per_minute, created_ms)
             VALUES (${accountId}, ${input.label ?? null}, ${input.plan}, ${input.status ?? "active"}, ${input.opraAgreement !== false},
                     ${dailyCap}, ${monthlyCap}, ${input.requestsPerMinute ?? null}, ${tsMs})`;
    await tx`INSERT INTO balances (account_id, credits) VALUES (${accountId}, 0)`;
    await grantTx(tx, accountId, input.plan, tsMs);
    if (input.credits !== undefined) await setBalanceTx(tx, accountId, input.credits, tsMs);
    const { keyId, key } = await createKeyTx(tx, accountId, null, tsMs);
    return { accountId, keyId, key };
  }

  async function details(accountId: string): Promise<AccountDetails> {
    const row = await store.requireAccount(accountId);
    const tsMs = now();
    await store.ensureGrant(row.id, row.plan, tsMs);
    const { day, month } = usagePeriods(tsMs);
    const [figures] = await sql<{ credits: number; ledger_sum: number; used_d: number; used_m: number }[]>`
      SELECT (SELECT credits FROM balances WHERE account_id = ${row.id}) AS credits,
             (SELECT coalesce(sum(delta), 0)::bigint FROM ledger WHERE account_id = ${row.id}) AS ledger_sum,
             coalesce((SELECT credits FROM usage WHERE account_id = ${row.id} AND period = ${day}), 0) AS used_d,
             coalesce((SELECT credits FROM usage WHERE account_id = ${row.id} AND period = ${month}), 0) AS used_m`;
    const keys = await sql<KeyRow[]>`
      SELECT id, account_id, prefix, created_ms, revoked_ms, expires_ms FROM api_keys
       WHERE account_id = ${row.id} ORDER BY created_ms, id`;
    return {
      ...accountFieldsOf(row, row.opra_agreement),
      creditsBalance: figures!.credits ?? 0,
      ledgerSumCredits: figures!.ledger_sum,
      usedTodayCredits: figures!.used_d,
      usedThisMonthCredits: figures!.used_m,
      keys: keys.map((k) => keyInfoOf(k, tsMs)),
    };
  }

  return {
    /** Steps for other store parts that write accounts inside their own transaction (the console's invites). */
    inTx: { createAccount: createAccountTx, lockedAccount, addCredits: addCreditsTx, grant: grantTx },

    async createAccount(input) {
      if (!isPlan(input.plan)) throw new ApiError(400, "invalid_parameter", `Unknown plan ${String(input.plan)}.`);
      if (input.credits !== undefined) assertCredits("credits", input.credits, true);
      assertCap("daily cap", input.dailyCapCredits);
      assertRpm(input.requestsPerMinute);
      assertCap("monthly cap", input.monthlyCapCredits);
      const tsMs = now();
      return sql.begin((tx) => createAccountTx(tx as unknown as Tx, input, tsMs)) as Promise<{ accountId: string; keyId: string; key: string }>;
    },

    async updateAccount(accountId, input) {
      if (input.plan !== undefined && !isPlan(input.plan)) throw new ApiError(400, "invalid_parameter", `Unknown plan ${String(input.plan)}.`);
      if (input.credits !== undefined) assertCredits("credits", input.credits, true);
      if (input.addCredits !== undefined) assertCredits("added credits", input.addCredits, true);
      assertCap("daily cap", input.dailyCapCredits);
      assertRpm(input.requestsPerMinute);
      assertCap("monthly cap", input.monthlyCapCredits);
      const tsMs = now();
      await sql.begin(async (t) => {
        const tx = t as unknown as Tx;
        const row = await lockedAccount(tx, accountId);
        const set: Record<string, unknown> = {};
        if (input.status !== undefined) set.status = input.status;
        if (input.plan !== undefined) set.plan = input.plan;
        if (input.dailyCapCredits !== undefined) set.daily_cap = input.dailyCapCredits;
        if (input.monthlyCapCredits !== undefined) set.monthly_cap = input.monthlyCapCredits;
        if (input.opraAgreement !== undefined) set.opra_agreement = input.opraAgreement;
        if (input.label !== undefined) set.label = input.label;
        if (input.requestsPerMinute !== undefined) set.requests_per_minute = input.requestsPerMinute;
        if (Object.keys(set).length > 0) {
          await tx`UPDATE accounts SET ${tx(set as never)} WHERE id = ${accountId}`;
          // Every instance drops its cached key rows of the account when this commits (pg-auth.ts).
          await tx`SELECT pg_notify(${AUTH_CHANNEL}, ${accountId})`;
        }
        // Apply any due grant first, so a balance set now is not topped up a moment later.
        await grantTx(tx, accountId, input.plan ?? row.plan, tsMs);
        if (input.credits !== undefined) await setBalanceTx(tx, accountId, input.credits, tsMs);
        if (input.addCredits !== undefined && input.addCredits > 0) await addCreditsTx(tx, accountId, input.addCredits, "purchase", tsMs);
      });
      return details(accountId);
    },

    getAccount: (accountId) => details(accountId),

    async listAccounts() {
      const ids = await sql<{ id: string }[]>`SELECT id FROM accounts ORDER BY created_ms, id`;
      const out: AccountDetails[] = [];
      for (const r of ids) out.push(await details(r.id));
      return out;
    },

    async findAccountByLabel(label) {
      const [row] = await sql<{ id: string }[]>`SELECT id FROM accounts WHERE label = ${label} ORDER BY created_ms LIMIT 1`;
      return row?.id ?? null;
    },

    async createKey(accountId, opts = {}) {
      const tsMs = now();
      return sql.begin((tx) => createKeyTx(tx as unknown as Tx, accountId, opts.expiresAtMs ?? null, tsMs)) as Promise<{ keyId: string; key: string }>;
    },

    async revokeKey(keyOrId) {
      const tsMs = now();
      const trimmed = keyOrId.trim();
      let found: { id: string; account_id: string; hash: Buffer } | undefined;
      if (trimmed.startsWith(KEY_PREFIX)) {
        const hash = hashKey(trimmed);
        const [row] = await sql<{ id: string; account_id: string; hash: Buffer }[]>`SELECT id, account_id, hash FROM api_keys WHERE hash = ${hash}`;
        found = hashesEqual(hash, row?.hash) ? row : undefined;
      } else {
        [found] = await sql<{ id: string; account_id: string; hash: Buffer }[]>`SELECT id, account_id, hash FROM api_keys WHERE id = ${trimmed}`;
      }
      if (!found) throw new ApiError(404, "key_not_found", "No key matches that key or key id.");
      const hit = found;
      const changed = await sql.begin(async (t) => {
        const tx = t as unknown as Tx;
        const c = await tx`UPDATE api_keys SET revoked_ms = ${tsMs} WHERE id = ${hit.id} AND revoked_ms IS NULL`;
        await tx`SELECT pg_notify(${AUTH_CHANNEL}, ${hit.account_id})`;
        return c;
      });
      return { keyId: found.id, accountId: found.account_id, alreadyRevoked: changed.count === 0 };
    },

    async ledger(accountId, opts = {}) {
      const rows = await sql<LedgerRow[]>`SELECT * FROM ledger WHERE account_id = ${accountId} ORDER BY id DESC LIMIT ${opts.limit ?? 100}`;
      return rows.map(ledgerEntryOf);
    },

    async verifyLedger() {
      const rows = await sql<{ account_id: string; credits: number; s: number }[]>`
        SELECT b.account_id, b.credits, coalesce(l.s, 0)::bigint AS s
          FROM balances b LEFT JOIN (SELECT account_id, sum(delta) AS s FROM ledger GROUP BY account_id) l
            ON l.account_id = b.account_id
         WHERE b.credits <> coalesce(l.s, 0)`;
      return rows.map((r) => ({ accountId: r.account_id, balance: r.credits, ledgerSum: r.s }));
    },
  };
}
