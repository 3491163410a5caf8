/**
 * CORS for browsers: any origin, no credentials, `Authorization` allowed by name (a wildcard in
 * `Access-Control-Allow-Headers` does not cover it), and the billing and rate-limit headers
 * exposed so a page can read them. See docs/api.md#cors.
 */

import type { HeaderSink } from "./header-bag";

/** Response headers a browser script may read. */
export const EXPOSED_HEADERS = [
  "X-Credits-Remaining",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "Retry-After",
  "X-Request-Id",
  "X-Skylit-Hint",
  "X-Skylit-Attribution",
] as const;

/** Request headers a browser may send cross-origin. */
const ALLOWED_HEADERS = ["Authorization", "Content-Type", "Last-Event-ID", "Accept"] as const;

/** Seconds a browser may cache a preflight answer. */
const PREFLIGHT_MAX_AGE_S = 600;

/** Sets the headers every response carries (simple and actual requests). */
export function applyCorsHeaders(headers: HeaderSink): void {
  headers.set("Access-Control-Allow-Origin", "*");
  headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS.join(", "));
  headers.append("Vary", "Origin");
}

/**
 * The answer to any OPTIONS request: 204, never authenticated, never charged, never rate-limited.
 * @example preflightResponse() // 204 with Access-Control-Allow-Methods: GET, OPTIONS
 */
export function preflightResponse(allowMethods = "GET, OPTIONS"): Response {
  const headers = new Headers();
  applyCorsHeaders(headers);
  headers.set("Access-Control-Allow-Methods", allowMethods);
  headers.set("Access-Control-Allow-Headers", ALLOWED_HEADERS.join(", "));
  headers.set("Access-Control-Max-Age", String(PREFLIGHT_MAX_AGE_S));
  headers.set("Allow", allowMethods);
  headers.set("Content-Length", "0");
  return new Response(null, { status: 204, headers });
}
