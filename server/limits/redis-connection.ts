/**
 * The Redis connection shared limits use (`--redis` / OPTIONSCOPE_REDIS). Commands fail fast
 * while Redis is unreachable (no offline queue, one attempt, short timeouts), so a request gets a
 * clear 503 instead of waiting; the client reconnects in the background.
 * See docs/operations.md#several-instances.
 */
import type { Redis } from "ioredis";
import { ApiError } from "../errors";

/** Seconds a client is told to wait when Redis cannot be reached. */
export const REDIS_RETRY_AFTER_S = 5;

export interface RedisOptions {
  /**
   * Milliseconds a command may take before it counts as a failure. Default 15,000: a closed
   * connection fails at once (no offline queue), so this only bounds a hung Redis; it must be
   * far above any event-loop stall (a cold board, a cold tape), because ioredis's timer fires
   * before the reply is read when the loop was blocked, and that would be a false 503.
   */
  commandTimeoutMs?: number;
  /**
   * Send the commands of one event-loop turn as one write (ioredis `enableAutoPipelining`). On for
   * the stream resume store, whose fan-out appends one command per stream per board (a quarter of
   * the event-loop time, bench/README.md#redis-shared-state); off for the limits, whose single
   * commands answer sooner without it.
   */
  autoPipelining?: boolean;
}

/**
 * Connect to `url` (`redis://host:port/db`) and wait until it is ready.
 * @throws when Redis cannot be reached at start (the server then refuses to start, clearly)
 */
export async function openRedis(url: string, options: RedisOptions = {}): Promise<Redis> {
  // Loaded here, only when Redis is configured: importing ioredis costs about 0.2 s of CPU, paid
  // before by every server, CLI and test process that never connects to Redis.
  const { Redis } = await import("ioredis");
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    enableAutoPipelining: options.autoPipelining ?? false,
    connectTimeout: 2_000,
    commandTimeout: options.commandTimeoutMs ?? 15_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // Errors surface on the commands; the connection's own error events only mean "reconnecting".
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new Error(`Redis at ${redactedUrl(url)} is unreachable: ${(error as Error).message}`);
  }
  return client;
}

/** The URL without its password, for messages and logs. */
function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparsable Redis URL)";
  }
}

/** 503 `unavailable` with `Retry-After`: a shared limit could not be read, so nothing was charged. */
export function sharedLimitsUnavailable(): ApiError {
  return new ApiError(503, "unavailable", "Shared limits are unreachable (Redis); nothing was charged. Retry shortly.", {
    headers: { "Retry-After": String(REDIS_RETRY_AFTER_S) },
    details: { retry_after: REDIS_RETRY_AFTER_S },
  });
}
