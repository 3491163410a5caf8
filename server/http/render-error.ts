import { FastResponse } from "srvx";
import { toApiError, type ApiError } from "../errors";
import { applyCorsHeaders } from "./cors";
import { HeaderBag, type HeaderSink } from "./header-bag";

/**
 * How a module spells its errors: `lower` (positioning, volatility, account, gateway),
 * `flow` (upper-case codes except billing codes), `price` (lower-case plus UDF `s`/`errmsg`).
 */
export type ErrorStyle = "lower" | "flow" | "price";

/** Codes that stay lower-case on every module (spec, Errors, rule 3). */
export const BILLING_CODES: ReadonlySet<string> = new Set(["insufficient_credits", "account_suspended", "credit_check_failed"]);

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
export function renderError(error: unknown, options: { style: ErrorStyle; headers?: HeaderSink; method?: string }): Response {
  const apiError = toApiError(error);
  const headers = new HeaderBag();
  options.headers?.forEach((value, name) => {
    headers.set(name, value);
  });
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  applyCorsHeaders(headers);
  for (const [name, value] of Object.entries(apiError.headers)) headers.set(name, value);
  if (apiError.status === 405 && !headers.has("Allow")) headers.set("Allow", "GET");
  const body = options.method === "HEAD" ? null : JSON.stringify(errorBody(apiError, options.style));
  // Written to a Node socket directly, like a success (docs/architecture.md#http-responses-on-node).
  return new FastResponse(body, { status: apiError.status, headers: headers.toInit() });
}
