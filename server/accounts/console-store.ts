/**
 * What the developer console keeps beside the accounts: passwords (scrypt hashes), one-time setup
 * links, sessions, invite codes and when each key was last used. Its own tables in the accounts
 * database (created if missing, like the OAuth and pause tables), so the CLI and the server share
 * them. Secrets (link tokens, session ids, invite codes) are stored as SHA-256 only.
 * See docs/operations.md#console-sign-in and docs/operations.md#invite-codes.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Sqlite } from "../sqlite";
import { base62 } from "./keys";
import type { ConsoleKey, ConsoleSession, InviteCode, NewSession, SessionTtls } from "./console-types";
import type { Plan } from "./types";

/** Prefixes that make each secret recognisable (and scannable) when pasted in the wrong place. */
export const SETUP_TOKEN_PREFIX = "oscl_";
export const INVITE_CODE_PREFIX = "osinv_";

export type { ConsoleKey, ConsoleSession, InviteCode, NewSession, SessionTtls } from "./console-types";

export const DEFAULT_SESSION_TTLS: SessionTtls = Object.freeze({ absoluteMs: 12 * 3_600_000, idleMs: 3_600_000 });
/** How long a setup link printed by the CLI stays valid. */
export const DEFAULT_SETUP_LINK_TTL_MS = 24 * 3_600_000;

export const sha256 = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();
export const secret = (prefix: string, bytes: number): string => prefix + base62(randomBytes(bytes));
const iso = (ms: number | null): string | null => (ms == null ? null : new Date(ms).toISOString());
/** A session's last-seen time is written at most this often (reads stay reads). */
export const TOUCH_EVERY_MS = 60_000;

function migrateConsole(db: Sqlite): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS console_credentials (
      account_id    TEXT PRIMARY KEY REFERENCES accounts(id),
      password_hash TEXT NOT NULL,
      updated_ms    INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS console_setup_links (
      token_hash BLOB PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      created_ms INTEGER NOT NULL,
      expires_ms INTEGER NOT NULL,
      used_ms    INTEGER
    );
    CREATE TABLE IF NOT EXISTS console_sessions (
      id_hash      BLOB PRIMARY KEY,
      account_id   TEXT NOT NULL REFERENCES accounts(id),
      csrf_token   TEXT NOT NULL,
      created_ms   INTEGER NOT NULL,
      last_seen_ms INTEGER NOT NULL,
      expires_ms   INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS console_sessions_account ON console_sessions(account_id);
    CREATE TABLE IF NOT EXISTS invite_codes (
      id          TEXT PRIMARY KEY,
      code_hash   BLOB NOT NULL UNIQUE,
      prefix      TEXT NOT NULL,
      plan        TEXT NOT NULL,
      credits     INTEGER NOT NULL DEFAULT 0 CHECK (credits >= 0),
      label       TEXT,
      created_ms  INTEGER NOT NULL,
      expires_ms  INTEGER,
      redeemed_ms INTEGER,
      redeemed_by TEXT REFERENCES accounts(id)
    );
    CREATE TABLE IF NOT EXISTS api_key_last_used (
      key_id  TEXT PRIMARY KEY REFERENCES api_keys(id),
      used_ms INTEGER NOT NULL
    ) WITHOUT ROWID;
  `);
}

export type ConsoleKeyRow = { id: string; prefix: string; created_ms: number; revoked_ms: number | null; expires_ms: number | null; used_ms: number | null };

export function consoleKeyOf(k: ConsoleKeyRow, tsMs: number): ConsoleKey {
  return {
    keyId: k.id,
    prefix: k.prefix,
    state: k.revoked_ms != null ? "revoked" : k.expires_ms != null && k.expires_ms <= tsMs ? "expired" : "active",
    createdAt: iso(k.created_ms)!,
    revokedAt: iso(k.revoked_ms),
    expiresAt: iso(k.expires_ms),
    lastUsedAt: iso(k.used_ms),
  };
}

export type InviteRow = {
  id: string;
  prefix: string;
  plan: Plan;
  credits: number;
  label: string | null;
  created_ms: number;
  expires_ms: number | null;
  redeemed_ms: number | null;
  redeemed_by: string | null;
};

export function inviteOf(row: InviteRow, tsMs: number): InviteCode {
  const state = row.redeemed_ms != null ? "redeemed" : row.expires_ms != null && row.expires_ms <= tsMs ? "expired" : "open";
  return {
    inviteId: row.id,
    prefix: row.prefix,
    plan: row.plan,
    credits: row.credits,
    label: row.label,
    createdAt: iso(row.created_ms)!,
    expiresAt: iso(row.expires_ms),
    redeemedAt: iso(row.redeemed_ms),
    redeemedBy: row.redeemed_by,
    state,
  };
}

/**
 * Open the console tables on an accounts database (created when missing).
 * @example const store = openConsoleStore(accounts.db); const token = store.createSetupLink("acct_x");
 */
export function openConsoleStore(db: Sqlite, options: { now?: () => number; sessionTtls?: SessionTtls } = {}) {
  migrateConsole(db);
  const now = options.now ?? Date.now;
  const ttls = options.sessionTtls ?? DEFAULT_SESSION_TTLS;
  const q = {
    passwordHash: db.prepare<[string], { password_hash: string }>(`SELECT password_hash FROM console_credentials WHERE account_id = ?`),
    setPassword: db.prepare(
      `INSERT INTO console_credentials (account_id, password_hash, updated_ms) VALUES (?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET password_hash = excluded.password_hash, updated_ms = excluded.updated_ms`,
    ),
    insertLink: db.prepare(`INSERT INTO console_setup_links (token_hash, account_id, created_ms, expires_ms) VALUES (?, ?, ?, ?)`),
    useLink: db.prepare<[number, Buffer, number], { account_id: string }>(
      `UPDATE console_setup_links SET used_ms = ? WHERE token_hash = ? AND used_ms IS NULL AND expires_ms > ? RETURNING account_id`,
    ),
    insertSession: db.prepare(`INSERT INTO console_sessions (id_hash, account_id, csrf_token, created_ms, last_seen_ms, expires_ms) VALUES (?, ?, ?, ?, ?, ?)`),
    session: db.prepare<[Buffer], { account_id: string; csrf_token: string; created_ms: number; last_seen_ms: number; expires_ms: number }>(
      `SELECT account_id, csrf_token, created_ms, last_seen_ms, expires_ms FROM console_sessions WHERE id_hash = ?`,
    ),
    touchSession: db.prepare(`UPDATE console_sessions SET last_seen_ms = ? WHERE id_hash = ?`),
    deleteSession: db.prepare(`DELETE FROM console_sessions WHERE id_hash = ?`),
    deleteSessionsOf: db.prepare(`DELETE FROM console_sessions WHERE account_id = ?`),
    purgeSessions: db.prepare(`DELETE FROM console_sessions WHERE expires_ms <= ? OR last_seen_ms <= ?`),
    insertInvite: db.prepare(`INSERT INTO invite_codes (id, code_hash, prefix, plan, credits, label, created_ms, expires_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
    invites: db.prepare<[], InviteRow>(`SELECT * FROM invite_codes ORDER BY created_ms, id`),
    redeemInvite: db.prepare<[number, string | null, Buffer, number], InviteRow>(
      `UPDATE invite_codes SET redeemed_ms = ?, redeemed_by = ?
        WHERE code_hash = ? AND redeemed_ms IS NULL AND (expires_ms IS NULL OR expires_ms > ?) RETURNING *`,
    ),
    setRedeemer: db.prepare(`UPDATE invite_codes SET redeemed_by = ? WHERE id = ?`),
    upsertLastUsed: db.prepare(
      `INSERT INTO api_key_last_used (key_id, used_ms) VALUES (?, ?)
       ON CONFLICT (key_id) DO UPDATE SET used_ms = max(used_ms, excluded.used_ms)`,
    ),
    keyExists: db.prepare<[string], { one: number }>(`SELECT 1 AS one FROM api_keys WHERE id = ?`),
    setMonthlyCap: db.prepare<[number | null, string], { monthly_cap: number | null }>(`UPDATE accounts SET monthly_cap = ? WHERE id = ? RETURNING monthly_cap`),
    keysOf: db.prepare<[string], ConsoleKeyRow>(
      `SELECT k.id, k.prefix, k.created_ms, k.revoked_ms, k.expires_ms, u.used_ms FROM api_keys k
         LEFT JOIN api_key_last_used u ON u.key_id = k.id WHERE k.account_id = ? ORDER BY k.created_ms, k.id`,
    ),
  };

  const store = {
    now,
    passwordHash: (accountId: string): string | null => q.passwordHash.get(accountId)?.password_hash ?? null,

    /** Set the account's password hash and end its sessions (a changed password signs everyone out). */
    setPasswordHash(accountId: string, passwordHash: string): void {
      db.transaction(() => store.setPasswordHashTx(accountId, passwordHash)).immediate();
    },

    /** `setPasswordHash`'s two writes, inside the caller's transaction. */
    setPasswordHashTx(accountId: string, passwordHash: string): void {
      q.setPassword.run(accountId, passwordHash, now());
      q.deleteSessionsOf.run(accountId);
    },

    /** Spend a setup link, set the password and open a session, in one transaction (`ConsoleStore.setUpWithLink`). */
    setUpWithLink(token: string, passwordHash: string): ({ accountId: string } & NewSession) | null {
      return db
        .transaction(() => {
          const accountId = store.consumeSetupLink(token);
          if (accountId === null) return null;
          store.setPasswordHashTx(accountId, passwordHash);
          return { accountId, ...store.createSession(accountId) };
        })
        .immediate();
    },

    /** A one-time setup link token for the account (the CLI prints it inside a URL). */
    createSetupLink(accountId: string, ttlMs = DEFAULT_SETUP_LINK_TTL_MS): { token: string; expiresMs: number } {
      const token = secret(SETUP_TOKEN_PREFIX, 32);
      const tsMs = now();
      q.insertLink.run(sha256(token), accountId, tsMs, tsMs + ttlMs);
      return { token, expiresMs: tsMs + ttlMs };
    },

    /** Use a setup link: the account it names, once; null when unknown, used or expired. */
    consumeSetupLink(token: string): string | null {
      const tsMs = now();
      return q.useLink.get(tsMs, sha256(token), tsMs)?.account_id ?? null;
    },

    /** A new session (always a fresh id: a session id is never chosen by the browser). Two writes; callers may wrap them in their transaction. */
    createSession(accountId: string): NewSession {
      const sessionId = base62(randomBytes(32));
      const csrfToken = base62(randomBytes(32));
      const tsMs = now();
      q.purgeSessions.run(tsMs, tsMs - ttls.idleMs);
      q.insertSession.run(sha256(sessionId), accountId, csrfToken, tsMs, tsMs, tsMs + ttls.absoluteMs);
      return { sessionId, csrfToken, expiresMs: tsMs + ttls.absoluteMs };
    },

    /** The live session of an id, or null (unknown, expired, idle too long). Refreshes its idle clock. */
    session(sessionId: string): ConsoleSession | null {
      const hash = sha256(sessionId);
      const row = q.session.get(hash);
      const tsMs = now();
      if (!row) return null;
      if (row.expires_ms <= tsMs || row.last_seen_ms + ttls.idleMs <= tsMs) {
        q.deleteSession.run(hash);
        return null;
      }
      if (tsMs - row.last_seen_ms >= TOUCH_EVERY_MS) q.touchSession.run(tsMs, hash);
      return { accountId: row.account_id, csrfToken: row.csrf_token, createdMs: row.created_ms, expiresMs: row.expires_ms };
    },

    endSession: (sessionId: string): boolean => q.deleteSession.run(sha256(sessionId)).changes > 0,

    endSessionsOf: (accountId: string): number => q.deleteSessionsOf.run(accountId).changes,

    /** A new invite code (shown once) for `plan`, adding `credits` on redemption. */
    createInvite(input: { plan: Plan; credits?: number; label?: string | null; expiresAtMs?: number | null }): { code: string; invite: InviteCode } {
      const code = secret(INVITE_CODE_PREFIX, 16);
      const id = `inv_${base62(randomBytes(9))}`;
      const tsMs = now();
      q.insertInvite.run(
        id,
        sha256(code),
        code.slice(0, INVITE_CODE_PREFIX.length + 4),
        input.plan,
        input.credits ?? 0,
        input.label ?? null,
        tsMs,
        input.expiresAtMs ?? null,
      );
      return { code, invite: store.listInvites().find((i) => i.inviteId === id)! };
    },

    listInvites: (): InviteCode[] => {
      const tsMs = now();
      return q.invites.all().map((r) => inviteOf(r, tsMs));
    },

    /**
     * Mark a code redeemed (once; open and unexpired only) and return it; null otherwise. Call
     * inside the transaction that applies it, so a failure there un-redeems it.
     */
    redeemInviteTx(code: string, accountId: string | null): InviteCode | null {
      const tsMs = now();
      const row = q.redeemInvite.get(tsMs, accountId, sha256(code.trim()), tsMs);
      return row ? inviteOf(row, tsMs) : null;
    },

    /** Name the account an invite created (it did not exist when the code was redeemed). */
    setInviteRedeemerTx: (inviteId: string, accountId: string): void => void q.setRedeemer.run(accountId, inviteId),

    /** Write last-use times of keys (batched by the server; a deleted key is skipped). */
    recordKeyUses(uses: ReadonlyMap<string, number>): void {
      db.transaction(() => {
        for (const [keyId, usedMs] of uses) if (q.keyExists.get(keyId)) q.upsertLastUsed.run(keyId, usedMs);
      }).immediate();
    },

    /**
     * Set (null: remove) the account's monthly spend cap. A direct write: `updateAccount` would
     * also read the whole ledger for its audit figure. The next debit sees it (same database).
     */
    setMonthlyCap(accountId: string, credits: number | null): number | null | undefined {
      return q.setMonthlyCap.get(credits, accountId)?.monthly_cap;
    },

    /** The account's keys with their state and last use (one indexed read; no ledger). */
    keysOf(accountId: string): ConsoleKey[] {
      const tsMs = now();
      return q.keysOf.all(accountId).map((k) => consoleKeyOf(k, tsMs));
    },
  };
  return store;
}
