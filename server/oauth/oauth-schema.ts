/**
 * The OAuth tables, kept beside (not inside) the accounts schema in the same SQLite file, so a
 * connected app, its codes and tokens live with the account they charge. Created with
 * `IF NOT EXISTS`: opening is idempotent and safe from the server and the CLI at once.
 * Secrets are stored only as SHA-256 hex (`*_hash`); times are Unix ms.
 */
import type { Sqlite } from "../sqlite";

const DDL = `
CREATE TABLE IF NOT EXISTS oauth_clients (
  client_id     TEXT PRIMARY KEY,
  secret_hash   TEXT,
  auth_method   TEXT NOT NULL,
  client_name   TEXT,
  redirect_uris TEXT NOT NULL,
  metadata      TEXT NOT NULL,
  created_ms    INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS oauth_apps (
  app_id       TEXT PRIMARY KEY,
  account_id   TEXT NOT NULL,
  client_id    TEXT NOT NULL,
  client_name  TEXT,
  resource     TEXT NOT NULL,
  scope        TEXT NOT NULL,
  created_ms   INTEGER NOT NULL,
  last_used_ms INTEGER,
  revoked_ms   INTEGER
);
CREATE INDEX IF NOT EXISTS oauth_apps_by_account ON oauth_apps (account_id, created_ms);
CREATE TABLE IF NOT EXISTS oauth_codes (
  code_hash      TEXT PRIMARY KEY,
  app_id         TEXT NOT NULL,
  client_id      TEXT NOT NULL,
  redirect_uri   TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  resource       TEXT NOT NULL,
  scope          TEXT NOT NULL,
  expires_ms     INTEGER NOT NULL,
  used_ms        INTEGER
);
CREATE TABLE IF NOT EXISTS oauth_tokens (
  token_hash TEXT PRIMARY KEY,
  kind       TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
  app_id     TEXT NOT NULL,
  client_id  TEXT NOT NULL,
  resource   TEXT NOT NULL,
  scope      TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  expires_ms INTEGER NOT NULL,
  revoked_ms INTEGER
);
CREATE INDEX IF NOT EXISTS oauth_tokens_by_app ON oauth_tokens (app_id);
`;

/**
 * Each code and token records the API key that signed in (`key_id`), so revoking the key revokes
 * the grant. Added to stores created before; their grants have no key and must sign in again.
 */
function addGrantKeys(db: Sqlite): void {
  db.transaction(() => {
    for (const table of ["oauth_codes", "oauth_tokens"]) {
      const columns = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
      if (!columns.some((c) => c.name === "key_id")) db.exec(`ALTER TABLE ${table} ADD COLUMN key_id TEXT`);
    }
    // By expiry too: every token issue purges long-expired rows, which must not scan the table.
    db.exec(`CREATE INDEX IF NOT EXISTS oauth_tokens_by_key ON oauth_tokens (key_id) WHERE key_id IS NOT NULL;
             CREATE INDEX IF NOT EXISTS oauth_codes_by_key ON oauth_codes (key_id) WHERE key_id IS NOT NULL;
             CREATE INDEX IF NOT EXISTS oauth_tokens_by_expiry ON oauth_tokens (expires_ms);
             CREATE INDEX IF NOT EXISTS oauth_codes_by_expiry ON oauth_codes (expires_ms);`);
  }).immediate();
}

/** Create the OAuth tables if they are missing (idempotent). */
export function migrateOAuth(db: Sqlite): void {
  db.exec(DDL);
  addGrantKeys(db);
}
