/**
 * One API call with the spec's retry guidance ("Retry guidance"): retry 429, 500, 502, 503, 504
 * and network errors, never another 4xx; exponential backoff with full jitter, at least
 * `Retry-After`; on a 429 without `Retry-After`, until `X-RateLimit-Reset` plus jitter; give up
 * after `maxAttempts`. Each attempt has a timeout and the whole call a deadline; the caller's
 * signal aborts at once. With a pacer (rule 4), each attempt first waits while the rate-limit
 * headers say no request is left (pacing.ts). See docs/api.md#typed-client.
 */
import { isRetryableStatus, RETRY_DEFAULTS, retryDelayMs } from "../stream-client/backoff";
import { ApiResponseError, DeadlineExceededError, NetworkError, type OptionscopeClientError } from "./errors";
import type { RateLimitPacer } from "./pacing";
import { rateLimitOf, responseFacts, type ResponseFacts } from "./response-headers";

/** Per-call controls (each also settable as a client default). */
export interface CallOptions {
  signal?: AbortSignal;
  /** Time limit of one attempt, ms (default 30000). */
  timeoutMs?: number;
  /** Time limit of the whole call, retries and waits included, ms (default 120000). */
  deadlineMs?: number;
  /** Attempts before giving up (spec: 5). */
  maxAttempts?: number;
}

/** What the client hands `send`: its fetch, clock, randomness and backoff. */
export interface Transport {
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  nowMs: () => number;
  random: () => number;
  /** First backoff ceiling, ms (spec: 1 s). */
  baseBackoffMs: number;
  /** Largest backoff ceiling, ms (spec: 30 s). */
  capBackoffMs: number;
  defaults: Required<Omit<CallOptions, "signal">>;
  /** Holds requests while the rate-limit headers say none are left (absent: pacing off). */
  pacer?: RateLimitPacer;
}

/** A successful answer: the parsed body and the response facts. */
export interface Sent extends ResponseFacts {
  body: unknown;
  headers: Headers;
  attempts: number;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The error envelope's code and message in any module's style (lower, flow upper-case, UDF). */
function errorOf(body: unknown, status: number): { code: string; message: string } {
  const b = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const inner = b.error && typeof b.error === "object" ? (b.error as Record<string, unknown>) : null;
  const code = (inner?.code ?? b.code ?? `http_${status}`) as string;
  const message = (inner?.message ?? (typeof b.error === "string" ? b.error : undefined) ?? b.errmsg ?? `HTTP ${status}`) as string;
  return { code: String(code), message: String(message) };
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Wait before the next attempt (0-based retry number `retry`) after `error`. */
export function waitBeforeRetryMs(error: OptionscopeClientError, retry: number, t: Pick<Transport, "random" | "baseBackoffMs" | "capBackoffMs" | "nowMs">): number {
  const backoff = { baseMs: t.baseBackoffMs, capMs: t.capBackoffMs, random: t.random };
  if (error instanceof ApiResponseError && error.status === 429 && error.retryAfterS === null && error.rateLimit) {
    // Spec rule 2: no Retry-After -> until the window resets, plus jitter.
    return Math.max(0, error.rateLimit.resetS * 1000 - t.nowMs()) + t.random() * t.baseBackoffMs;
  }
  const retryAfterS = error instanceof ApiResponseError ? error.retryAfterS : null;
  return retryDelayMs(retry, retryAfterS, backoff);
}

/**
 * Waits until the pacer lets one request go (counted as sent). Throws when the wait would pass
 * `deadlineAt` (at once, without waiting) or `signal` aborts.
 */
async function paced(pacer: RateLimitPacer, t: Pick<Transport, "nowMs">, signal: AbortSignal, deadlineAt: number): Promise<void> {
  for (;;) {
    const decision = pacer.decide(t.nowMs());
    if (decision.go) return;
    const untilMs = decision.untilMs ?? deadlineAt;
    if (decision.untilMs !== null && untilMs >= deadlineAt) throw new Error("pacing wait passes the deadline");
    const sleep = new AbortController();
    await Promise.race([abortableSleep(Math.max(0, untilMs - t.nowMs()), AbortSignal.any([signal, sleep.signal])), pacer.nextSettle()]).finally(() => sleep.abort());
  }
}

function retryable(error: OptionscopeClientError): boolean {
  return error instanceof NetworkError || (error instanceof ApiResponseError && isRetryableStatus(error.status));
}

/**
 * GET `url` with retries.
 * @throws ApiResponseError (non-2xx, not retryable or out of attempts), NetworkError,
 *   DeadlineExceededError, or the caller's `signal.reason` when it aborts
 */
export async function send(t: Transport, url: string, headers: Record<string, string>, options: CallOptions = {}): Promise<Sent> {
  const timeoutMs = options.timeoutMs ?? t.defaults.timeoutMs;
  const maxAttempts = options.maxAttempts ?? t.defaults.maxAttempts ?? RETRY_DEFAULTS.maxAttempts;
  const deadlineAt = t.nowMs() + (options.deadlineMs ?? t.defaults.deadlineMs);
  const deadline = new AbortController();
  const deadlineTimer = setTimeout(() => deadline.abort(), Math.max(0, deadlineAt - t.nowMs()));
  const outer = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
  let lastError: OptionscopeClientError | null = null;
  const expired = (attempts: number) => new DeadlineExceededError(`Call deadline passed after ${attempts} attempt(s).`, attempts, lastError);
  try {
    for (let attempt = 1; ; attempt++) {
      if (t.pacer) {
        try {
          await paced(t.pacer, t, outer, deadlineAt);
        } catch {
          if (options.signal?.aborted) throw options.signal.reason;
          throw expired(attempt - 1);
        }
      }
      // The pacer counted this request as sent: it hears how it ended exactly once.
      let pacing = t.pacer !== undefined;
      const settle = (response: Response | null) => {
        if (pacing) t.pacer!.settle(response && rateLimitOf(response.headers));
        pacing = false;
      };
      const attemptTimeout = new AbortController();
      const attemptTimer = setTimeout(() => attemptTimeout.abort(), timeoutMs);
      try {
        const response = await t.fetch(url, { method: "GET", headers, signal: AbortSignal.any([outer, attemptTimeout.signal]) });
        settle(response);
        const body = await readBody(response);
        const facts = responseFacts(response, t.nowMs());
        if (response.ok) return { ...facts, body, headers: response.headers, attempts: attempt };
        const { code, message } = errorOf(body, response.status);
        lastError = new ApiResponseError(message, code, attempt, response.status, facts.requestId, facts.creditsRemaining, facts.rateLimit, facts.retryAfterS, body);
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (deadline.signal.aborted) throw expired(attempt);
        lastError = attemptTimeout.signal.aborted
          ? new DeadlineExceededError(`Attempt ${attempt} timed out after ${timeoutMs} ms.`, attempt, lastError)
          : new NetworkError(`Request failed: ${error instanceof Error ? error.message : String(error)}`, attempt, error);
      } finally {
        settle(null);
        clearTimeout(attemptTimer);
      }
      // A timed-out attempt is retried like a 504.
      const again = lastError instanceof DeadlineExceededError || retryable(lastError);
      if (!again || attempt >= maxAttempts) throw lastError;
      const waitMs = waitBeforeRetryMs(lastError, attempt - 1, t);
      if (t.nowMs() + waitMs >= deadlineAt) throw expired(attempt);
      try {
        await abortableSleep(waitMs, outer);
      } catch {
        if (options.signal?.aborted) throw options.signal.reason;
        throw expired(attempt);
      }
    }
  } finally {
    clearTimeout(deadlineTimer);
  }
}
