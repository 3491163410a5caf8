/**
 * The spec's retry guidance: exponential backoff with full jitter, a random wait in
 * [0, min(cap, base * 2^attempt)), at least `Retry-After` when given, give up after 5 attempts.
 * @see docs/api.md#stream-client
 */

export interface BackoffOptions {
  /** First ceiling, ms (spec: 1 s). */
  baseMs?: number;
  /** Largest ceiling, ms (spec: 30 s). */
  capMs?: number;
  /** Uniform [0, 1) source; inject for tests. */
  random?: () => number;
}

/** Defaults of the spec's retry guidance. */
export const RETRY_DEFAULTS = Object.freeze({ baseMs: 1000, capMs: 30_000, maxAttempts: 5 });

/**
 * Wait before retry number `attempt` (0 for the first retry), ms.
 * @param retryAfterS the server's `Retry-After` in seconds, when it sent one
 * @example retryDelayMs(3, 2, { random: () => 0.5 }) // max(2000, 0.5 * min(30000, 8000)) = 4000
 */
export function retryDelayMs(attempt: number, retryAfterS: number | null = null, options: BackoffOptions = {}): number {
  const base = options.baseMs ?? RETRY_DEFAULTS.baseMs;
  const cap = options.capMs ?? RETRY_DEFAULTS.capMs;
  const random = options.random ?? Math.random;
  const ceiling = Math.min(cap, base * 2 ** Math.max(0, attempt));
  const jittered = random() * ceiling;
  const floor = retryAfterS !== null && Number.isFinite(retryAfterS) && retryAfterS > 0 ? retryAfterS * 1000 : 0;
  return Math.max(floor, jittered);
}

/** Parse a `Retry-After` header (delta seconds or an HTTP date) into seconds; null when absent or bad. */
export function parseRetryAfter(value: string | null, nowMs: number = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, (at - nowMs) / 1000) : null;
}

/** Statuses worth retrying (spec: 429, 500, 502, 503, 504; network errors too). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 500 || status === 502 || status === 503 || status === 504;
}
