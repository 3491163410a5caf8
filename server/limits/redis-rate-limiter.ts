/**
 * The per-key rate limiter on Redis, for several instances: the same exact sliding log as the
 * in-process limiter (`rate-limiter.ts`: a request at `t` is admitted when fewer than `limit`
 * were admitted in `(t - 60 s, t]`), kept as one sorted set per key and updated by one Lua script,
 * so the check and the insert are atomic across instances. `rate-limiter-flexible` was not used:
 * its Redis limiters count fixed windows, which let up to 2x the limit through across a window
 * boundary (the spec's headers promise a per-minute limit that holds for every window).
 * See docs/operations.md#several-instances.
 */
import type { Redis } from "ioredis";
import type { RateDecision, RateLimiter } from "../accounts/types";
import { RATE_WINDOW_SECONDS } from "./rate-limiter";
import { sharedLimitsUnavailable } from "./redis-connection";

const WINDOW_MS = RATE_WINDOW_SECONDS * 1000;

// KEYS[1]: the key's log. ARGV: now ms, limit, window ms, member, count (1 = take, 0 = peek).
// Returns {allowed, used before this request, oldest score counted}.
// A clock that steps back (another instance's clock behind) counts from the newest instant seen,
// like the in-process limiter; a lowered limit keeps only the newest entries that still matter.
const SLIDING_LOG = `
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local win = tonumber(ARGV[3])
local newest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
local t = now
if newest[2] ~= nil and tonumber(newest[2]) > now then t = tonumber(newest[2]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', t - win)
local used = redis.call('ZCARD', KEYS[1])
if ARGV[5] == '1' and limit > 0 and used > limit then
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, used - limit - 1)
  used = limit
end
local allowed = 0
if used < limit then allowed = 1 end
if allowed == 1 and ARGV[5] == '1' then
  redis.call('ZADD', KEYS[1], t, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], win)
end
local counted = used
if counted > limit then counted = limit end
local oldest = {}
if allowed == 1 and ARGV[5] == '1' then
  oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
elseif counted > 0 then
  oldest = redis.call('ZRANGE', KEYS[1], -counted, -counted, 'WITHSCORES')
end
local o = t
if oldest[2] ~= nil then o = tonumber(oldest[2]) end
return {allowed, used, tostring(o)}
`;

type SlidingLogReply = [number, number, string];

interface RedisWithSlidingLog extends Redis {
  optionscopeSlidingLog(key: string, nowMs: number, limit: number, windowMs: number, member: string, count: "0" | "1"): Promise<SlidingLogReply>;
}

export interface RedisRateLimiterOptions {
  /** Key prefix, so several deployments can share one Redis. Default `optionscope:`. */
  prefix?: string;
  /** Key space after the prefix (another sliding log on the same script, e.g. `ip:`). Default `rate:`. */
  keyspace?: string;
  /** Window length, ms. Default 60,000 (the per-key limit). */
  windowMs?: number;
}

/** The Redis limiter always answers with a promise. */
export interface RedisRateLimiter extends RateLimiter {
  take(keyId: string, limitPerMinute: number, nowMs: number): Promise<RateDecision>;
  peek(keyId: string, limitPerMinute: number, nowMs: number): Promise<RateDecision>;
}

/** One answer of the sliding log: admitted, entries in the window before it, the oldest one counted (ms). */
export interface SlidingLogAnswer {
  allowed: boolean;
  used: number;
  oldestMs: number;
}

/** Sliding logs under one key space: `take` counts the request when admitted, `peek` only looks. */
export interface RedisSlidingLog {
  run(key: string, limit: number, nowMs: number, count: boolean): Promise<SlidingLogAnswer>;
  /** Forget a key's entries. */
  clear(key: string): Promise<void>;
}

/**
 * Sliding logs on Redis (the script above): the per-key rate limit, and the per-IP ceiling and
 * console sign-in limits on the same script. Redis unreachable: rejects with 503 `unavailable`.
 * @example await createRedisSlidingLog(redis, { keyspace: "ip:", windowMs: 300_000 }).run("203.0.113.9", 6000, Date.now(), true)
 */
export function createRedisSlidingLog(redis: Redis, options: RedisRateLimiterOptions = {}): RedisSlidingLog {
  const prefix = `${options.prefix ?? "optionscope:"}${options.keyspace ?? "rate:"}`;
  const windowMs = options.windowMs ?? WINDOW_MS;
  const client = redis as RedisWithSlidingLog;
  if (typeof client.optionscopeSlidingLog !== "function") {
    client.defineCommand("optionscopeSlidingLog", { numberOfKeys: 1, lua: SLIDING_LOG });
  }
  // Unique members: two requests in the same millisecond are two entries.
  const instance = crypto.randomUUID().slice(0, 8);
  let counter = 0;
  return {
    async run(key, limit, nowMs, count) {
      let reply: SlidingLogReply;
      try {
        reply = await client.optionscopeSlidingLog(prefix + key, Math.floor(nowMs), limit, windowMs, `${instance}:${++counter}`, count ? "1" : "0");
      } catch {
        throw sharedLimitsUnavailable();
      }
      return { allowed: reply[0] === 1, used: reply[1], oldestMs: Number(reply[2]) };
    },
    async clear(key) {
      try {
        await client.del(prefix + key);
      } catch {
        throw sharedLimitsUnavailable();
      }
    },
  };
}

/**
 * A rate limiter whose windows every instance on the same Redis shares.
 * @example const rl = createRedisRateLimiter(await openRedis("redis://127.0.0.1:6379")); await rl.take("key_1", 120, Date.now())
 */
export function createRedisRateLimiter(redis: Redis, options: RedisRateLimiterOptions = {}): RedisRateLimiter {
  const windowMs = options.windowMs ?? WINDOW_MS;
  const log = createRedisSlidingLog(redis, options);

  async function run(keyId: string, limitPerMinute: number, nowMs: number, count: boolean): Promise<RateDecision> {
    const limit = Math.max(0, Math.floor(limitPerMinute));
    const { allowed, used, oldestMs } = await log.run(keyId, limit, nowMs, count);
    const resetSec = Math.ceil((oldestMs + windowMs) / 1000);
    if (!count) return { allowed: used < limit, limit, remaining: Math.max(0, limit - Math.min(used, limit)), resetSec };
    return allowed ? { allowed: true, limit, remaining: limit - used - 1, resetSec } : { allowed: false, limit, remaining: 0, resetSec };
  }

  return {
    take: (keyId, limitPerMinute, nowMs) => run(keyId, limitPerMinute, nowMs, true),
    peek: (keyId, limitPerMinute, nowMs) => run(keyId, limitPerMinute, nowMs, false),
  };
}
