/**
 * Bounds on dynamic client registration (RFC 7591 is open to anyone): a client that never
 * completed a sign-in ("unused": no connected app was ever made with it) expires after a TTL, and
 * at most `maxUnusedClients` unused clients are kept; registering past the cap evicts the oldest
 * unused ones. Clients that signed in are never touched here. Counting unused clients costs about
 * 1 ms at the cap, so pruning runs once per batch of registrations and trims to `cap - batch`:
 * the count never passes the cap between prunes (one registering process, the server). The per-address registration rate
 * lives in the authorization server. See docs/api.md#oauth-sign-in-for-tool-clients.
 */
import type { Sqlite } from "../sqlite";

export interface RegistrationLimits {
  /** Seconds an unused client stays valid after registering; default 86400 (24 h). */
  unusedClientTtlS: number;
  /** Most unused clients kept at once; default 1000. */
  maxUnusedClients: number;
}
export const DEFAULT_REGISTRATION_LIMITS: RegistrationLimits = Object.freeze({ unusedClientTtlS: 86_400, maxUnusedClients: 1000 });

const UNUSED = `NOT EXISTS (SELECT 1 FROM oauth_apps a WHERE a.client_id = oauth_clients.client_id)`;

/**
 * The registration bookkeeping over the OAuth tables (which must exist).
 * @example const reg = registrationLimits(db, { maxUnusedClients: 10 }); reg.makeRoom(Date.now());
 */
export function registrationLimits(db: Sqlite, options: Partial<RegistrationLimits> = {}) {
  const limits: RegistrationLimits = { ...DEFAULT_REGISTRATION_LIMITS, ...options };
  // Eviction picks the oldest clients and "used" is a lookup by client: both need an index.
  db.exec(`CREATE INDEX IF NOT EXISTS oauth_clients_by_created ON oauth_clients (created_ms);
           CREATE INDEX IF NOT EXISTS oauth_apps_by_client ON oauth_apps (client_id);`);
  const q = {
    expire: db.prepare(`DELETE FROM oauth_clients WHERE created_ms <= ? AND ${UNUSED}`),
    countUnused: db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM oauth_clients WHERE ${UNUSED}`),
    evictOldest: db.prepare(`DELETE FROM oauth_clients WHERE client_id IN (SELECT client_id FROM oauth_clients WHERE ${UNUSED} ORDER BY created_ms, client_id LIMIT ?)`),
    used: db.prepare<[string], { one: number }>(`SELECT 1 AS one FROM oauth_apps WHERE client_id = ? LIMIT 1`),
  };
  const ttlMs = limits.unusedClientTtlS * 1000;
  const batch = Math.max(1, Math.min(50, Math.floor(limits.maxUnusedClients / 10)));
  let sincePrune = Infinity;

  return {
    limits,
    /**
     * Before each registration (in the insert's transaction): drop expired unused clients; once per
     * `batch` registrations also the oldest unused ones down to `cap - batch`, so the next `batch`
     * registrations fit under the cap.
     */
    makeRoom(tsMs: number): { expired: number; evicted: number } {
      // Expired rows are found through the created_ms index: cheap enough for every registration.
      const expired = q.expire.run(tsMs - ttlMs).changes;
      if (++sincePrune < batch) return { expired, evicted: 0 };
      sincePrune = 0;
      const over = q.countUnused.get()!.n - (limits.maxUnusedClients - batch);
      const evicted = over > 0 ? q.evictOldest.run(over).changes : 0;
      return { expired, evicted };
    },
    /** True when a client registered at `createdMs` is past its TTL and never signed in (treat it as unknown). */
    isExpired(clientId: string, createdMs: number, tsMs: number): boolean {
      return createdMs <= tsMs - ttlMs && q.used.get(clientId) === undefined;
    },
  };
}
