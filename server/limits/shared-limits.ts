/**
 * The limiters `optionscope serve` runs with: in-process ones for a single instance, or the Redis
 * ones every instance behind a load balancer shares (`--redis`): per-key rate limits, in-flight
 * slots, the per-IP ceiling, the console's sign-in limits and the stream resume store.
 * See docs/operations.md#several-instances.
 */
import type { ConcurrencyLimiter, RateLimiter } from "../accounts/types";
import { createRedisSignInLimiter, createSignInLimiter, type SignInLimiter } from "../console/sign-in-limiter";
import { createRedisReplayStore } from "../streams/redis-replay-store";
import { openTakeoverNotices, type TakeoverNotices } from "../streams/redis-takeover-notices";
import type { ReplayStoreFactory } from "../streams/replay-store";
import { createConcurrencyLimiter } from "./concurrency-limiter";
import { createIpCeiling, createRedisIpCeiling, type IpCeiling, type IpCeilingOptions } from "./ip-ceiling";
import { createRateLimiter } from "./rate-limiter";
import { createRedisConcurrencyLimiter } from "./redis-concurrency-limiter";
import { openRedis } from "./redis-connection";
import { createRedisRateLimiter } from "./redis-rate-limiter";

export interface SharedLimits {
  rateLimiter: RateLimiter;
  concurrency: ConcurrencyLimiter;
  /** The per-IP edge ceiling with these options. */
  ipCeiling(options: IpCeilingOptions): IpCeiling;
  signInLimiter: SignInLimiter;
  /** The stream resume store; undefined -> each hub's in-process one. */
  resumeStore: ReplayStoreFactory | undefined;
  /** Where the limits live, for the start-up line. */
  where: "process" | "redis";
  close(): void;
}

/**
 * In-process limiters without a URL; with one, connect to Redis first (a start-up error when it is
 * unreachable: an instance that cannot share limits must not serve with private ones).
 */
export async function sharedLimits(redisUrl: string | undefined): Promise<SharedLimits> {
  if (!redisUrl) {
    return {
      rateLimiter: createRateLimiter(),
      concurrency: createConcurrencyLimiter(),
      ipCeiling: createIpCeiling,
      signInLimiter: createSignInLimiter(),
      resumeStore: undefined,
      where: "process",
      close: () => {},
    };
  }
  // Not auto-pipelined: ioredis serves one auto-pipeline at a time, and one in flight when Redis
  // stops holds every later limit check until the reconnect (a hang, not the fast 503 the outage
  // test asks for). See docs/methodology.md#postgresql-group-commit-and-the-auth-cache.
  const redis = await openRedis(redisUrl);
  let streams: Awaited<ReturnType<typeof openRedis>>;
  try {
    streams = await openRedis(redisUrl, { autoPipelining: true });
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  let notices: TakeoverNotices;
  try {
    notices = await openTakeoverNotices(redisUrl);
  } catch (error) {
    redis.disconnect();
    streams.disconnect();
    throw error;
  }
  const concurrency = createRedisConcurrencyLimiter(redis);
  return {
    rateLimiter: createRedisRateLimiter(redis),
    concurrency,
    ipCeiling: (options) => createRedisIpCeiling(redis, options),
    signInLimiter: createRedisSignInLimiter(redis),
    // Its own connection: stream fan-out writes in batches without delaying the limits' commands.
    resumeStore: (options) => createRedisReplayStore(streams, { ...options, takeoverNotices: notices }),
    where: "redis",
    close() {
      concurrency.close();
      redis.disconnect();
      streams.disconnect();
      notices.close();
    },
  };
}
