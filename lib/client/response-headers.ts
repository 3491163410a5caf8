import { parseRetryAfter } from "../stream-client/backoff";

/** The spec's three rate-limit headers (sent on every response). */
export interface RateLimit {
  /** `X-RateLimit-Limit`: requests per minute. */
  limit: number;
  /** `X-RateLimit-Remaining`. */
  remaining: number;
  /** `X-RateLimit-Reset`: Unix seconds. */
  resetS: number;
}

const intHeader = (headers: Headers, name: string): number | null => {
  const v = headers.get(name);
  if (v === null || v.trim() === "") return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};

/** The rate-limit headers, or null when any of the three is missing. */
export function rateLimitOf(headers: Headers): RateLimit | null {
  const limit = intHeader(headers, "x-ratelimit-limit");
  const remaining = intHeader(headers, "x-ratelimit-remaining");
  const resetS = intHeader(headers, "x-ratelimit-reset");
  return limit === null || remaining === null || resetS === null ? null : { limit, remaining, resetS };
}

/** What every response (success or error) tells about the account and the call. */
export interface ResponseFacts {
  status: number;
  requestId: string | null;
  /** `X-Credits-Remaining`, when sent (chargeable routes). */
  creditsRemaining: number | null;
  rateLimit: RateLimit | null;
  retryAfterS: number | null;
}

export function responseFacts(response: Response, nowMs: number): ResponseFacts {
  const h = response.headers;
  return {
    status: response.status,
    requestId: h.get("x-request-id"),
    creditsRemaining: intHeader(h, "x-credits-remaining"),
    rateLimit: rateLimitOf(h),
    retryAfterS: parseRetryAfter(h.get("retry-after"), nowMs),
  };
}
