import { ATTRIBUTION_HEADER, attributionHeaderValue } from "../attribution";
import { gzip } from "node:zlib";
import { FastResponse } from "srvx";
import { promisify } from "node:util";
import type { H3Event } from "h3";
import type { Principal } from "../accounts/types";
import { apiErrors, toApiError } from "../errors";
import { logLine } from "../log-line";
import type { AnyRoute } from "../modules/define-route";
import { executeRoute } from "../modules/execute-route";
import type { AppServices } from "../services";
import { callerSignalOf } from "./caller-signal";
import { applyCorsHeaders, preflightResponse } from "./cors";
import { HeaderBag, type HeaderSink } from "./header-bag";
import { envelopeJson, toJson } from "./json-body";
import { renderError, type ErrorStyle } from "./render-error";

const gzipAsync = promisify(gzip);

/** Default `Cache-Control` of a keyed success: private to the caller, revalidate before reuse. */
const DEFAULT_CACHE_CONTROL = "private, no-cache";

/** The error style of a route (flow module upper-cases codes; price adds UDF fields). */
export function routeStyle(route: AnyRoute): ErrorStyle {
  return route.host === "flow" ? "flow" : route.host === "atlas" ? "price" : "lower";
}

/** Client address as srvx reports it (in-process requests have none). */
export function clientIp(request: Request): string {
  return (request as Request & { ip?: string }).ip ?? "local";
}

/** A new request id (also the ledger reference of any debit). */
export function newRequestId(): string {
  return `req_${crypto.randomUUID().replace(/-/g, "")}`;
}

/**
 * Rate-limit a request and write the three headers. Keyed callers count per key at their plan's
 * rate; callers without a valid key count per IP at `anonymousRequestsPerMinute`.
 * @throws ApiError 429 `rate_limited` (no `Retry-After`, per the spec's gateway note)
 */
export async function takeRateLimit(services: AppServices, headers: HeaderSink, principal: Principal | null, request: Request | null): Promise<void> {
  const bucket = principal ? principal.keyId : `anon:${request ? clientIp(request) : "local"}`;
  const limit = principal ? principal.limits.requestsPerMinute : services.anonymousRequestsPerMinute;
  const r = await services.rateLimiter.take(bucket, limit, services.wallNowMs());
  headers.set("X-RateLimit-Limit", String(r.limit));
  headers.set("X-RateLimit-Remaining", String(r.remaining));
  headers.set("X-RateLimit-Reset", String(r.resetSec));
  if (!r.allowed) throw apiErrors.rateLimited(r.limit);
}

/**
 * Authenticate, then start the rate-limit check without waiting for it: `admitted` settles with its
 * answer (headers written, 429 as its rejection) while the call is validated and its debit queued,
 * so the check's round trip overlaps the debit's group-commit window. Nothing with an effect waits
 * on less than `admitted` (`executeRoute`). Every caller is counted: one whose required key fails
 * authentication waits for its check (per IP) so its 401/403 carries the headers (a 503, the
 * store unable to check the key, is not counted), and an
 * `optional` caller without a valid key is counted per IP as anonymous.
 * See docs/architecture.md#admission-overlap.
 */
async function authenticateAndAdmit(
  services: AppServices,
  headers: HeaderSink,
  request: Request,
  mode: "required" | "optional" | "none",
  authorization?: string | null,
): Promise<{ principal: Principal | null; admitted: Promise<void> }> {
  let principal: Principal | null = null;
  if (mode !== "none") {
    // `authorization`: credentials a route read from elsewhere (the WebSocket stream's subprotocol).
    const header = authorization !== undefined ? authorization : request.headers.get("authorization");
    if (mode === "required" || header !== null) {
      try {
        principal = await services.accounts.authenticate(header);
      } catch (error) {
        if (mode === "required") {
          // A key the store could not check (503) is no failed guess: counting it per IP would
          // turn an outage into 429s once the store fails fast (docs/operations.md#store-deadline).
          if (toApiError(error).status !== 503) await takeRateLimit(services, headers, null, request);
          throw error;
        }
      }
    }
  }
  const admitted = takeRateLimit(services, headers, principal, request);
  // Read by `executeRoute`; this keeps an early refusal from being reported as unhandled.
  admitted.catch(() => {});
  return { principal, admitted };
}

/**
 * Authenticate and rate-limit, waiting for the check (`authenticateAndAdmit`, admitted before
 * returning). Returns null when `optional` and no valid key was sent.
 */
export async function authenticateAndLimit(
  services: AppServices,
  headers: HeaderSink,
  request: Request,
  mode: "required" | "optional" | "none",
  authorization?: string | null,
): Promise<Principal | null> {
  const { principal, admitted } = await authenticateAndAdmit(services, headers, request, mode, authorization);
  await admitted;
  return principal;
}

/** Bodies at least this long are compressed when the client accepts gzip (smaller gain nothing). */
const GZIP_MIN_BYTES = 1024;

/** Whether `Accept-Encoding` admits gzip (a `q=0` refuses it). */
export function acceptsGzip(request: Request): boolean {
  const header = request.headers.get("accept-encoding");
  if (!header) return false;
  return header.split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (coding.trim() !== "gzip" && coding.trim() !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * A JSON body, gzip-compressed (off the event loop) when the client asks for it and it is large
 * enough to gain; sets `Content-Encoding` and `Vary`. Streams are never compressed.
 */
async function maybeGzip(json: string | Buffer, request: Request, headers: HeaderSink): Promise<string | Uint8Array<ArrayBuffer>> {
  headers.append("Vary", "Accept-Encoding");
  if (json.length < GZIP_MIN_BYTES || !acceptsGzip(request)) return json as string | Uint8Array<ArrayBuffer>;
  headers.set("Content-Encoding", "gzip");
  return Uint8Array.from(await gzipAsync(json));
}

/** Two event-loop turns: time for Node to process a disconnect that arrived while a handler ran. */
function settleTransportEvents(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/**
 * The HTTP adapter of one mounted route (docs/architecture.md "Server pipeline"): CORS -> method
 * -> auth -> rate limit -> `executeRoute` (validation, entitlement, slots, debit, handler, refund)
 * -> envelope, or the one renderer with the balance after any refund.
 */
export function createRouteHandler(route: AnyRoute, state: unknown, services: AppServices) {
  const style = routeStyle(route);
  const envelope = route.envelope !== false;
  return async function handle(event: H3Event): Promise<Response> {
    const request = event.req;
    const startMs = services.wallNowMs();
    const requestId = newRequestId();
    const headers = new HeaderBag({ "X-Request-Id": requestId, [ATTRIBUTION_HEADER]: attributionHeaderValue(services.market.simulated) });
    let principal: Principal | null = null;
    let credits = 0;
    let status = 200;
    try {
      if (request.method === "OPTIONS") {
        status = 204;
        return preflightResponse();
      }
      if (request.method !== "GET") {
        // Counted like any request (a valid key against the key, else the IP), so the answer
        // carries the rate-limit headers too.
        await authenticateAndLimit(services, headers, request, "optional", route.credentials?.(request));
        throw apiErrors.methodNotAllowed(request.method);
      }
      const admission = await authenticateAndAdmit(services, headers, request, route.auth === "none" ? "none" : "required", route.credentials?.(request));
      principal = admission.principal;
      const run = await executeRoute(services, {
        admitted: admission.admitted,
        route,
        state,
        principal,
        query: event.url.searchParams,
        params: (event.context.params ?? {}) as Record<string, string>,
        requestId,
        signal: callerSignalOf(request),
        request,
        settle: settleTransportEvents,
      });
      credits = run.credits;
      if (run.creditsRemaining !== null) headers.set("X-Credits-Remaining", String(run.creditsRemaining));
      const result = run.result;
      if (result.response) {
        // A raw response (event stream, WebSocket upgrade): checked and charged above, sent as is.
        for (const [k, v] of headers) result.response.headers.set(k, v);
        applyCorsHeaders(result.response.headers);
        return result.response;
      }
      headers.set("Content-Type", "application/json; charset=utf-8");
      headers.set("Cache-Control", result.cacheControl ?? route.cacheControl ?? DEFAULT_CACHE_CONTROL);
      for (const [k, v] of Object.entries(result.headers ?? {})) headers.set(k, v);
      applyCorsHeaders(headers);
      // toJson === JSON.stringify, reusing the text of memoized (cached) parts such as heatmap
      // entries; a memoized `data` keeps its encoded envelope (json-body.ts `envelopeJson`).
      const json = envelope ? envelopeJson(result.data, result.meta ?? {}) : toJson(result.data);
      // srvx's own response class: on Node its status, headers and buffered body are written to the
      // socket directly, with Content-Length (docs/architecture.md#http-responses-on-node).
      return new FastResponse(await maybeGzip(json, request, headers), { status: 200, headers: headers.toInit() });
    } catch (error) {
      const apiError = toApiError(error);
      status = apiError.status;
      if (apiError.creditsRemaining !== null) headers.set("X-Credits-Remaining", String(apiError.creditsRemaining));
      return renderError(apiError, { style, headers, method: request.method });
    } finally {
      logLine(services, {
        msg: "request",
        requestId,
        method: request.method,
        host: route.host,
        route: route.path,
        path: event.url.pathname.slice(0, 200),
        status,
        durationMs: services.wallNowMs() - startMs,
        accountId: principal?.accountId,
        keyId: principal?.keyId,
        credits,
      });
    }
  };
}
