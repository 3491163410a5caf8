/**
 * Whether the API serves data right now: open, paused for maintenance (`optionscope pause`), or
 * warming up (real data still loading after a start). Read by the route executor before anything
 * is charged, and by the stream hubs. See docs/operations.md#maintenance-and-warm-up.
 */
import type { Sqlite } from "../sqlite";

/** What a data route answers now. */
type ServiceState =
  | { mode: "open" }
  | { mode: "paused"; retryAfterS: number; message: string }
  | { mode: "warming_up"; retryAfterS: number; progress: { done: number; total: number } | null };

/** The app's view of the service state (cheap: called on every data request). */
export interface ServiceControl {
  state(): ServiceState;
}

/** Always open (the default of `createApp`). */
export const ALWAYS_OPEN: ServiceControl = Object.freeze({ state: () => ({ mode: "open" }) as const });

/** A maintenance pause as stored. */
export interface PauseRecord {
  retryAfterS: number;
  message: string;
  sinceMs: number;
}

/**
 * The pause flag in the accounts database, shared by the server and the CLI (one row).
 * @example const pauses = openPauseStore(db); pauses.pause({ retryAfterS: 300, message: "Upgrading" }, Date.now());
 */
export function openPauseStore(db: Sqlite) {
  db.exec(`CREATE TABLE IF NOT EXISTS service_pause (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    retry_after_s INTEGER NOT NULL CHECK (retry_after_s > 0),
    message TEXT NOT NULL,
    since_ms INTEGER NOT NULL
  )`);
  const read = db.prepare("SELECT retry_after_s AS retryAfterS, message, since_ms AS sinceMs FROM service_pause WHERE id = 1");
  const upsert = db.prepare(
    "INSERT INTO service_pause (id, retry_after_s, message, since_ms) VALUES (1, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET retry_after_s = excluded.retry_after_s, message = excluded.message, since_ms = excluded.since_ms",
  );
  const clear = db.prepare("DELETE FROM service_pause WHERE id = 1");
  return {
    read: (): PauseRecord | null => (read.get() as PauseRecord | undefined) ?? null,
    pause(p: { retryAfterS: number; message: string }, nowMs: number): void {
      upsert.run(p.retryAfterS, p.message, nowMs);
    },
    /** True when a pause was lifted. */
    resume: (): boolean => clear.run().changes > 0,
  };
}

export type PauseStore = ReturnType<typeof openPauseStore>;

/** Default maintenance message. */
export const DEFAULT_PAUSE_MESSAGE = "The API is paused for maintenance.";

/**
 * The service state from a pause store (re-read at most every `refreshMs`, so a pause set by the
 * CLI applies within that time) and an optional warm-up probe.
 */
export function createServiceControl(o: {
  pauses?: PauseStore | null;
  warmup?: () => { retryAfterS: number; progress: { done: number; total: number } | null } | null;
  nowMs?: () => number;
  refreshMs?: number;
}): ServiceControl {
  const now = o.nowMs ?? (() => Date.now());
  const refreshMs = o.refreshMs ?? 1000;
  let cached: PauseRecord | null = null;
  let readAtMs = -Infinity;
  return {
    state() {
      const warm = o.warmup?.() ?? null;
      if (warm) return { mode: "warming_up", ...warm };
      if (o.pauses) {
        const t = now();
        if (t - readAtMs >= refreshMs) {
          try {
            cached = o.pauses.read();
          } catch {
            // an unreadable store keeps the last answer
          }
          readAtMs = t;
        }
        if (cached) return { mode: "paused", retryAfterS: cached.retryAfterS, message: cached.message };
      }
      return { mode: "open" };
    },
  };
}
