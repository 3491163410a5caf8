/**
 * One recorder per store of record: the daily store's lease (server/daily-store/lease.ts), kept in
 * a SQLite file of its own in the store's folder (`recorded/recorder-lease.sqlite`). Two recorders
 * writing one store would interleave their journals, so the second one is refused and told who
 * holds it; a lease left by a recorder killed with SIGKILL is taken over at once when its pid is
 * gone on this host, else once it expires (`FILL_LEASE_MS` without renewal). docs/data.md#recorder
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { FILL_LEASE_MS, FILL_LEASE_RENEW_MS, openFillLease, type FillLeaseOptions, type LeaseHolder } from "../daily-store/lease";

/** The lease file inside the store's root folder. */
export const RECORDER_LEASE_FILE = "recorder-lease.sqlite";

/** A held recorder lock. */
interface RecorderLock {
  /** The holder it replaced (a killed recorder's stale lease), or null. */
  readonly replaced: LeaseHolder | null;
  /** Gives the lock up and closes its file (idempotent). */
  release(): void;
}

/** The lock is held by another recorder. */
export type RecorderLockTake = { held: true; lock: RecorderLock } | { held: false; holder: LeaseHolder; message: string };

/** Who holds the store, in words. */
function describeHolder(root: string, h: LeaseHolder, nowMs = Date.now()): string {
  const left = Math.max(0, Math.ceil((h.expiresMs - nowMs) / 1000));
  return (
    `the store of record ${root} is being recorded by another process (pid ${h.pid} on host ${h.host}); ` +
    `one recorder per store: stop that one first, or record into another --data-dir ` +
    `(its lock expires ${left} s after its last renewal if it stops without releasing it)`
  );
}

/**
 * Takes the store's recorder lock and renews it every `FILL_LEASE_RENEW_MS` until released; when a
 * renewal finds it taken over (this process stalled past `FILL_LEASE_MS`), `onLost` is called once
 * and the recorder must stop writing.
 * @example const t = tryRecorderLock(root, () => stop()); if (!t.held) throw new Error(t.message);
 */
export function tryRecorderLock(root: string, onLost: (error: Error) => void, options: FillLeaseOptions = {}): RecorderLockTake {
  mkdirSync(root, { recursive: true });
  const lease = openFillLease(join(root, RECORDER_LEASE_FILE), options);
  let took: ReturnType<typeof lease.take>;
  try {
    took = lease.take();
  } catch (error) {
    lease.close();
    throw error;
  }
  if (!took.held) {
    lease.close();
    return { held: false, holder: took.holder, message: describeHolder(root, took.holder, (options.now ?? Date.now)()) };
  }
  let released = false;
  const timer = setInterval(() => {
    if (released) return;
    let ok = false;
    try {
      ok = lease.renew();
    } catch {
      ok = false;
    }
    if (ok) return;
    clearInterval(timer);
    const holder = lease.holder();
    onLost(new Error(`recorder lock lost: ${holder ? describeHolder(root, holder) : `not renewed within ${FILL_LEASE_MS / 1000} s`}; recording stopped`));
  }, FILL_LEASE_RENEW_MS);
  timer.unref?.();
  return {
    held: true,
    lock: {
      replaced: took.replaced,
      release() {
        if (released) return;
        released = true;
        clearInterval(timer);
        try {
          lease.release();
        } finally {
          lease.close();
        }
      },
    },
  };
}
