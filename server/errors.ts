import { CodedError } from "../lib/coded-error";
import { isStoreOutage } from "./store-outage";

/**
 * The one error type of the server. Anything that should reach a client as
 * `{error: {code, message}}` is thrown as an `ApiError`; the app's `onError` renders it
 * (code case per module, headers, refunds). See docs/api.md#errors.
 */
export class ApiError extends Error {
  /** HTTP status, 4xx or 5xx. */
  readonly status: number;
  /** The spec's stable, lower-case code (the renderer upper-cases it on the flow module). */
  readonly code: string;
  /** Extra response headers, such as `Retry-After`. */
  readonly headers: Record<string, string>;
  /** Extra fields merged into the error object (for example `retry_after`, `docs_url`). */
  readonly details: Record<string, unknown>;
  /**
   * The caller's balance after any refund, set by the route executor on a chargeable route so the
   * transport can state it (`X-Credits-Remaining`, a tool result's `_meta`); null when unknown.
   */
  creditsRemaining: number | null = null;

  constructor(status: number, code: string, message: string, options: { headers?: Record<string, string>; details?: Record<string, unknown> } = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.headers = options.headers ?? {};
    this.details = options.details ?? {};
  }
}

/** True for errors that must be rendered as they are (anything else becomes a 500). */
export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Seconds a client waits after a store could not be used (docs/methodology.md#store-outage-thresholds). */
export const STORE_RETRY_AFTER_S = 1;

/** Where the flow module's in-flight cap is explained (the `docs_url` of its 429). */
const FLOW_CONCURRENCY_DOCS_URL = "/docs/api.md#flow-in-flight-cap";

/** Constructors for the codes the server raises itself, so messages read the same everywhere. */
export const apiErrors = {
  /** 400 `missing_parameter` naming the parameter. */
  missingParameter(name: string): ApiError {
    return new ApiError(400, "missing_parameter", `Missing required parameter \`${name}\`.`);
  },
  /** 400 `invalid_parameter`; `detail` says what is allowed (for enums, the allowed values). */
  invalidParameter(name: string, detail: string): ApiError {
    return new ApiError(400, "invalid_parameter", `Invalid value for \`${name}\`: ${detail}`);
  },
  /** 400 `range_too_large` (a window wider than the endpoint allows). */
  rangeTooLarge(message: string, details: Record<string, unknown> = {}): ApiError {
    return new ApiError(400, "range_too_large", message, { details });
  },
  /** 404 `not_found` for a path that does not exist. */
  notFound(): ApiError {
    return new ApiError(404, "not_found", "No such path.");
  },
  /** 405 `method_not_allowed` with `Allow: GET`. */
  methodNotAllowed(method: string): ApiError {
    return new ApiError(405, "method_not_allowed", `Method ${method} is not allowed; use GET.`, {
      headers: { Allow: "GET" },
    });
  },
  /** 404 `symbol_not_found` when none of the requested symbols is known. */
  symbolNotFound(symbols: readonly string[]): ApiError {
    const list = symbols.map((s) => `"${s}"`).join(", ");
    return new ApiError(404, "symbol_not_found", `No requested symbol is available: ${list}.`);
  },
  /** 429 `rate_limited`: no `Retry-After` (the spec's gateway form); wait for `X-RateLimit-Reset`. */
  rateLimited(limitPerMinute: number): ApiError {
    return new ApiError(429, "rate_limited", `Rate limit of ${limitPerMinute} requests per minute exceeded; retry after X-RateLimit-Reset.`);
  },
  /** 429 `too_many_concurrent_requests` with `Retry-After` (seconds). */
  tooManyConcurrent(kind: string, max: number, retryAfterS: number): ApiError {
    return new ApiError(429, "too_many_concurrent_requests", `Too many ${kind} requests in flight (at most ${max} per account).`, {
      headers: { "Retry-After": String(retryAfterS) },
      details: { retry_after: retryAfterS },
    });
  },
  /**
   * 429 `too_many_concurrent_queries`: the flow module's per-account in-flight cap, with
   * `Retry-After`, `retry_after` and `docs_url` (spec, Errors).
   */
  tooManyConcurrentQueries(max: number, retryAfterS: number): ApiError {
    return new ApiError(429, "too_many_concurrent_queries", `Too many flow queries in flight (at most ${max} per account); retry after ${retryAfterS} s.`, {
      headers: { "Retry-After": String(retryAfterS) },
      details: { retry_after: retryAfterS, docs_url: FLOW_CONCURRENCY_DOCS_URL },
    });
  },
  /**
   * 503 `store_unavailable` with `Retry-After` and `retry_after`: a backing store could not be
   * used. `message` says what is known of the outcome; the default claims nothing about it (a
   * failure met mid-way may follow changes already made).
   */
  storeUnavailable(message = `A backing store could not be reached; retry after ${STORE_RETRY_AFTER_S} s.`): ApiError {
    return new ApiError(503, "store_unavailable", message, {
      headers: { "Retry-After": String(STORE_RETRY_AFTER_S) },
      details: { retry_after: STORE_RETRY_AFTER_S },
    });
  },
  /** 503 `unavailable` with `Retry-After`: the server is stopping and abandoned the request's work. */
  shuttingDown(): ApiError {
    return new ApiError(503, "unavailable", "The server is shutting down; retry in a few seconds (another instance may answer).", {
      headers: { "Retry-After": "5" },
    });
  },
  /** 504 `gateway_timeout` after the request time limit. */
  gatewayTimeout(limitMs: number): ApiError {
    return new ApiError(504, "gateway_timeout", `The request did not finish within ${limitMs / 1000} seconds.`);
  },
};

/**
 * The error table: what each library error code is on the API. Library errors (`CodedError`) are
 * thrown with their own stable codes; this is the one place they become statuses and spec codes.
 * A code missing here is a server fault (500, nothing internal revealed).
 */
const LIBRARY_ERRORS: Readonly<Record<string, (error: CodedError) => ApiError>> = {
  // lib/positioning: the codes are the spec's already
  invalid_parameter: (e) => new ApiError(400, "invalid_parameter", e.message),
  expiration_not_found: (e) => new ApiError(404, "expiration_not_found", e.message),
  no_data: (e) => new ApiError(404, "no_data", e.message),
  // lib/price: a window wider than its tier, with the numbers a client pages by
  range_too_large: (e) => apiErrors.rangeTooLarge(e.message, { ...e.details }),
  invalid_window: () => apiErrors.invalidParameter("from", "must not be after `to` (the window is [from, to))."),
};

/** Gateway-level codes for statuses h3 or Node raise themselves. */
const STATUS_CODES: Readonly<Record<number, [string, string]>> = {
  400: ["invalid_request", "The request could not be parsed (malformed URL or percent-encoding)."],
  404: ["not_found", "No such path."],
  405: ["method_not_allowed", "Only GET is accepted."],
  408: ["request_timeout", "The request was not received in time."],
  413: ["request_too_large", "The request is too large."],
  414: ["uri_too_long", "The request URL is too long."],
  431: ["header_too_large", "The request headers are too large."],
  504: ["gateway_timeout", "The request did not finish in time."],
};

/**
 * Any thrown value as an `ApiError`: an `ApiError` as is, a library `CodedError` through the
 * error table, an h3 `HTTPError` (or anything with a known 4xx/5xx `status`) by its status, a
 * store or network client failure as 503 `store_unavailable` (server/store-outage.ts), everything
 * else (a programming error) as a 500 that reveals nothing internal.
 * @example toApiError(new PositioningError("no_data", "...")).status // 404
 */
export function toApiError(error: unknown): ApiError {
  if (isApiError(error)) {
    if (error.status >= 400 && error.status <= 599) return error;
    return new ApiError(500, "internal_error", "Internal server error.");
  }
  if (error instanceof CodedError) {
    const map = LIBRARY_ERRORS[error.code];
    return map ? map(error) : new ApiError(500, "internal_error", "Internal server error.");
  }
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (isApiError(cause) || cause instanceof CodedError) return toApiError(cause);
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === "number" && STATUS_CODES[status]) {
    const [code, message] = STATUS_CODES[status];
    return new ApiError(status, code, message);
  }
  if (isStoreOutage(error)) return apiErrors.storeUnavailable();
  return new ApiError(500, "internal_error", "Internal server error.");
}
