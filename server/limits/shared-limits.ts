/**
 * The limiters `optionscope serve` runs with: in-process ones for a single instance, or the Redis
 * ones every instance behind a load balancer shares (`--redis`). See docs/operations.md#several-instances.
 */
import type { ConcurrencyLimiter, RateLimiter } from "../accounts/types";
import { createConcurrencyLimiter } from "./concurrency-limiter";
import { createRateLimiter } from "./rate-limiter";
import { createRedisConcurrencyLimiter } from "./redis-concurrency-limiter";
import { openRedis } from "./redis-connection";
import { createRedisRateLimiter } from "./redis-rate-limiter";

export interface SharedLimits {
  rateLimiter: RateLimiter;
  concurrency: ConcurrencyLimiter;
  /** Where the limits live, for the start-up line. */
  where: "process" | "redis";
  close(): void;
}

/**
 * In-process limiters without a URL; with one, connect to Redis first (a start-up error when it is
 * unreachable: an instance that cannot share limits must not serve with private ones).
 */
export async function sharedLimits(redisUrl: string | undefined): Promise<SharedLimits> {
  if (!redisUrl) return { rateLimiter: createRateLimiter(), concurrency: createConcurrencyLimiter(), where: "process", close: () => {} };
  const redis = await openRedis(redisUrl);
  const concurrency = createRedisConcurrencyLimiter(redis);
  return {
    rateLimiter: createRedisRateLimiter(redis),
    concurrency,
    where: "redis",
    close() {
      concurrency.close();
      redis.disconnect();
    },
  };
}
