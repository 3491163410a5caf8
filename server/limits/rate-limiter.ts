/**
 * In-process per-key requests-per-minute limiter: an exact sliding log. A request at `t` is
 * admitted when fewer than `limit` requests were admitted in `(t - 60 s, t]`, so no 60-second
 * window, wherever it starts, ever holds more than `limit` admitted requests (a fixed window
 * aligned to the minute let ~2x through across a boundary; GCRA with a burst of `limit` does too).
 * `X-RateLimit-Reset` is the Unix second (rounded up) at which the oldest counted request leaves
 * the window, i.e. when one more slot frees.
 * See docs/api.md#limits (the algorithm, and how it moves to Redis for several instances).
 */
import type { RateDecision, RateLimiter } from "../accounts/types";

/** The in-process limiter answers synchronously. */
export interface InProcessRateLimiter extends RateLimiter {
  take(keyId: string, limitPerMinute: number, nowMs: number): RateDecision;
  peek(keyId: string, limitPerMinute: number, nowMs: number): RateDecision;
  /** Keys currently tracked. */
  size(): number;
}

/** Length of the sliding window, seconds. */
export const RATE_WINDOW_SECONDS = 60;
const WINDOW_MS = RATE_WINDOW_SECONDS * 1000;

/** Admission times of one key, oldest first: `times[head..]` are inside the window. */
interface Log {
  times: number[];
  head: number;
}

/** Drop the entries that left the window `(nowMs - 60 s, nowMs]`; compact now and then. */
function expire(log: Log, nowMs: number): void {
  const { times } = log;
  while (log.head < times.length && times[log.head]! <= nowMs - WINDOW_MS) log.head++;
  if (log.head > 64 && log.head * 2 > times.length) {
    times.splice(0, log.head);
    log.head = 0;
  }
}

/**
 * Create a limiter. Memory per key is at most `max(2 * limit, limit + 64)` numbers (the array is
 * compacted lazily); keys with nothing left in their window are swept once per window length.
 * @example
 * const rl = createRateLimiter();
 * rl.take("key_1", 120, Date.now()) // { allowed: true, limit: 120, remaining: 119, resetSec: now + 60 }
 */
export function createRateLimiter(): InProcessRateLimiter {
  const logs = new Map<string, Log>();
  let sweptMs = -Infinity;

  function sweep(nowMs: number): void {
    for (const [key, log] of logs) {
      const newest = log.times[log.times.length - 1];
      if (newest === undefined || newest <= nowMs - WINDOW_MS) logs.delete(key);
    }
    sweptMs = nowMs;
  }

  return {
    take(keyId, limitPerMinute, nowMs) {
      if (nowMs - sweptMs >= WINDOW_MS) sweep(nowMs);
      const limit = Math.max(0, Math.floor(limitPerMinute));
      let log = logs.get(keyId);
      if (!log) {
        log = { times: [], head: 0 };
        logs.set(keyId, log);
      }
      // A clock that steps back must not open room: count from the newest instant seen.
      const last = log.times[log.times.length - 1];
      const t = last !== undefined && last > nowMs ? last : nowMs;
      expire(log, t);
      // A lowered limit (plan change) keeps only the newest entries that still matter.
      const excess = log.times.length - log.head - limit;
      if (excess > 0 && limit > 0) log.head += excess;
      const used = log.times.length - log.head;
      if (used >= limit) {
        const oldest = log.times[log.head];
        const resetSec = Math.ceil(((oldest ?? t) + WINDOW_MS) / 1000);
        return { allowed: false, limit, remaining: 0, resetSec };
      }
      log.times.push(t);
      const resetSec = Math.ceil((log.times[log.head]! + WINDOW_MS) / 1000);
      return { allowed: true, limit, remaining: limit - used - 1, resetSec };
    },
    peek(keyId, limitPerMinute, nowMs) {
      const limit = Math.max(0, Math.floor(limitPerMinute));
      const log = logs.get(keyId);
      if (!log) return { allowed: limit > 0, limit, remaining: limit, resetSec: Math.ceil((nowMs + WINDOW_MS) / 1000) };
      const last = log.times[log.times.length - 1];
      const t = last !== undefined && last > nowMs ? last : nowMs;
      expire(log, t);
      const used = Math.min(limit, log.times.length - log.head);
      const oldest = log.times[log.times.length - used];
      return { allowed: used < limit, limit, remaining: limit - used, resetSec: Math.ceil(((oldest ?? t) + WINDOW_MS) / 1000) };
    },
    size: () => logs.size,
  };
}
