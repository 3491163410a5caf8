import type { H3Event } from "h3";
import type { Principal } from "../accounts/types";
import { ApiError, apiErrors } from "../errors";
import type { AnyRoute, RouteResult } from "../routes/define-route";
import { routeCost } from "../routes/define-route";
import type { AppServices } from "../services";
import { applyCorsHeaders, preflightResponse } from "./cors";
import { toJson } from "./json-body";
import { renderError, toApiError, type ErrorStyle } from "./render-error";
import { validateParams } from "./validate";

/** Default `Cache-Control` of a keyed success: private to the caller, revalidate before reuse. */
export const DEFAULT_CACHE_CONTROL = "private, no-cache";

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
export function takeRateLimit(
  services: AppServices,
  headers: Headers,
  principal: Principal | null,
  request: Request,
): void {
  const bucket = principal ? principal.keyId : `anon:${clientIp(request)}`;
  const limit = principal ? principal.limits.requestsPerMinute : services.anonymousRequestsPerMinute;
  const r = services.rateLimiter.take(bucket, limit, services.wallNowMs());
  headers.set("X-RateLimit-Limit", String(r.limit));
  headers.set("X-RateLimit-Remaining", String(r.remaining));
  headers.set("X-RateLimit-Reset", String(r.resetSec));
  if (!r.allowed) throw apiErrors.rateLimited(r.limit);
}

/**
 * Authenticate, and rate-limit whatever the outcome, so that 401/403 answers also carry the
 * rate-limit headers (counted per IP). Returns null when `optional` and no valid key was sent.
 */
export function authenticateAndLimit(
  services: AppServices,
  headers: Headers,
  request: Request,
  mode: "required" | "optional" | "none",
  authorization?: string | null,
): Principal | null {
  let principal: Principal | null = null;
  let authError: unknown = null;
  if (mode !== "none") {
    // `authorization`: credentials a route read from elsewhere (the WebSocket stream's subprotocol).
    const header = authorization !== undefined ? authorization : request.headers.get("authorization");
    if (mode === "required" || header !== null) {
      try {
        principal = services.accounts.authenticate(header);
      } catch (error) {
        authError = error;
      }
    }
  }
  takeRateLimit(services, headers, principal, request);
  if (authError && mode === "required") throw authError;
  return principal;
}

function logLine(
  services: AppServices,
  fields: Record<string, unknown>,
): void {
  try {
    services.logger({ ts: new Date(services.wallNowMs()).toISOString(), level: "info", msg: "request", ...fields });
  } catch {
    // A failing log sink must never fail a request.
  }
}

/** Races the handler against the time limit and client disconnect. */
async function runWithLimits(
  run: (signal: AbortSignal) => RouteResult | Promise<RouteResult>,
  request: Request,
  limitMs: number,
): Promise<RouteResult> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = apiErrors.gatewayTimeout(limitMs);
      controller.abort(err);
      reject(err);
    }, limitMs);
  });
  let onClientAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onClientAbort = () => {
      const err = new ApiError(499, "client_closed", "Client closed the request.");
      controller.abort(err);
      reject(err);
    };
  });
  if (request.signal?.aborted) onClientAbort();
  else request.signal?.addEventListener("abort", onClientAbort, { once: true });
  timeout.catch(() => {});
  aborted.catch(() => {});
  try {
    return await Promise.race([Promise.resolve().then(() => run(controller.signal)), timeout, aborted]);
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener("abort", onClientAbort);
  }
}

/**
 * The request pipeline of one route (docs/architecture.md "Server pipeline"): CORS -> method ->
 * auth -> rate limit -> query validation -> symbols per call -> entitlement -> concurrency slot ->
 * debit -> handler (time-limited) -> envelope; an error after the debit is refunded before the
 * one renderer writes it, so `X-Credits-Remaining` already includes the refund.
 */
export function createRouteHandler(route: AnyRoute, services: AppServices) {
  const style = routeStyle(route);
  const envelope = route.envelope !== false;
  // `preauthenticated`: the caller (the MCP tool server) already resolved the principal from its
  // own credentials (an API key or an OAuth access token); everything after auth runs unchanged.
  return async function handle(event: H3Event, preauthenticated?: Principal): Promise<Response> {
    const request = event.req;
    const startMs = services.wallNowMs();
    const requestId = newRequestId();
    const headers = new Headers({ "X-Request-Id": requestId });
    let principal: Principal | null = null;
    let charged = 0;
    let chargeable = false;
    let status = 200;
    let release: (() => void) | null = null;
    try {
      if (request.method === "OPTIONS") {
        status = 204;
        return preflightResponse();
      }
      if (request.method !== "GET") throw apiErrors.methodNotAllowed(request.method);
      if (preauthenticated) {
        principal = preauthenticated;
        takeRateLimit(services, headers, principal, request);
      } else {
        principal = authenticateAndLimit(services, headers, request, route.auth === "none" ? "none" : "required", route.credentials?.(request));
      }
      // Known before validation, so a 400 on a chargeable route also states the balance.
      chargeable = principal !== null && route.cost !== 0;
      const query = validateParams(route.query, event.url.searchParams, route.unknownQuery ?? "ignore");
      const params = route.params ? validateParams(route.params, (event.context.params ?? {}) as Record<string, string>) : {};
      const nowMs = services.clock.now();
      route.check?.(query, { nowMs });
      const cost = routeCost(route, query);
      const symbols = route.symbolsOf?.(query, params);
      if (principal) {
        if (route.symbolsLimit && symbols) {
          const max = route.symbolsLimit.max(principal);
          if (symbols.length > max) {
            throw apiErrors.invalidParameter(
              route.symbolsLimit.param,
              `at most ${max} symbols per call on this plan (got ${symbols.length}).`,
            );
          }
        }
        services.accounts.assertEntitled(principal, route.entitlement, symbols);
        if (route.concurrency) {
          const max = route.concurrency.max(principal);
          release = services.concurrency.tryAcquire(principal.accountId, route.concurrency.kind, max);
          if (!release) throw apiErrors.tooManyConcurrent(route.concurrency.kind, max, route.concurrency.retryAfterS);
          // A client that goes away frees its slot at once, even if the handler runs on.
          const r = release;
          request.signal?.addEventListener("abort", () => r(), { once: true });
        }
        if (cost > 0) {
          // Group-committed: resolves only after the commit (fsync) that holds this debit.
          const ref = { requestId, route: route.path };
          const a = services.accounts;
          const r = a.debitAsync ? await a.debitAsync(principal, cost, ref) : a.debit(principal, cost, ref);
          charged = cost;
          headers.set("X-Credits-Remaining", String(r.balance));
        }
      }
      const p = principal;
      const result = await runWithLimits(
        (signal) => route.handler({ query, params, principal: p, requestId, signal, nowMs, services, request }),
        request,
        services.requestTimeoutMs,
      );
      if (request.signal?.aborted) throw new ApiError(499, "client_closed", "Client closed the request.");
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
      const body = envelope ? { data: result.data, meta: result.meta ?? {} } : result.data;
      // toJson === JSON.stringify, reusing the text of memoized (cached) parts such as heatmap entries.
      return new Response(toJson(body), { status: 200, headers });
    } catch (error) {
      const apiError = toApiError(error);
      status = apiError.status;
      if (apiError.status === 500 && !(error instanceof ApiError)) {
        logLine(services, { level: "error", msg: "unhandled", requestId, error: String((error as Error)?.message ?? error).slice(0, 500) });
      }
      if (principal && charged > 0) {
        try {
          const ref = { requestId, route: route.path };
          const a = services.accounts;
          const r = a.refundAsync ? await a.refundAsync(principal, charged, ref) : a.refund(principal, charged, ref);
          headers.set("X-Credits-Remaining", String(r.balance));
          charged = 0;
        } catch {
          // The refund is retried by nobody: log it loudly; the ledger keeps the debit.
          logLine(services, { level: "error", msg: "refund_failed", requestId });
        }
      } else if (principal && chargeable && !headers.has("X-Credits-Remaining")) {
        try {
          headers.set("X-Credits-Remaining", String(services.accounts.balance(principal.accountId)));
        } catch {
          // The balance cannot be read (store down): the header is left out rather than guessed.
        }
      }
      return renderError(apiError, { style, headers, method: request.method });
    } finally {
      release?.();
      logLine(services, {
        requestId,
        method: request.method,
        host: route.host,
        route: route.path,
        path: event.url.pathname.slice(0, 200),
        status,
        durationMs: services.wallNowMs() - startMs,
        accountId: principal?.accountId,
        keyId: principal?.keyId,
        credits: charged,
      });
    }
  };
}

/** What `runRouteAs` returns: the REST status and body, the balance after any debit or refund. */
export interface InProcessResult {
  status: number;
  body: unknown;
  /** `X-Credits-Remaining` of the response, or null when the route did not state it (free routes). */
  creditsRemaining: number | null;
  headers: Headers;
}

/**
 * Run a route in-process for an already-authenticated principal, through exactly the REST
 * pipeline (rate limit, validation, entitlement, concurrency, debit, handler, refund on error),
 * so a tool call is validated and charged like the REST call. Used by the MCP tool server.
 * @example await runRouteAs(route, services, { principal, query: { symbols: "SPY" } })
 */
export async function runRouteAs(
  route: AnyRoute,
  services: AppServices,
  input: { principal: Principal; query: Record<string, string>; params?: Record<string, string>; signal?: AbortSignal },
): Promise<InProcessResult> {
  const params = input.params ?? {};
  const path = route.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
  const url = new URL(`http://in-process${path}`);
  for (const [k, v] of Object.entries(input.query)) url.searchParams.set(k, v);
  const request = new Request(url, { method: "GET", signal: input.signal });
  // The handler reads only `req`, `url` and `context.params` of the event.
  const event = { req: request, url, context: { params } } as unknown as H3Event;
  const response = await createRouteHandler(route, services)(event, input.principal);
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    body = text;
  }
  const credits = response.headers.get("x-credits-remaining");
  return {
    status: response.status,
    body,
    creditsRemaining: credits !== null && /^-?\d+$/.test(credits) ? Number(credits) : null,
    headers: response.headers,
  };
}
