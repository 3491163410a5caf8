/**
 * Per-account concurrency slots on Redis, for several instances: one sorted set per account and
 * kind, one member per held slot (`holder|units`) scored by its lease's end. Acquire is one Lua
 * script (drop expired leases, sum the units, admit or refuse), so two instances can never both
 * take the last slot. Leases are renewed while held and end on release; a crashed instance's
 * slots free themselves when their lease runs out (`leaseMs`), so a SIGKILL never strands an
 * account's capacity. Lease times use Redis's clock (`TIME`), not the instances'.
 * See docs/operations.md#several-instances.
 */
import type { Redis } from "ioredis";
import type { ConcurrencyLimiter, SlotRelease } from "../accounts/types";
import { sharedLimitsUnavailable } from "./redis-connection";

/** How long a held slot survives without renewal (an instance that died), ms. */
const SLOT_LEASE_MS = 15_000;

const NOW_MS = `local tm = redis.call('TIME') local now = tonumber(tm[1]) * 1000 + math.floor(tonumber(tm[2]) / 1000)`;

const SUM_UNITS = `
local function held(key, now)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  local sum = 0
  for _, m in ipairs(redis.call('ZRANGE', key, 0, -1)) do
    sum = sum + tonumber(string.match(m, '|(%d+)$'))
  end
  return sum
end`;

// KEYS[1]: slots. ARGV: max, units, member, lease ms. Returns {admitted, units held after}.
const ACQUIRE = `${NOW_MS}
${SUM_UNITS}
local sum = held(KEYS[1], now)
local units = tonumber(ARGV[2])
if sum + units > tonumber(ARGV[1]) then return {0, sum} end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]) * 2)
return {1, sum + units}`;

// KEYS: slot sets; ARGV: lease ms, then one member per key. Extends leases still present.
const RENEW = `${NOW_MS}
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', now + tonumber(ARGV[1]), ARGV[i + 1])
  redis.call('PEXPIRE', key, tonumber(ARGV[1]) * 2)
end
return #KEYS`;

const IN_USE = `${NOW_MS}
${SUM_UNITS}
return held(KEYS[1], now)`;

interface RedisWithSlots extends Redis {
  optionscopeSlotAcquire(key: string, max: number, units: number, member: string, leaseMs: number): Promise<[number, number]>;
  optionscopeSlotRenew(numberOfKeys: number, ...args: (string | number)[]): Promise<number>;
  optionscopeSlotInUse(key: string): Promise<number>;
}

export interface RedisConcurrencyLimiterOptions {
  /** Key prefix, so several deployments can share one Redis. Default `optionscope:`. */
  prefix?: string;
  /** Lease length, ms (default `SLOT_LEASE_MS`); renewed every third of it while held. */
  leaseMs?: number;
}

/** A concurrency limiter shared by every instance on the same Redis; `close()` stops renewals. */
export interface RedisConcurrencyLimiter extends ConcurrencyLimiter {
  close(): void;
}

/**
 * @example const slots = createRedisConcurrencyLimiter(redis); const release = await slots.tryAcquire("acct_1", "historical", 2)
 */
export function createRedisConcurrencyLimiter(redis: Redis, options: RedisConcurrencyLimiterOptions = {}): RedisConcurrencyLimiter {
  const prefix = `${options.prefix ?? "optionscope:"}slots:`;
  const leaseMs = options.leaseMs ?? SLOT_LEASE_MS;
  // Through `unknown`: comparing ioredis's `Redis` with its extension structurally cost tsc 10 s.
  const client = redis as unknown as RedisWithSlots;
  if (typeof client.optionscopeSlotAcquire !== "function") {
    client.defineCommand("optionscopeSlotAcquire", { numberOfKeys: 1, lua: ACQUIRE });
    client.defineCommand("optionscopeSlotRenew", { lua: RENEW });
    client.defineCommand("optionscopeSlotInUse", { numberOfKeys: 1, lua: IN_USE });
  }
  const instance = crypto.randomUUID().slice(0, 8);
  let counter = 0;
  /** Slots this instance holds: member -> key. */
  const held = new Map<string, string>();
  const renewal = setInterval(
    () => {
      if (held.size === 0) return;
      const keys = [...held.values()];
      const members = [...held.keys()];
      // A failed renewal is retried on the next tick; a lease outlives two missed renewals.
      client.optionscopeSlotRenew(keys.length, ...keys, leaseMs, ...members).catch(() => {});
    },
    Math.max(50, Math.floor(leaseMs / 3)),
  );
  renewal.unref?.();

  const slotKey = (accountId: string, kind: string) => `${prefix}${kind}:${accountId}`;

  return {
    async tryAcquire(accountId, kind, max, units = 1): Promise<SlotRelease | null> {
      const key = slotKey(accountId, kind);
      const n = Math.max(1, Math.floor(units));
      const member = `${instance}:${++counter}|${n}`;
      let admitted: number;
      try {
        [admitted] = await client.optionscopeSlotAcquire(key, max, n, member, leaseMs);
      } catch {
        throw sharedLimitsUnavailable();
      }
      if (admitted !== 1) return null;
      held.set(member, key);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held.delete(member);
        // Unreachable Redis: the lease ends the slot within `leaseMs`.
        client.zrem(key, member).catch(() => {});
      };
    },
    async inUse(accountId, kind) {
      try {
        return await client.optionscopeSlotInUse(slotKey(accountId, kind));
      } catch {
        throw sharedLimitsUnavailable();
      }
    },
    close() {
      clearInterval(renewal);
    },
  };
}
