// Who may fill a daily store: a lease row in the store's own file, so of N processes on one data
// directory exactly one computes at a time. Taken in a write transaction (SQLite serialises them,
// so two takers cannot both win), renewed by its holder, released when its pass ends. A holder
// killed with SIGKILL leaves a row behind: it is taken over once its expiry passes, or at once
// when the holder's pid is gone on this host. Why a row and not a lock file:
// docs/operations.md#one-filler-per-store.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { openSqlite } from "../sqlite";

/** How long a lease lasts without renewal, ms of wall time. */
export const FILL_LEASE_MS = 60_000;
/** How often its holder renews it (well inside the lease: a busy event loop may delay a renewal). */
export const FILL_LEASE_RENEW_MS = 10_000;

/** The holder of a lease as the row names it. */
export interface LeaseHolder {
  owner: string;
  pid: number;
  host: string;
  /** Wall-clock ms after which anyone may take it. */
  expiresMs: number;
}

/** Outcome of a take: won (with the stale holder it replaced, if any) or held by someone else. */
type LeaseTake = { held: true; replaced: LeaseHolder | null } | { held: false; holder: LeaseHolder };

export interface FillLease {
  /** This taker's id (`host:pid:uuid`): two fillers of one process have different ones. */
  readonly owner: string;
  /** Take the lease if it is free, ours, expired, or held by a dead process of this host. */
  take(): LeaseTake;
  /** Extend our lease; false when it is no longer ours (taken over after it expired). */
  renew(): boolean;
  /** Give it up (nothing if it is not ours). */
  release(): void;
  /** The current holder, or null. */
  holder(): LeaseHolder | null;
  close(): void;
}

export interface FillLeaseOptions {
  /** Lease length, ms (default FILL_LEASE_MS). */
  leaseMs?: number;
  /** Wall clock (tests move it). */
  now?: () => number;
  /** Whether a pid of this host is alive (tests replace it). */
  isAlive?: (pid: number) => boolean;
  /** This process's pid and host as written in the row (tests impersonate another process). */
  pid?: number;
  host?: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS fill_lease (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  owner TEXT NOT NULL,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  expires_ms INTEGER NOT NULL
);
`;

/**
 * Whether `pid` runs on this host: `kill(pid, 0)` (ESRCH: gone; EPERM: alive under another user),
 * and on Linux not a zombie (a killed process its parent has not reaped yet still answers kill).
 */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true; // no procfs: trust kill
  }
}

/**
 * The fill lease of the store at `path` (its own connection to the file; the table is created
 * on first use).
 * @example const lease = openFillLease(dailyDbPath(dir)); if (lease.take().held) { ...; lease.release(); }
 */
export function openFillLease(path: string, options: FillLeaseOptions = {}): FillLease {
  const leaseMs = options.leaseMs ?? FILL_LEASE_MS;
  const now = options.now ?? Date.now;
  const isAlive = options.isAlive ?? pidAlive;
  const pid = options.pid ?? process.pid;
  const host = options.host ?? hostname();
  const owner = `${host}:${pid}:${randomUUID()}`;
  const db = openSqlite(path, { timeoutMs: 5000 });
  db.pragma("journal_mode = WAL");
  db.exec(SCHEMA);
  const qHolder = db.prepare("SELECT owner, pid, host, expires_ms AS expiresMs FROM fill_lease WHERE id = 1");
  const qPut = db.prepare("INSERT OR REPLACE INTO fill_lease (id, owner, pid, host, expires_ms) VALUES (1, ?, ?, ?, ?)");
  const qRenew = db.prepare("UPDATE fill_lease SET expires_ms = ? WHERE id = 1 AND owner = ?");
  const qRelease = db.prepare("DELETE FROM fill_lease WHERE id = 1 AND owner = ?");
  const read = () => (qHolder.get() as LeaseHolder | undefined) ?? null;
  const stale = (h: LeaseHolder) => h.expiresMs <= now() || (h.host === host && !isAlive(h.pid));
  // IMMEDIATE: the read and the write are one write transaction, so two takers are serialised.
  const take = db.transaction((): LeaseTake => {
    const h = read();
    if (h && h.owner !== owner && !stale(h)) return { held: false, holder: h };
    qPut.run(owner, pid, host, now() + leaseMs);
    return { held: true, replaced: h && h.owner !== owner ? h : null };
  });
  let closed = false;
  return {
    owner,
    take: () => take.immediate(),
    renew: () => !closed && qRenew.run(now() + leaseMs, owner).changes === 1,
    release: () => {
      if (!closed) qRelease.run(owner);
    },
    holder: () => (closed ? null : read()),
    close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}
