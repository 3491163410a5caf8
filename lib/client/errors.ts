import type { RateLimit } from "./response-headers";

/** What every client error carries. `code` is the API's (`rate_limited`, `INVALID_PARAMETER`, ...) or the client's own. */
export class OptionscopeClientError extends Error {
  override name = "OptionscopeClientError";
  constructor(
    message: string,
    /** The API's error code, or `network_error` / `deadline_exceeded` from the client. */
    readonly code: string,
    /** Attempts made (1 when no retry happened). */
    readonly attempts: number,
  ) {
    super(message);
  }
}

/** The server answered with an error status: the envelope's code and message, and the response's headers. */
export class ApiResponseError extends OptionscopeClientError {
  override name = "ApiResponseError";
  constructor(
    message: string,
    code: string,
    attempts: number,
    readonly status: number,
    /** `X-Request-Id` of the (last) response. */
    readonly requestId: string | null,
    /** `X-Credits-Remaining` (already net of the refund every error gets), when sent. */
    readonly creditsRemaining: number | null,
    readonly rateLimit: RateLimit | null,
    /** `Retry-After`, seconds, when sent. */
    readonly retryAfterS: number | null,
    /** The parsed error body. */
    readonly body: unknown,
  ) {
    super(message, code, attempts);
  }
}

/** No answer: the connection failed on every attempt. */
export class NetworkError extends OptionscopeClientError {
  override name = "NetworkError";
  constructor(
    message: string,
    attempts: number,
    override readonly cause: unknown,
  ) {
    super(message, "network_error", attempts);
  }
}

/** The per-attempt timeout or the call's total deadline passed. */
export class DeadlineExceededError extends OptionscopeClientError {
  override name = "DeadlineExceededError";
  constructor(
    message: string,
    attempts: number,
    /** The last error before the deadline, when there was one. */
    readonly lastError: OptionscopeClientError | null,
  ) {
    super(message, "deadline_exceeded", attempts);
  }
}
