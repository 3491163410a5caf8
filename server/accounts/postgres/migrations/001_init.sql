-- Accounts store on PostgreSQL: the same tables as the SQLite store (server/accounts/schema.ts),
-- with BIGINT credits and BYTEA key hashes. Never edit a released migration; add the next file.
-- See docs/operations.md#postgresql.

CREATE TABLE accounts (
  id                  TEXT PRIMARY KEY,
  label               TEXT,
  plan                TEXT NOT NULL CHECK (plan IN ('top', 'api', 'index-etf', 'flow', 'invite')),
  status              TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended', 'blocked')),
  opra_agreement      BOOLEAN NOT NULL DEFAULT TRUE,
  daily_cap           BIGINT CHECK (daily_cap IS NULL OR daily_cap >= 0),
  monthly_cap         BIGINT CHECK (monthly_cap IS NULL OR monthly_cap >= 0),
  requests_per_minute INTEGER CHECK (requests_per_minute IS NULL OR requests_per_minute > 0),
  created_ms          BIGINT NOT NULL
);
CREATE INDEX accounts_label ON accounts (label);

CREATE TABLE api_keys (
  id         TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  prefix     TEXT NOT NULL,
  hash       BYTEA NOT NULL UNIQUE CHECK (length(hash) = 32),
  created_ms BIGINT NOT NULL,
  revoked_ms BIGINT,
  expires_ms BIGINT
);
CREATE INDEX api_keys_account ON api_keys (account_id);

CREATE TABLE balances (
  account_id TEXT PRIMARY KEY REFERENCES accounts (id),
  credits    BIGINT NOT NULL CHECK (credits >= 0)
);

CREATE TABLE ledger (
  id            BIGSERIAL PRIMARY KEY,
  account_id    TEXT NOT NULL REFERENCES accounts (id),
  ts_ms         BIGINT NOT NULL,
  delta         BIGINT NOT NULL,
  kind          TEXT NOT NULL CHECK (kind IN ('debit', 'refund', 'grant', 'purchase', 'adjust')),
  request_id    TEXT,
  route         TEXT,
  balance_after BIGINT NOT NULL CHECK (balance_after >= 0)
);
CREATE INDEX ledger_account ON ledger (account_id, id);
CREATE INDEX ledger_request ON ledger (account_id, request_id) WHERE request_id IS NOT NULL;

-- The ledger is append-only.
CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger is append-only';
END $$;
CREATE TRIGGER ledger_no_update BEFORE UPDATE OR DELETE ON ledger FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

-- Per-account ET-day (`d:YYYY-MM-DD`) and ET-month (`m:YYYY-MM`) credits, net of refunds (caps).
CREATE TABLE usage (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  period     TEXT NOT NULL,
  credits    BIGINT NOT NULL,
  PRIMARY KEY (account_id, period)
);

CREATE TABLE grants (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  period     TEXT NOT NULL,
  ledger_id  BIGINT NOT NULL REFERENCES ledger (id),
  PRIMARY KEY (account_id, period)
);
