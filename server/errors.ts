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

  constructor(
    status: number,
    code: string,
    message: string,
    options: { headers?: Record<string, string>; details?: Record<string, unknown> } = {},
  ) {
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
