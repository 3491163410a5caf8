import { ApiError, isApiError } from "../errors";
import { applyCorsHeaders } from "./cors";

/**
 * How a module spells its errors: `lower` (positioning, volatility, account, gateway),
 * `flow` (upper-case codes except billing codes), `price` (lower-case plus UDF `s`/`errmsg`).
 */
export type ErrorStyle = "lower" | "flow" | "price";

/** Codes that stay lower-case on every module (spec, Errors, rule 3). */
export const BILLING_CODES: ReadonlySet<string> = new Set([
  "insufficient_credits",
  "account_suspended",
  "credit_check_failed",
]);

/**
 * A code as the given module renders it.
 * @example renderCode("symbol_not_found", "flow") // "SYMBOL_NOT_FOUND"
 * @example renderCode("insufficient_credits", "flow") // "insufficient_credits"
 */
export function renderCode(code: string, style: ErrorStyle): string {
  const lower = code.toLowerCase();
  if (style === "flow" && !BILLING_CODES.has(lower)) return lower.toUpperCase();
  return lower;
}

/** Gateway-level codes for statuses h3 or Node raise themselves. */
const STATUS_CODES: Record<number, [string, string]> = {
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
 * Any thrown value as an `ApiError`: an `ApiError` as is, an h3 `HTTPError` (or anything with a
 * 4xx/5xx `status`) by its status, everything else as a 500 that reveals nothing internal.
 */
export function toApiError(error: unknown): ApiError {
  if (isApiError(error)) {
    if (error.status >= 400 && error.status <= 599) return error;
    return new ApiError(500, "internal_error", "Internal server error.");
  }
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (isApiError(cause)) return toApiError(cause);
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === "number" && STATUS_CODES[status]) {
    const [code, message] = STATUS_CODES[status];
    return new ApiError(status, code, message);
  }
  return new ApiError(500, "internal_error", "Internal server error.");
}

/** The JSON body of an error in a module's style (see docs/api.md#errors). */
export function errorBody(error: ApiError, style: ErrorStyle): Record<string, unknown> {
  const inner = { code: renderCode(error.code, style), message: error.message, ...error.details };
  if (style === "price") {
    // `/v1/symbols` answers in UDF's own form `{success: false, error: <text>}` (spec, Errors rule 5).
    if (error.details.success === false) {
      return { s: "error", errmsg: error.message, success: false, error: error.message, code: inner.code };
    }
    return { s: "error", errmsg: error.message, ...error.details, error: inner };
  }
  return { error: inner };
}

/**
 * The one error renderer: envelope, status, `Cache-Control: no-store`, CORS, the error's own
 * headers (such as `Retry-After`) and whatever the pipeline collected (rate-limit, credits).
 * @example renderError(new ApiError(404, "not_found", "No such path."), { style: "lower" }).status // 404
 */
export function renderError(
  error: unknown,
  options: { style: ErrorStyle; headers?: Headers; method?: string },
): Response {
  const apiError = toApiError(error);
  const headers = new Headers(options.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  applyCorsHeaders(headers);
  for (const [name, value] of Object.entries(apiError.headers)) headers.set(name, value);
  if (apiError.status === 405 && !headers.has("Allow")) headers.set("Allow", "GET");
  const body = options.method === "HEAD" ? null : JSON.stringify(errorBody(apiError, options.style));
  return new Response(body, { status: apiError.status, headers });
}
