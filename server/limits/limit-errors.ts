/**
 * The limit headers and 429 errors, built in one place so every host renders them alike.
 * See docs/api.md#limits.
 */
import { ApiError } from "../errors";
import type { RateDecision } from "../accounts/types";

export type { RateDecision };

/**
 * `X-RateLimit-*` headers for a decision (sent on every response, errors included).
 * @example rateLimitHeaders({ allowed: true, limit: 120, remaining: 119, resetSec: 1700000040 })
 */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(d.limit),
    "X-RateLimit-Remaining": String(d.remaining),
    "X-RateLimit-Reset": String(d.resetSec),
  };
}

/** 429 `rate_limited`: rate-limit headers, no `Retry-After` (the spec's gateway form). */
export function rateLimitedError(d: RateDecision): ApiError {
  return new ApiError(429, "rate_limited", `Rate limit of ${d.limit} requests per minute for this key exceeded; retry after X-RateLimit-Reset.`, {
    headers: rateLimitHeaders({ ...d, remaining: 0 }),
  });
}

/** 429 `too_many_concurrent_requests` for a full slot kind, with `Retry-After`. */
export function tooManyConcurrentError(what: string, max: number, retryAfterSec = 1): ApiError {
  return new ApiError(429, "too_many_concurrent_requests", `At most ${max} ${what} may be in flight at once for this account.`, {
    headers: { "Retry-After": String(retryAfterSec) },
    details: { retry_after: retryAfterSec },
  });
}
