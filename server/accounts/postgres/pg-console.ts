/**
 * `ConsoleStore` over PostgreSQL (migration 004): the same tables and rules as the SQLite console
 * store (server/accounts/console-store.ts), shared by every instance, so a session opened on one
 * is valid on all and an invite code is spent once (its redemption is a conditional update inside
 * the transaction that applies it; the setup link and the invite sign-up set the password and open
 * the session in theirs). Driver failures become 503 `store_unavailable`.
 * See docs/operations.md#console-on-postgresql.
 */
import { randomBytes } from "node:crypto";
import { ApiError, apiErrors, isApiError } from "../../errors";
import { DEFAULT_STORE_TIMEOUT_MS, StoreTimeoutError, withDeadline } from "../../store-deadline";
import { storeUnavailable } from "../account-errors";
import {
  consoleKeyOf,
  DEFAULT_SESSION_TTLS,
  DEFAULT_SETUP_LINK_TTL_MS,
  INVITE_CODE_PREFIX,
  inviteOf,
  secret,
  SETUP_TOKEN_PREFIX,
  sha256,
  TOUCH_EVERY_MS,
  type ConsoleKeyRow,
  type InviteRow,
} from "../console-store";
import type { ConsoleStore, ConsoleStoreOptions, NewInvite, NewSession, SignedUp } from "../console-types";
import { base62 } from "../keys";
import { inviteApplies, inviteNotApplicable, inviteNotFound } from "../sqlite-console";
import { foldUsage, HOUR_MS, usageWindow, type UsageBucket } from "../usage-report";
import type { Plan } from "../types";
import type { PgAdminTxSteps } from "./pg-admin";
import { AUTH_CHANNEL } from "./pg-auth";
import type { Sql } from "./pg-connection";

type SessionRow = { account_id: string; csrf_token: string; created_ms: number; last_seen_ms: number; expires_ms: number };

/**
 * Run a store call; anything but an `ApiError` means the store could not be used. Past
 * `timeoutMs` the call may still complete, so that answer claims nothing about changes.
 */
async function guardedWithin<T>(timeoutMs: number, fn: () => Promise<T>): Promise<T> {
  try {
    return await withDeadline(fn(), timeoutMs);
  } catch (error) {
    if (isApiError(error)) throw error;
    throw error instanceof StoreTimeoutError ? apiErrors.storeUnavailable() : storeUnavailable();
  }
}

/**
 * The console store of a PostgreSQL accounts service (every answer a promise).
 * @example const store = createPgConsoleStore(sql, admin.inTx, { now: Date.now }); await store.createInvite({ plan: "invite" });
 */
export function createPgConsoleStore(sql: Sql, accountSteps: PgAdminTxSteps, options: ConsoleStoreOptions = {}, timeoutMs = DEFAULT_STORE_TIMEOUT_MS) {
  const now = options.now ?? Date.now;
  const guarded = <T>(fn: () => Promise<T>) => guardedWithin(timeoutMs, fn);
  const ttls = options.sessionTtls ?? DEFAULT_SESSION_TTLS;

  const inviteById = async (id: string) => {
    const [row] = await sql<InviteRow[]>`SELECT * FROM invite_codes WHERE id = ${id}`;
    return inviteOf(row!, now());
  };

  /** Mark a code redeemed by `accountId` (null: set later) if open and unexpired: the single-use step. */
  const redeemTx = async (tx: Sql, code: string, accountId: string | null, tsMs: number): Promise<InviteRow | null> => {
    const [row] = await tx<InviteRow[]>`
      UPDATE invite_codes SET redeemed_ms = ${tsMs}, redeemed_by = ${accountId}
       WHERE code_hash = ${sha256(code.trim())} AND redeemed_ms IS NULL AND (expires_ms IS NULL OR expires_ms > ${tsMs})
      RETURNING *`;
    return row ?? null;
  };

  /** Set a password and end the account's sessions (a changed password signs everyone out), on `tx`. */
  const setPasswordTx = async (tx: Sql, accountId: string, passwordHash: string, tsMs: number): Promise<void> => {
    await tx`INSERT INTO console_credentials (account_id, password_hash, updated_ms) VALUES (${accountId}, ${passwordHash}, ${tsMs})
             ON CONFLICT (account_id) DO UPDATE SET password_hash = excluded.password_hash, updated_ms = excluded.updated_ms`;
    await tx`DELETE FROM console_sessions WHERE account_id = ${accountId}`;
  };

  /** A new session on `tx` (the pool, or the transaction that lets the customer in). */
  const createSessionTx = async (tx: Sql, accountId: string, tsMs: number): Promise<NewSession> => {
    const sessionId = base62(randomBytes(32));
    const csrfToken = base62(randomBytes(32));
    await tx`DELETE FROM console_sessions WHERE expires_ms <= ${tsMs} OR last_seen_ms <= ${tsMs - ttls.idleMs}`;
    await tx`INSERT INTO console_sessions (id_hash, account_id, csrf_token, created_ms, last_seen_ms, expires_ms)
             VALUES (${sha256(sessionId)}, ${accountId}, ${csrfToken}, ${tsMs}, ${tsMs}, ${tsMs + ttls.absoluteMs})`;
    return { sessionId, csrfToken, expiresMs: tsMs + ttls.absoluteMs };
  };

  const store = {
    now,

    passwordHash: (accountId: string) =>
      guarded(
        async () => (await sql<{ password_hash: string }[]>`SELECT password_hash FROM console_credentials WHERE account_id = ${accountId}`)[0]?.password_hash ?? null,
      ),

    setPasswordHash: (accountId: string, passwordHash: string) =>
      guarded(async () => {
        await sql.begin((t) => setPasswordTx(t as unknown as Sql, accountId, passwordHash, now()));
      }),

    setUpWithLink: (token: string, passwordHash: string) =>
      guarded(async () => {
        const tsMs = now();
        return (await sql.begin(async (t) => {
          const tx = t as unknown as Sql;
          const [row] = await tx<{ account_id: string }[]>`
            UPDATE console_setup_links SET used_ms = ${tsMs}
             WHERE token_hash = ${sha256(token)} AND used_ms IS NULL AND expires_ms > ${tsMs} RETURNING account_id`;
          if (!row) return null;
          await setPasswordTx(tx, row.account_id, passwordHash, tsMs);
          return { accountId: row.account_id, ...(await createSessionTx(tx, row.account_id, tsMs)) };
        })) as ({ accountId: string } & NewSession) | null;
      }),

    createSetupLink: (accountId: string, ttlMs = DEFAULT_SETUP_LINK_TTL_MS) =>
      guarded(async () => {
        const token = secret(SETUP_TOKEN_PREFIX, 32);
        const tsMs = now();
        await sql`INSERT INTO console_setup_links (token_hash, account_id, created_ms, expires_ms)
                  VALUES (${sha256(token)}, ${accountId}, ${tsMs}, ${tsMs + ttlMs})`;
        return { token, expiresMs: tsMs + ttlMs };
      }),

    consumeSetupLink: (token: string) =>
      guarded(async () => {
        const tsMs = now();
        const [row] = await sql<{ account_id: string }[]>`
          UPDATE console_setup_links SET used_ms = ${tsMs}
           WHERE token_hash = ${sha256(token)} AND used_ms IS NULL AND expires_ms > ${tsMs} RETURNING account_id`;
        return row?.account_id ?? null;
      }),

    createSession: (accountId: string) => guarded(() => createSessionTx(sql, accountId, now())),

    session: (sessionId: string) =>
      guarded(async () => {
        const hash = sha256(sessionId);
        const [row] = await sql<SessionRow[]>`
          SELECT account_id, csrf_token, created_ms, last_seen_ms, expires_ms FROM console_sessions WHERE id_hash = ${hash}`;
        const tsMs = now();
        if (!row) return null;
        if (row.expires_ms <= tsMs || row.last_seen_ms + ttls.idleMs <= tsMs) {
          await sql`DELETE FROM console_sessions WHERE id_hash = ${hash}`;
          return null;
        }
        // Monotone: two instances touching at once never move the idle clock back.
        if (tsMs - row.last_seen_ms >= TOUCH_EVERY_MS) {
          await sql`UPDATE console_sessions SET last_seen_ms = greatest(last_seen_ms, ${tsMs}) WHERE id_hash = ${hash}`;
        }
        return { accountId: row.account_id, csrfToken: row.csrf_token, createdMs: row.created_ms, expiresMs: row.expires_ms };
      }),

    endSession: (sessionId: string) => guarded(async () => (await sql`DELETE FROM console_sessions WHERE id_hash = ${sha256(sessionId)}`).count > 0),

    endSessionsOf: (accountId: string) => guarded(async () => (await sql`DELETE FROM console_sessions WHERE account_id = ${accountId}`).count),

    createInvite: (input: NewInvite) =>
      guarded(async () => {
        const code = secret(INVITE_CODE_PREFIX, 16);
        const id = `inv_${base62(randomBytes(9))}`;
        await sql`INSERT INTO invite_codes (id, code_hash, prefix, plan, credits, label, created_ms, expires_ms)
                  VALUES (${id}, ${sha256(code)}, ${code.slice(0, INVITE_CODE_PREFIX.length + 4)}, ${input.plan}, ${input.credits ?? 0},
                          ${input.label ?? null}, ${now()}, ${input.expiresAtMs ?? null})`;
        return { code, invite: await inviteById(id) };
      }),

    listInvites: () =>
      guarded(async () => {
        const tsMs = now();
        return (await sql<InviteRow[]>`SELECT * FROM invite_codes ORDER BY created_ms, id`).map((r) => inviteOf(r, tsMs));
      }),

    recordKeyUses: (uses: ReadonlyMap<string, number>) =>
      guarded(async () => {
        if (uses.size === 0) return;
        const ids = [...uses.keys()];
        const times = ids.map((k) => uses.get(k)!);
        // One statement; keys deleted meanwhile are skipped by the join.
        await sql`INSERT INTO api_key_last_used (key_id, used_ms)
                  SELECT u.key_id, u.used_ms FROM unnest(${ids}::text[], ${times}::bigint[]) AS u(key_id, used_ms)
                    JOIN api_keys k ON k.id = u.key_id
                  ON CONFLICT (key_id) DO UPDATE SET used_ms = greatest(api_key_last_used.used_ms, excluded.used_ms)`;
      }),

    setMonthlyCap: (accountId: string, credits: number | null) =>
      guarded(async () => {
        return (await sql.begin(async (t) => {
          const tx = t as unknown as Sql;
          const [row] = await tx<{ monthly_cap: number | null }[]>`UPDATE accounts SET monthly_cap = ${credits} WHERE id = ${accountId} RETURNING monthly_cap`;
          // Every instance drops its cached key rows of the account when this commits (pg-auth.ts).
          if (row) await tx`SELECT pg_notify(${AUTH_CHANNEL}, ${accountId})`;
          return row ? row.monthly_cap : undefined;
        })) as number | null | undefined;
      }),

    keysOf: (accountId: string) =>
      guarded(async () => {
        const tsMs = now();
        const rows = await sql<ConsoleKeyRow[]>`
          SELECT k.id, k.prefix, k.created_ms, k.revoked_ms, k.expires_ms, u.used_ms FROM api_keys k
            LEFT JOIN api_key_last_used u ON u.key_id = k.id WHERE k.account_id = ${accountId} ORDER BY k.created_ms, k.id`;
        return rows.map((k) => consoleKeyOf(k, tsMs));
      }),

    accountPlan: (accountId: string) => guarded(async () => (await sql<{ plan: Plan }[]>`SELECT plan FROM accounts WHERE id = ${accountId}`)[0]?.plan ?? null),

    /**
     * Summed straight from the ledger by (UTC hour, route): PostgreSQL ledger ids are not in commit
     * order, so the SQLite store's id-mark rollup could skip a row here
     * (docs/methodology.md#console-usage-report).
     */
    usageReport: (accountId: string, nowMs: number, days: number) =>
      guarded(async () => {
        const { fromHour, toHour } = usageWindow(nowMs, days);
        const buckets = await sql<UsageBucket[]>`
          SELECT (ts_ms / ${HOUR_MS})::bigint AS hour, coalesce(route, '(unnamed)') AS route, (-sum(delta))::bigint AS credits
            FROM ledger
           WHERE account_id = ${accountId} AND kind IN ('debit', 'refund')
             AND ts_ms >= ${fromHour * HOUR_MS} AND ts_ms < ${(toHour + 1) * HOUR_MS}
           GROUP BY 1, 2`;
        return foldUsage(buckets, nowMs, days);
      }),

    signUpWithInvite: (code: string, passwordHash: string) =>
      guarded(async () => {
        const tsMs = now();
        return (await sql.begin(async (t) => {
          const tx = t as unknown as Sql;
          const row = await redeemTx(tx, code, null, tsMs);
          if (!row) return null;
          const invite = inviteOf(row, tsMs);
          const account = await accountSteps.createAccount(tx, { plan: invite.plan, label: invite.label }, tsMs);
          await tx`UPDATE invite_codes SET redeemed_by = ${account.accountId} WHERE id = ${invite.inviteId}`;
          if (invite.credits > 0) await accountSteps.addCredits(tx, account.accountId, invite.credits, "purchase", tsMs);
          await setPasswordTx(tx, account.accountId, passwordHash, tsMs);
          const session = await createSessionTx(tx, account.accountId, tsMs);
          return { accountId: account.accountId, keyId: account.keyId, key: account.key, invite: { ...invite, redeemedBy: account.accountId }, session };
        })) as SignedUp | null;
      }),

    applyInvite: (accountId: string, code: string) =>
      guarded(async () => {
        const tsMs = now();
        return (await sql.begin(async (t) => {
          const tx = t as unknown as Sql;
          const row = await redeemTx(tx, code, accountId, tsMs);
          if (!row) throw inviteNotFound();
          const [account] = await tx<{ plan: Plan }[]>`SELECT plan FROM accounts WHERE id = ${accountId} FOR UPDATE`;
          if (!account) throw new ApiError(404, "account_not_found", "The account no longer exists.");
          // Thrown inside the transaction: the code is un-redeemed with it.
          if (!inviteApplies(row.plan, account.plan)) throw inviteNotApplicable(row.plan, account.plan);
          if (row.plan !== account.plan) {
            await tx`UPDATE accounts SET plan = ${row.plan} WHERE id = ${accountId}`;
            await tx`SELECT pg_notify(${AUTH_CHANNEL}, ${accountId})`; // cached key rows carry the plan (pg-auth.ts)
          }
          // The new plan's grant first, as the admin's plan change does, so a top-up plan is not topped up over the purchase.
          await accountSteps.grant(tx, accountId, row.plan, tsMs);
          if (row.credits > 0) await accountSteps.addCredits(tx, accountId, row.credits, "purchase", tsMs);
          return { plan: row.plan, creditsAdded: row.credits };
        })) as { plan: Plan; creditsAdded: number };
      }),
  };
  return store satisfies ConsoleStore;
}

export type PgConsoleStore = ReturnType<typeof createPgConsoleStore>;
