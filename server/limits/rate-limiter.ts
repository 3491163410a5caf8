/**
 * In-process per-key requests-per-minute limiter: a fixed window aligned to the UTC minute.
 * `X-RateLimit-Reset` is the Unix second at which the current window ends.
 * See docs/api.md#limits (why fixed, and how it moves to Redis for several instances).
 */
import type { RateLimiter } from "../accounts/types";

interface Window {
  /** Unix second at which this window started (a multiple of 60). */
  startSec: number;
  count: number;
}

/** Length of a window, seconds. */
export const RATE_WINDOW_SECONDS = 60;

/**
 * Create a limiter. Counters live in this process only; entries of finished windows are swept
 * when a new window starts, so memory is bounded by the keys active in one minute.
 * @example
 * const rl = createRateLimiter();
 * rl.take("key_1", 120, Date.now()) // { allowed: true, limit: 120, remaining: 119, resetSec: ... }
 */
export function createRateLimiter(): RateLimiter & { size(): number } {
  const windows = new Map<string, Window>();
  let sweptStartSec = 0;

  return {
    take(keyId, limitPerMinute, nowMs) {
      const startSec = Math.floor(nowMs / 1000 / RATE_WINDOW_SECONDS) * RATE_WINDOW_SECONDS;
      const resetSec = startSec + RATE_WINDOW_SECONDS;
      if (startSec > sweptStartSec) {
        for (const [k, w] of windows) if (w.startSec < startSec) windows.delete(k);
        sweptStartSec = startSec;
      }
      let w = windows.get(keyId);
      if (!w || w.startSec !== startSec) {
        w = { startSec, count: 0 };
        windows.set(keyId, w);
      }
      const limit = Math.max(0, Math.floor(limitPerMinute));
      if (w.count >= limit) return { allowed: false, limit, remaining: 0, resetSec };
      w.count += 1;
      return { allowed: true, limit, remaining: limit - w.count, resetSec };
    },
    size: () => windows.size,
  };
}
