/**
 * Apply the SQL files of `./migrations` (`NNN_name.sql`, in order) that a database has not seen,
 * each inside one transaction holding an advisory lock (several instances starting at once apply
 * each file once), and record them in `schema_migrations`. Refuses a database migrated by a newer
 * build. See docs/operations.md#postgresql.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Sql } from "./pg-connection";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Lock id of migrations (an arbitrary constant: `hashtext('optionscope.migrate')` would do as well). */
const MIGRATION_LOCK = 7_320_451_118;

/** The migration files shipped with this build, ordered by version. */
export function loadMigrations(dir = join(dirname(fileURLToPath(import.meta.url)), "migrations")): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d+_[\w-]+\.sql$/.test(f))
    .map((f) => ({ version: Number(f.slice(0, f.indexOf("_"))), name: f, sql: readFileSync(join(dir, f), "utf8") }))
    .sort((a, b) => a.version - b.version);
}

/** Bring the database up to the newest migration; returns the versions applied now. */
export async function migratePg(sql: Sql, migrations: Migration[] = loadMigrations()): Promise<number[]> {
  const newest = migrations.at(-1)?.version ?? 0;
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    INTEGER PRIMARY KEY,
      name       TEXT NOT NULL,
      applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )`;
    const done = new Set((await tx<{ version: number }[]>`SELECT version FROM schema_migrations`).map((r) => r.version));
    const beyond = [...done].filter((v) => v > newest);
    if (beyond.length > 0) {
      throw new Error(`accounts store has schema version ${Math.max(...beyond)}, newer than this build (${newest})`);
    }
    const applied: number[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await tx.unsafe(m.sql);
      await tx`INSERT INTO schema_migrations (version, name) VALUES (${m.version}, ${m.name})`;
      applied.push(m.version);
    }
    return applied;
  });
}
