/**
 * The accounts store's schema as an ordered list of migrations, tracked by `PRAGMA user_version`.
 * Append new migrations; never edit a released one. See docs/operations.md#schema.
 */
import type { Sqlite } from "../sqlite";

/** Migration `i` moves the store from `user_version = i` to `i + 1`. */
const MIGRATIONS: readonly string[] = [
  /* v1 */ `
  CREATE TABLE accounts (
    id             TEXT PRIMARY KEY,
    label          TEXT,
    plan           TEXT NOT NULL CHECK (plan IN ('top', 'api', 'index-etf', 'flow', 'invite')),
    status         TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended', 'blocked')),
    opra_agreement INTEGER NOT NULL DEFAULT 1 CHECK (opra_agreement IN (0, 1)),
    daily_cap      INTEGER CHECK (daily_cap IS NULL OR daily_cap >= 0),
    monthly_cap    INTEGER CHECK (monthly_cap IS NULL OR monthly_cap >= 0),
    created_ms     INTEGER NOT NULL
  );
  CREATE INDEX accounts_label ON accounts(label);

  CREATE TABLE api_keys (
    id         TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    prefix     TEXT NOT NULL,
    hash       BLOB NOT NULL UNIQUE CHECK (length(hash) = 32),
    created_ms INTEGER NOT NULL,
    revoked_ms INTEGER,
    expires_ms INTEGER
  );
  CREATE INDEX api_keys_account ON api_keys(account_id);

  CREATE TABLE balances (
    account_id TEXT PRIMARY KEY REFERENCES accounts(id),
    credits    INTEGER NOT NULL CHECK (credits >= 0)
  );

  CREATE TABLE ledger (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id    TEXT NOT NULL REFERENCES accounts(id),
    ts_ms         INTEGER NOT NULL,
    delta         INTEGER NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('debit', 'refund', 'grant', 'purchase', 'adjust')),
    request_id    TEXT,
    route         TEXT,
    balance_after INTEGER NOT NULL CHECK (balance_after >= 0)
  );
  CREATE INDEX ledger_account ON ledger(account_id, id);
  CREATE INDEX ledger_request ON ledger(account_id, request_id) WHERE request_id IS NOT NULL;
  CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
    BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END;
  CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
    BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END;

  CREATE TABLE usage (
    account_id TEXT NOT NULL REFERENCES accounts(id),
    period     TEXT NOT NULL,
    credits    INTEGER NOT NULL,
    PRIMARY KEY (account_id, period)
  ) WITHOUT ROWID;

  CREATE TABLE grants (
    account_id TEXT NOT NULL REFERENCES accounts(id),
    period     TEXT NOT NULL,
    ledger_id  INTEGER NOT NULL REFERENCES ledger(id),
    PRIMARY KEY (account_id, period)
  ) WITHOUT ROWID;
  `,
  /* v2: per-account requests-per-minute override (load benches, partner deals); NULL = the plan's limit. */ `
  ALTER TABLE accounts ADD COLUMN requests_per_minute INTEGER CHECK (requests_per_minute IS NULL OR requests_per_minute > 0);
  `,
];

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Bring `db` up to `SCHEMA_VERSION` in one IMMEDIATE transaction (safe when the CLI and the
 * server open the same file at once). Refuses a store written by a newer build.
 */
export function migrate(db: Sqlite): void {
  db.transaction(() => {
    const current = db.pragma("user_version", { simple: true }) as number;
    if (current > SCHEMA_VERSION) {
      throw new Error(`accounts store has schema version ${current}, newer than this build (${SCHEMA_VERSION})`);
    }
    for (let v = current; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]);
    if (current !== SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}
