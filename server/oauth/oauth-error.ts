/**
 * The OAuth error of the authorization server and the tool endpoint's bearer checks: rendered as
 * `{error, error_description}` (RFC 6749 section 5.2, RFC 6750 section 3), never as the REST envelope.
 */
import { STORE_RETRY_AFTER_S } from "../errors";

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "invalid_target"
  | "invalid_client_metadata"
  | "invalid_redirect_uri"
  | "invalid_token"
  | "unauthorized"
  | "access_denied"
  | "temporarily_unavailable"
  | "server_error";

export class OAuthError extends Error {
  readonly error: OAuthErrorCode;
  readonly status: number;
  /** Extra response headers, such as `Retry-After` on a 429. */
  readonly headers: Record<string, string>;
  constructor(error: OAuthErrorCode, description: string, status = 400, headers: Record<string, string> = {}) {
    super(description);
    this.name = "OAuthError";
    this.error = error;
    this.status = status;
    this.headers = headers;
  }
}

/** True for an `OAuthError`. */
export function isOAuthError(error: unknown): error is OAuthError {
  return error instanceof OAuthError;
}

/**
 * The JSON answer for an OAuth error: no caching, CORS open (token endpoints are called from
 * browser-based clients too), the error's own headers (such as `Retry-After`) and optional extra
 * ones such as `WWW-Authenticate` (an extra header of the same name wins).
 * @example oauthErrorResponse(new OAuthError("invalid_grant", "The code has expired.")).status // 400
 */
export function oauthErrorResponse(error: OAuthError, headers: Record<string, string> = {}): Response {
  return jsonResponse({ error: error.error, error_description: error.message }, error.status, { ...error.headers, ...headers });
}

/**
 * 503 `temporarily_unavailable` with `Retry-After`: a store behind the OAuth endpoints could not
 * be used. Nothing was changed (each OAuth step is one store transaction).
 */
export function storeUnavailableOAuth(): OAuthError {
  return new OAuthError("temporarily_unavailable", `The store could not be reached; retry after ${STORE_RETRY_AFTER_S} s.`, 503, {
    "Retry-After": String(STORE_RETRY_AFTER_S),
  });
}

/** A JSON response with `Cache-Control: no-store` and open CORS (RFC 6749 section 5.1). */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  const h = new Headers({
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "no-store",
    Pragma: "no-cache",
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers":
      "WWW-Authenticate, X-Credits-Remaining, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Request-Id, Mcp-Session-Id",
  });
  for (const [k, v] of Object.entries(headers)) h.set(k, v);
  return new Response(JSON.stringify(body), { status, headers: h });
}
