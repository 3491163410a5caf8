/**
 * The developer console over HTTP, at `/console` on `{base_url}`: the page, its script, and the
 * JSON management calls under `/console/api/` (not part of the read-only `/v1` API, not tools).
 * Every state change is a JSON POST that must come from the console's own origin and, once signed
 * in, carry the session's CSRF token in `X-CSRF-Token`. See docs/operations.md#developer-console.
 */
import { timingSafeEqual } from "node:crypto";
import { ApiError, toApiError } from "../errors";
import { clientAddress } from "../limits/ip-ceiling";
import { readBodyText } from "../http/read-body";
import { errorBody } from "../http/render-error";
import type { ConsoleSession } from "../accounts/console-types";
import { bundleUnavailable, servedAsset } from "../web/bundle";
import { CONSOLE_SCRIPT } from "../web/page-scripts";
import { consoleHtml } from "./console-html";
import type { ConsoleService, OpenedSession } from "./console-service";
import { sessionCookie, sessionIdFrom } from "./session-cookie";

export const CONSOLE_PREFIX = "/console";

export interface ConsoleAppOptions {
  service: ConsoleService;
  /** `Secure` cookies: true, false, or "auto" (when the request or `publicBaseUrl` is https). */
  secureCookies?: boolean | "auto";
  /** The public origin (`https://api.example.com`); state changes must come from it. Default: the request's own. */
  publicBaseUrl?: string;
  /** Proxies whose `X-Forwarded-For` is believed for the sign-in limits. */
  trustedProxies?: readonly string[];
  now?: () => number;
}

const MAX_BODY_BYTES = 8 * 1024;

const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

const COMMON_HEADERS = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
};

function json(body: unknown, status = 200, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json; charset=utf-8", ...COMMON_HEADERS, ...extra } });
}

function errorResponse(error: unknown): Response {
  const e = toApiError(error);
  return json(errorBody(e, "lower"), e.status, e.headers);
}

const notSignedIn = () => new ApiError(401, "not_signed_in", "Sign in to the console first.");
const csrfFailed = (why: string) => new ApiError(403, "csrf_failed", `Refused: ${why}`);

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A console route: method, path pattern, and whether it needs a session. */
interface ConsoleRoute {
  method: "GET" | "POST";
  pattern: RegExp;
  signedIn: boolean;
  /** Answers 201: something new exists (an account, a key). */
  creates?: true;
  run(ctx: RouteContext, match: RegExpExecArray): unknown | Promise<unknown>;
}

interface RouteContext {
  request: Request;
  url: URL;
  ip: string;
  session: ConsoleSession | null;
  sessionId: string | null;
  body: Record<string, unknown>;
  secure: boolean;
  /** Set by sign-in routes: the session to hand to the browser. */
  opened?: OpenedSession;
  /** Set by sign-out: clear the cookie. */
  signedOut?: boolean;
}

/**
 * The console as a fetch handler for paths under `/console`.
 * @example const consoleFetch = createConsoleApp({ service: createConsoleService({ accounts }) });
 */
export function createConsoleApp(options: ConsoleAppOptions): (request: Request) => Promise<Response> {
  const { service } = options;
  const now = options.now ?? Date.now;
  const trusted = new Set(options.trustedProxies ?? []);
  const publicOrigin = options.publicBaseUrl ? new URL(options.publicBaseUrl).origin : null;

  /** Served over TLS: directly, through a trusted proxy that says so, or by configuration. */
  const isSecure = (request: Request, url: URL): boolean => {
    if (options.secureCookies !== undefined && options.secureCookies !== "auto") return options.secureCookies;
    const socketIp = (request as Request & { ip?: string }).ip;
    const proxiedTls = socketIp !== undefined && trusted.has(socketIp) && request.headers.get("x-forwarded-proto")?.trim().toLowerCase() === "https";
    return url.protocol === "https:" || proxiedTls || (publicOrigin?.startsWith("https:") ?? false);
  };

  const signedInAs = (ctx: RouteContext) => ctx.session!.accountId;

  const routes: ConsoleRoute[] = [
    {
      method: "GET",
      pattern: /^\/api\/session$/,
      signedIn: true,
      run: (ctx) => ({ accountId: signedInAs(ctx), csrfToken: ctx.session!.csrfToken, expiresAt: new Date(ctx.session!.expiresMs).toISOString() }),
    },
    {
      method: "POST",
      pattern: /^\/api\/sign-in$/,
      signedIn: false,
      run: async (ctx) => {
        ctx.opened = await service.signIn(ctx.body, ctx.ip);
        return { accountId: ctx.opened.accountId, csrfToken: ctx.opened.csrfToken };
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/setup$/,
      signedIn: false,
      run: async (ctx) => {
        ctx.opened = await service.setUp(ctx.body, ctx.ip);
        return { accountId: ctx.opened.accountId, csrfToken: ctx.opened.csrfToken };
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/sign-up$/,
      signedIn: false,
      creates: true,
      run: async (ctx) => {
        const r = await service.signUp(ctx.body, ctx.ip);
        ctx.opened = r;
        return { accountId: r.accountId, csrfToken: r.csrfToken, key: r.key, keyId: r.keyId };
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/sign-out$/,
      signedIn: true,
      run: async (ctx) => {
        await service.endSession(ctx.sessionId!);
        ctx.signedOut = true;
        return { signedOut: true };
      },
    },
    { method: "GET", pattern: /^\/api\/overview$/, signedIn: true, run: (ctx) => service.overview(signedInAs(ctx)) },
    { method: "GET", pattern: /^\/api\/usage$/, signedIn: true, run: (ctx) => service.usage(signedInAs(ctx), ctx.url.searchParams.get("days") ?? undefined) },
    { method: "GET", pattern: /^\/api\/keys$/, signedIn: true, run: (ctx) => service.keys(signedInAs(ctx)) },
    { method: "POST", pattern: /^\/api\/keys$/, signedIn: true, creates: true, run: (ctx) => service.createKey(signedInAs(ctx)) },
    { method: "POST", pattern: /^\/api\/keys\/([^/]+)\/revoke$/, signedIn: true, run: (ctx, m) => service.revokeKey(signedInAs(ctx), pathId(m[1]!)) },
    { method: "GET", pattern: /^\/api\/apps$/, signedIn: true, run: async (ctx) => ({ apps: await service.apps(signedInAs(ctx)) }) },
    { method: "POST", pattern: /^\/api\/apps\/([^/]+)\/revoke$/, signedIn: true, run: (ctx, m) => service.revokeApp(signedInAs(ctx), pathId(m[1]!)) },
    { method: "POST", pattern: /^\/api\/invite$/, signedIn: true, run: (ctx) => service.redeemInvite(signedInAs(ctx), ctx.body.inviteCode, ctx.ip) },
    { method: "POST", pattern: /^\/api\/monthly-cap$/, signedIn: true, run: (ctx) => service.setMonthlyCap(signedInAs(ctx), ctx.body.monthlyCapCredits) },
  ];

  /** A state change must be JSON, sent by the console's own origin (browsers say so in Origin / Sec-Fetch-Site). */
  function checkOrigin(request: Request, url: URL, secure: boolean): void {
    const contentType = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (contentType !== "application/json") throw new ApiError(415, "unsupported_media_type", "Console calls take a JSON body (Content-Type: application/json).");
    const fetchSite = request.headers.get("sec-fetch-site");
    if (fetchSite !== null && fetchSite !== "same-origin") throw csrfFailed("the request did not come from the console's own origin.");
    const origin = request.headers.get("origin");
    const own = publicOrigin ?? `${secure ? "https:" : url.protocol}//${url.host}`;
    if (origin !== null && origin !== own) throw csrfFailed("the request did not come from the console's own origin.");
  }

  /** A percent-encoded id from the path; broken encoding (`%E2%82`) is the gateway's 400, not a fault. */
  function pathId(raw: string): string {
    try {
      return decodeURIComponent(raw);
    } catch {
      throw new ApiError(400, "invalid_request", "The path's id is not valid percent-encoding.");
    }
  }

  async function readJson(request: Request): Promise<Record<string, unknown>> {
    const body = await readBodyText(request, MAX_BODY_BYTES);
    if (body.tooLarge) throw new ApiError(413, "payload_too_large", `Console request bodies are limited to ${MAX_BODY_BYTES} bytes.`);
    if (body.text.trim() === "") return {};
    try {
      const value: unknown = JSON.parse(body.text);
      if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // fall through
    }
    throw new ApiError(400, "invalid_request", "The body must be a JSON object.");
  }

  /** The page, or its script (the bundle of app/main.ts: server/web/bundle.ts); null for any other path. */
  function page(path: string, url: URL): Response | Promise<Response> | null {
    if (path === "" || path === "/") {
      return new Response(consoleHtml({ base: url.pathname.replace(/\/$/, "") }), {
        headers: { "Content-Type": "text/html; charset=utf-8", ...COMMON_HEADERS, "Content-Security-Policy": PAGE_CSP },
      });
    }
    if (path === "/app.js") {
      return servedAsset(CONSOLE_SCRIPT).then(
        (asset) => new Response(asset.js, { headers: { "Content-Type": "text/javascript; charset=utf-8", ...COMMON_HEADERS } }),
        () => bundleUnavailable("console"),
      );
    }
    return null;
  }

  return async (request) => {
    try {
      const url = new URL(request.url);
      const path = url.pathname.slice(url.pathname.indexOf(CONSOLE_PREFIX) + CONSOLE_PREFIX.length);
      const method = request.method === "HEAD" ? "GET" : request.method;
      if (method === "GET") {
        const p = page(path, url);
        if (p) return p;
      }
      const candidates = routes.filter((r) => r.pattern.test(path));
      const route = candidates.find((r) => r.method === method);
      if (!route) {
        if (candidates.length > 0) {
          throw new ApiError(405, "method_not_allowed", `${path} takes ${candidates.map((r) => r.method).join(", ")}.`, {
            headers: { Allow: candidates.map((r) => r.method).join(", ") },
          });
        }
        throw new ApiError(404, "not_found", "No such console page or call.");
      }
      const match = route.pattern.exec(path)!;
      const secure = isSecure(request, url);
      const sessionId = sessionIdFrom(request.headers.get("cookie"), secure);
      const ctx: RouteContext = {
        request,
        url,
        ip: clientAddress((request as Request & { ip?: string }).ip ?? "local", request.headers.get("x-forwarded-for"), trusted),
        session: null,
        sessionId: null,
        body: {},
        secure,
      };
      if (route.method === "POST") {
        checkOrigin(request, url, secure);
        ctx.body = await readJson(request);
      }
      if (route.signedIn) {
        ctx.session = await service.session(sessionId);
        if (!ctx.session) throw notSignedIn();
        ctx.sessionId = sessionId;
        if (route.method === "POST") {
          const token = request.headers.get("x-csrf-token") ?? "";
          if (!sameSecret(token, ctx.session.csrfToken)) throw csrfFailed("missing or wrong X-CSRF-Token.");
        }
      }
      const result = await route.run(ctx, match);
      // Signing in again replaces any session the browser holds: ids are never reused (no
      // fixation). Only once the new one is open: a mistyped password keeps the session it had.
      if (ctx.opened && sessionId && !route.signedIn) await service.endSession(sessionId);
      const headers: Record<string, string> = {};
      if (ctx.opened) headers["Set-Cookie"] = sessionCookie(ctx.opened.sessionId, (ctx.opened.expiresMs - now()) / 1000, secure);
      if (ctx.signedOut) headers["Set-Cookie"] = sessionCookie("", 0, secure);
      return json(result, route.creates ? 201 : 200, headers);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
