-- The developer console and OAuth grants on PostgreSQL: the same tables as the SQLite store
-- (server/accounts/console-store.ts, server/oauth/oauth-schema.ts), secrets stored as SHA-256
-- only. Every instance reads them, so sessions, setup links and invite codes hold across
-- instances. See docs/operations.md#console-on-postgresql.

CREATE TABLE console_credentials (
  account_id    TEXT PRIMARY KEY REFERENCES accounts (id),
  password_hash TEXT NOT NULL,
  updated_ms    BIGINT NOT NULL
);

CREATE TABLE console_setup_links (
  token_hash BYTEA PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  created_ms BIGINT NOT NULL,
  expires_ms BIGINT NOT NULL,
  used_ms    BIGINT
);

CREATE TABLE console_sessions (
  id_hash      BYTEA PRIMARY KEY,
  account_id   TEXT NOT NULL REFERENCES accounts (id),
  csrf_token   TEXT NOT NULL,
  created_ms   BIGINT NOT NULL,
  last_seen_ms BIGINT NOT NULL,
  expires_ms   BIGINT NOT NULL
);
CREATE INDEX console_sessions_account ON console_sessions (account_id);
CREATE INDEX console_sessions_expiry ON console_sessions (expires_ms);

-- Redeemed once: redemption is `UPDATE ... WHERE redeemed_ms IS NULL`, which a second instance's
-- concurrent update re-checks after the first commits (read committed), finding nothing to update.
CREATE TABLE invite_codes (
  id          TEXT PRIMARY KEY,
  code_hash   BYTEA NOT NULL UNIQUE,
  prefix      TEXT NOT NULL,
  plan        TEXT NOT NULL CHECK (plan IN ('top', 'api', 'index-etf', 'flow', 'invite')),
  credits     BIGINT NOT NULL DEFAULT 0 CHECK (credits >= 0),
  label       TEXT,
  created_ms  BIGINT NOT NULL,
  expires_ms  BIGINT,
  redeemed_ms BIGINT,
  redeemed_by TEXT REFERENCES accounts (id)
);

CREATE TABLE api_key_last_used (
  key_id  TEXT PRIMARY KEY REFERENCES api_keys (id),
  used_ms BIGINT NOT NULL
);

-- OAuth 2.1 for tool clients (server/oauth/oauth-store.ts).
CREATE TABLE oauth_clients (
  client_id     TEXT PRIMARY KEY,
  secret_hash   TEXT,
  auth_method   TEXT NOT NULL,
  client_name   TEXT,
  redirect_uris TEXT NOT NULL,
  metadata      TEXT NOT NULL,
  created_ms    BIGINT NOT NULL
);
CREATE INDEX oauth_clients_by_created ON oauth_clients (created_ms);

CREATE TABLE oauth_apps (
  app_id       TEXT PRIMARY KEY,
  account_id   TEXT NOT NULL,
  client_id    TEXT NOT NULL,
  client_name  TEXT,
  resource     TEXT NOT NULL,
  scope        TEXT NOT NULL,
  created_ms   BIGINT NOT NULL,
  last_used_ms BIGINT,
  revoked_ms   BIGINT
);
CREATE INDEX oauth_apps_by_account ON oauth_apps (account_id, created_ms);
CREATE INDEX oauth_apps_by_client ON oauth_apps (client_id);

CREATE TABLE oauth_codes (
  code_hash      TEXT PRIMARY KEY,
  app_id         TEXT NOT NULL,
  client_id      TEXT NOT NULL,
  redirect_uri   TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  resource       TEXT NOT NULL,
  scope          TEXT NOT NULL,
  expires_ms     BIGINT NOT NULL,
  used_ms        BIGINT,
  key_id         TEXT
);
CREATE INDEX oauth_codes_by_key ON oauth_codes (key_id) WHERE key_id IS NOT NULL;
CREATE INDEX oauth_codes_by_expiry ON oauth_codes (expires_ms);

CREATE TABLE oauth_tokens (
  token_hash TEXT PRIMARY KEY,
  kind       TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
  app_id     TEXT NOT NULL,
  client_id  TEXT NOT NULL,
  resource   TEXT NOT NULL,
  scope      TEXT NOT NULL,
  created_ms BIGINT NOT NULL,
  expires_ms BIGINT NOT NULL,
  revoked_ms BIGINT,
  key_id     TEXT
);
CREATE INDEX oauth_tokens_by_app ON oauth_tokens (app_id);
CREATE INDEX oauth_tokens_by_key ON oauth_tokens (key_id) WHERE key_id IS NOT NULL;
CREATE INDEX oauth_tokens_by_expiry ON oauth_tokens (expires_ms);
