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

// One sliding log per KEYS[k]; ARGV holds 5 values per key: now ms, limit, window ms, member,
// count (1 = take, 0 = peek). Returns 3 values per key, in order: allowed, used before this
// request, oldest score counted. Several checks (one event-loop turn's, on any keys) run in one
// call, in order, atomically: each as if it were alone.
// A clock that steps back (another instance's clock behind) counts from the newest instant seen,
// like the in-process limiter; a lowered limit keeps only the newest entries that still matter.
const SLIDING_LOG = `
local out = {}
for k = 1, #KEYS do
  local key = KEYS[k]
  local a = (k - 1) * 5
  local now = tonumber(ARGV[a + 1])
  local limit = tonumber(ARGV[a + 2])
  local win = tonumber(ARGV[a + 3])
  local take = ARGV[a + 5] == '1'
  local newest = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  local t = now
  if newest[2] ~= nil and tonumber(newest[2]) > now then t = tonumber(newest[2]) end
  redis.call('ZREMRANGEBYSCORE', key, '-inf', t - win)
  local used = redis.call('ZCARD', key)
  if take and limit > 0 and used > limit then
    redis.call('ZREMRANGEBYRANK', key, 0, used - limit - 1)
    used = limit
  end
  local allowed = 0
  if used < limit then allowed = 1 end
  if allowed == 1 and take then
    redis.call('ZADD', key, t, ARGV[a + 4])
    redis.call('PEXPIRE', key, win)
  end
  local counted = used
  if counted > limit then counted = limit end
  local oldest = {}
  if allowed == 1 and take then
    oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  elseif counted > 0 then
    oldest = redis.call('ZRANGE', key, -counted, -counted, 'WITHSCORES')
  end
  local o = t
  if oldest[2] ~= nil then o = tonumber(oldest[2]) end
  out[#out + 1] = allowed
  out[#out + 1] = used
  out[#out + 1] = tostring(o)
end
return out
`;

/** `allowed, used, oldest` for each key of the call, flat. */
type SlidingLogReply = (number | string)[];

interface RedisWithSlidingLog extends Redis {
  optionscopeSlidingLogs(numKeys: number, ...keysThenArgs: (string | number)[]): Promise<SlidingLogReply>;
}

/** Most checks in one script call. */
const MAX_CHECKS_PER_CALL = 256;

/** A check waiting for its turn's call. */
interface PendingCheck {
  key: string;
  args: [number, number, number, string, "0" | "1"];
  resolve: (a: SlidingLogAnswer) => void;
  reject: (e: unknown) => void;
}

/**
 * The checks of one event-loop turn on `redis`, sent as one script call in the check phase: one
 * round trip and one write for all of them (docs/methodology.md#redis-limit-batches). Each call
 * stands alone: several may be in flight, and one that fails (Redis gone) rejects only its own
 * checks, at once; ioredis's auto-pipelining, by contrast, held every later command behind one
 * in-flight pipeline during an outage.
 */
function checkBatcher(client: RedisWithSlidingLog): (check: Omit<PendingCheck, "resolve" | "reject">) => Promise<SlidingLogAnswer> {
  let queue: PendingCheck[] = [];
  const send = (batch: PendingCheck[]) => {
    const fail = () => {
      for (const c of batch) c.reject(sharedLimitsUnavailable());
    };
    const keys = batch.map((c) => c.key);
    const args = batch.flatMap((c) => c.args);
    let reply: Promise<SlidingLogReply>;
    try {
      reply = client.optionscopeSlidingLogs(batch.length, ...keys, ...args);
    } catch {
      return fail();
    }
    reply.then((r) => {
      batch.forEach((c, k) => {
        c.resolve({ allowed: r[3 * k] === 1, used: Number(r[3 * k + 1]), oldestMs: Number(r[3 * k + 2]) });
      });
    }, fail);
  };
  const flush = () => {
    const all = queue;
    queue = [];
    // Bounded calls: a script runs alone on Redis, so a huge one would delay everyone else's.
    for (let k = 0; k < all.length; k += MAX_CHECKS_PER_CALL) send(all.slice(k, k + MAX_CHECKS_PER_CALL));
  };
  return (check) =>
    new Promise<SlidingLogAnswer>((resolve, reject) => {
      if (queue.length === 0) setImmediate(flush);
      queue.push({ ...check, resolve, reject });
    });
}

/** One batcher per connection, so every sliding log on it (rate, IP, sign-in) shares the turn's call. */
const batchers = new WeakMap<Redis, ReturnType<typeof checkBatcher>>();

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
interface SlidingLogAnswer {
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
  // Through `unknown`: comparing ioredis's `Redis` with its extension structurally cost tsc 10 s.
  const client = redis as unknown as RedisWithSlidingLog;
  if (typeof client.optionscopeSlidingLogs !== "function") {
    client.defineCommand("optionscopeSlidingLogs", { lua: SLIDING_LOG });
  }
  let check = batchers.get(redis);
  if (!check) {
    check = checkBatcher(client);
    batchers.set(redis, check);
  }
  // Unique members: two requests in the same millisecond are two entries.
  const instance = crypto.randomUUID().slice(0, 8);
  let counter = 0;
  return {
    run(key, limit, nowMs, count) {
      return check({ key: prefix + key, args: [Math.floor(nowMs), limit, windowMs, `${instance}:${++counter}`, count ? "1" : "0"] });
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
