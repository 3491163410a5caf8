/**
 * The maintenance pause flag on PostgreSQL: the CLI writes it, every instance reads it. The
 * server's `ServiceControl` reads synchronously on each request, so `cachedPauses` refreshes a copy
 * in the background (every `refreshMs`); an unreachable store keeps the last value.
 * See docs/operations.md#maintenance-and-warm-up.
 */
import type { PauseRecord, PauseStore } from "../../control/service-state";
import type { Sql } from "./pg-connection";

export function openPgPauseStore(sql: Sql) {
  return {
    async read(): Promise<PauseRecord | null> {
      const [row] = await sql<PauseRecord[]>`
        SELECT retry_after_s AS "retryAfterS", message, since_ms AS "sinceMs" FROM service_pause WHERE id = 1`;
      return row ?? null;
    },
    async pause(p: { retryAfterS: number; message: string }, nowMs: number): Promise<void> {
      await sql`INSERT INTO service_pause (id, retry_after_s, message, since_ms) VALUES (1, ${p.retryAfterS}, ${p.message}, ${nowMs})
                ON CONFLICT (id) DO UPDATE SET retry_after_s = excluded.retry_after_s, message = excluded.message, since_ms = excluded.since_ms`;
    },
    /** True when a pause was lifted. */
    async resume(): Promise<boolean> {
      return (await sql`DELETE FROM service_pause WHERE id = 1`).count > 0;
    },
  };
}

export type PgPauseStore = ReturnType<typeof openPgPauseStore>;

/** A synchronous view of the flag for `createServiceControl`, refreshed in the background. */
export function cachedPauses(store: PgPauseStore, refreshMs = 1000): PauseStore & { stop(): void } {
  let current: PauseRecord | null = null;
  const refresh = () => {
    store.read().then(
      (r) => (current = r),
      () => {}, // unreachable: keep the last answer
    );
  };
  refresh();
  const timer = setInterval(refresh, refreshMs);
  timer.unref?.();
  return {
    read: () => current,
    pause: () => {
      throw new Error("read-only view: use the pause CLI");
    },
    resume: () => {
      throw new Error("read-only view: use the pause CLI");
    },
    stop: () => clearInterval(timer),
  };
}
