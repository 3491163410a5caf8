// The two accounts stores the console runs on: in-memory SQLite and a real PostgreSQL started for
// the test file (test/_services/postgres-server.ts). `usePostgres()` registers its start and stop.
import { afterAll, beforeAll } from "vitest";
import { startPostgres, type PostgresProcess } from "../../_services/postgres-server";

export const CONSOLE_STORES = ["sqlite", "postgres"] as const;
export type ConsoleStoreKind = (typeof CONSOLE_STORES)[number];

/** Start PostgreSQL for this file; returns the store URL of a kind (undefined for SQLite). */
export function usePostgres(): (kind: ConsoleStoreKind) => string | undefined {
  let pg: PostgresProcess | null = null;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await pg?.stop();
  });
  return (kind) => (kind === "postgres" ? pg!.url : undefined);
}
