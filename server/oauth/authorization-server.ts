/**
 * The OAuth 2.1 authorization server of the tool host, as fetch-style handlers: authorization
 * server metadata (RFC 8414), protected-resource metadata (RFC 9728), dynamic client
 * registration (RFC 7591), the authorization code grant with PKCE S256 only (the sign-in page
 * asks for an API key of the account), rotating refresh tokens, and token revocation (RFC 7009).
 * See docs/api.md#oauth-sign-in-for-tool-clients.
 */
import { z } from "zod";
import type { AccountService, Principal } from "../accounts/types";
import { STORE_RETRY_AFTER_S, toApiError } from "../errors";
import { BODY_TOO_LARGE_HEADERS, readBodyText } from "../http/read-body";
import { createRateLimiter } from "../limits/rate-limiter";
import { isOAuthError, jsonResponse, OAuthError, oauthErrorResponse, storeUnavailableOAuth } from "./oauth-error";
import { CLIENT_AUTH_METHODS, sameResource, type OAuthStore, type RegisteredClient, type TokenSet } from "./oauth-store";
import { CODE_CHALLENGE_RE } from "./secrets";
import { errorPage, PAGE_HEADERS, signInPage } from "./sign-in-page";

/** Path of the MCP endpoint on its host; the resource identifier is `<origin>/mcp`. */
export const MCP_PATH = "/mcp";
/** Where the authorization server's endpoints live, under the MCP path so the prefix routes them. */
const OAUTH_BASE_PATH = "/mcp/oauth";
/** The scopes this server knows; `mcp` (call the tools) is granted when none is asked for. */
const SCOPES_SUPPORTED = ["mcp"] as const;
const DEFAULT_SCOPE = "mcp";

/** Largest request body the OAuth endpoints read, bytes. */
const MAX_BODY_BYTES = 16 * 1024;

/** The public URLs of one origin (the one the request came in on, or the configured public URL). */
export interface OAuthUrls {
  issuer: string;
  resource: string;
  protectedResourceMetadata: string;
  authorizationServerMetadata: string;
  authorize: string;
  token: string;
  register: string;
  revoke: string;
}

/**
 * Every URL of the sign-in flow for an origin.
 * @example oauthUrls("http://localhost:8080").resource // "http://localhost:8080/mcp"
 */
export function oauthUrls(origin: string): OAuthUrls {
  return {
    issuer: origin,
    resource: origin + MCP_PATH,
    protectedResourceMetadata: `${origin}/.well-known/oauth-protected-resource${MCP_PATH}`,
    authorizationServerMetadata: `${origin}/.well-known/oauth-authorization-server`,
    authorize: `${origin}${OAUTH_BASE_PATH}/authorize`,
    token: `${origin}${OAUTH_BASE_PATH}/token`,
    register: `${origin}${OAUTH_BASE_PATH}/register`,
    revoke: `${origin}${OAUTH_BASE_PATH}/revoke`,
  };
}

/** RFC 9728 protected-resource metadata of the tool endpoint. */
function protectedResourceMetadata(urls: OAuthUrls): Record<string, unknown> {
  return {
    resource: urls.resource,
    authorization_servers: [urls.issuer],
    bearer_methods_supported: ["header"],
    scopes_supported: [...SCOPES_SUPPORTED],
    resource_name: "optionscope tool server",
  };
}

/** RFC 8414 authorization-server metadata. */
function authorizationServerMetadata(urls: OAuthUrls): Record<string, unknown> {
  return {
    issuer: urls.issuer,
    authorization_endpoint: urls.authorize,
    token_endpoint: urls.token,
    registration_endpoint: urls.register,
    revocation_endpoint: urls.revoke,
    scopes_supported: [...SCOPES_SUPPORTED],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    authorization_response_iss_parameter_supported: true,
  };
}

export interface AuthorizationServerOptions {
  store: OAuthStore;
  accounts: AccountService;
  /** Called once per sign-in form submission; false refuses it (slows key guessing). */
  allowSignInAttempt?: (request: Request) => boolean | Promise<boolean>;
  /** Registrations per source address in any 60 s (default 20); past it, 429 with `Retry-After`. */
  registrationsPerMinute?: number;
  /** Clock of the registration rate, Unix ms (default `Date.now`). */
  now?: () => number;
}

/** Default `registrationsPerMinute`: a person connects a few apps, a flood is thousands a second. */
export const REGISTRATIONS_PER_MINUTE = 20;

/** The caller's address as srvx reports it (the same key `pipeline.clientIp` uses). */
const sourceAddress = (request: Request): string => (request as Request & { ip?: string }).ip ?? "local";

/** Read a body of at most MAX_BODY_BYTES, stopping there even when it is chunked (413 past it). */
async function readBody(request: Request): Promise<string> {
  const body = await readBodyText(request, MAX_BODY_BYTES);
  if (body.tooLarge) throw new OAuthError("invalid_request", `The request body is larger than ${MAX_BODY_BYTES} bytes.`, 413, { ...BODY_TOO_LARGE_HEADERS });
  return body.text;
}

async function readForm(request: Request): Promise<URLSearchParams> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (!type.startsWith("application/x-www-form-urlencoded")) {
    throw new OAuthError("invalid_request", "Send the parameters as application/x-www-form-urlencoded.");
  }
  const form = new URLSearchParams(await readBody(request));
  // RFC 6749 section 3.1/3.2: parameters sent without a value are treated as omitted, repeats are an error.
  for (const key of new Set(form.keys())) {
    if (form.getAll(key).length > 1) throw new OAuthError("invalid_request", `Parameter ${key} is repeated.`);
  }
  return form;
}

const param = (p: URLSearchParams, name: string): string | null => {
  const v = p.get(name);
  return v === null || v === "" ? null : v;
};

/** Client credentials from `Authorization: Basic` or the form (RFC 6749 section 2.3.1). */
function clientCredentials(request: Request, form: URLSearchParams): { clientId: string | null; secret: string | null; via: "basic" | "post" | "none" } {
  const header = request.headers.get("authorization");
  if (header && /^basic\s+/i.test(header)) {
    let decoded = "";
    try {
      decoded = Buffer.from(header.replace(/^basic\s+/i, ""), "base64").toString("utf8");
    } catch {
      throw new OAuthError("invalid_client", "Malformed Basic credentials.", 401);
    }
    const i = decoded.indexOf(":");
    if (i < 0) throw new OAuthError("invalid_client", "Malformed Basic credentials.", 401);
    const clientId = decodeURIComponent(decoded.slice(0, i).replace(/\+/g, " "));
    const secret = decodeURIComponent(decoded.slice(i + 1).replace(/\+/g, " "));
    const bodyId = param(form, "client_id");
    if (bodyId !== null && bodyId !== clientId) throw new OAuthError("invalid_client", "client_id differs from the Basic credentials.", 401);
    return { clientId, secret, via: "basic" };
  }
  const secret = param(form, "client_secret");
  return { clientId: param(form, "client_id"), secret, via: secret === null ? "none" : "post" };
}

/** Schemes a redirect URI may never use: they would run or read something in the browser. */
const FORBIDDEN_SCHEMES = new Set(["javascript:", "data:", "file:", "vbscript:", "blob:", "about:"]);
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** https anywhere, http only to loopback (RFC 8252 section 7.3), private-use schemes for native apps (7.1); never a fragment. */
function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `"${uri.slice(0, 80)}" is not an absolute URI.`;
  }
  if (url.hash !== "" || uri.includes("#")) return "A redirect URI must not contain a fragment.";
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `The ${url.protocol} scheme is not allowed.`;
  if (url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname)) return "http redirect URIs are only allowed to loopback hosts; use https.";
  return null;
}

const RegistrationSchema = z.looseObject({
  redirect_uris: z.array(z.string().min(1).max(2000)).min(1).max(10),
  client_name: z.string().max(200).optional(),
  token_endpoint_auth_method: z.enum(CLIENT_AUTH_METHODS as unknown as [string, ...string[]]).optional(),
  grant_types: z
    .array(z.enum(["authorization_code", "refresh_token"]))
    .max(2)
    .optional(),
  response_types: z.array(z.literal("code")).max(1).optional(),
  scope: z.string().max(500).optional(),
  client_uri: z.string().max(2000).optional(),
  logo_uri: z.string().max(2000).optional(),
  software_id: z.string().max(200).optional(),
  software_version: z.string().max(100).optional(),
});

/** The request to `/authorize`, validated far enough to know where errors may be sent. */
interface AuthorizeRequest {
  client: RegisteredClient;
  redirectUri: string;
  state: string | null;
  codeChallenge: string;
  scope: string;
  resource: string;
}

/** Thrown before the redirect URI is trusted: the error is shown on a page, never redirected. */
class UntrustedRedirect extends Error {}

function scopeOf(raw: string | null): string {
  if (raw === null) return DEFAULT_SCOPE;
  const asked = raw.split(" ").filter(Boolean);
  const unknown = asked.filter((s) => !(SCOPES_SUPPORTED as readonly string[]).includes(s));
  if (unknown.length > 0) throw new OAuthError("invalid_scope", `Unknown scope ${unknown[0]!.slice(0, 40)}; supported: ${SCOPES_SUPPORTED.join(" ")}.`);
  return asked.length > 0 ? [...new Set(asked)].join(" ") : DEFAULT_SCOPE;
}

async function readAuthorizeRequest(
  p: URLSearchParams,
  store: OAuthStore,
  urls: OAuthUrls,
): Promise<{ request: Partial<AuthorizeRequest> & { client: RegisteredClient; redirectUri: string; state: string | null }; error: OAuthError | null }> {
  const clientId = param(p, "client_id");
  const client = clientId ? await store.getClient(clientId) : null;
  if (!client) throw new UntrustedRedirect("Unknown client_id: the client must register first.");
  const asked = param(p, "redirect_uri");
  let redirectUri: string;
  if (asked === null) {
    if (client.redirectUris.length !== 1) throw new UntrustedRedirect("redirect_uri is required (the client registered several).");
    redirectUri = client.redirectUris[0]!;
  } else {
    if (!client.redirectUris.includes(asked)) throw new UntrustedRedirect("redirect_uri is not one the client registered.");
    redirectUri = asked;
  }
  const state = param(p, "state");
  const base = { client, redirectUri, state };
  try {
    const responseType = param(p, "response_type");
    if (responseType !== "code") throw new OAuthError("unsupported_response_type", "Only response_type=code is supported.");
    const codeChallenge = param(p, "code_challenge");
    if (codeChallenge === null) throw new OAuthError("invalid_request", "code_challenge is required (PKCE S256).");
    if (param(p, "code_challenge_method") !== "S256") throw new OAuthError("invalid_request", "code_challenge_method must be S256.");
    if (!CODE_CHALLENGE_RE.test(codeChallenge)) throw new OAuthError("invalid_request", "code_challenge is not a base64url SHA-256 digest.");
    const scope = scopeOf(param(p, "scope"));
    const resource = param(p, "resource") ?? urls.resource;
    if (p.getAll("resource").length > 1 || !sameResource(resource, urls.resource)) {
      throw new OAuthError("invalid_target", `This server issues tokens only for ${urls.resource}.`);
    }
    return { request: { ...base, codeChallenge, scope, resource: urls.resource }, error: null };
  } catch (error) {
    if (isOAuthError(error)) return { request: base, error };
    throw error;
  }
}

function redirectWith(redirectUri: string, values: Record<string, string | null>): Response {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(values)) if (v !== null) url.searchParams.set(k, v);
  return new Response(null, { status: 302, headers: { Location: url.toString(), "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
}

function htmlResponse(html: string, status: number): Response {
  return new Response(html, { status, headers: PAGE_HEADERS });
}

const AUTHORIZE_FIELDS = ["response_type", "client_id", "redirect_uri", "code_challenge", "code_challenge_method", "state", "scope", "resource"];

/**
 * The authorization server: `handle(request, urls)` answers the OAuth paths and returns null for
 * anything else (the caller routes it on).
 */
export function createAuthorizationServer(options: AuthorizationServerOptions) {
  const { store, accounts } = options;
  const registrations = createRateLimiter();
  const registrationsPerMinute = options.registrationsPerMinute ?? REGISTRATIONS_PER_MINUTE;
  const clock = options.now ?? Date.now;

  async function authorize(request: Request, urls: OAuthUrls): Promise<Response> {
    const isPost = request.method === "POST";
    let form: URLSearchParams;
    try {
      form = isPost ? await readForm(request) : new URL(request.url).searchParams;
    } catch (error) {
      if (isOAuthError(error) && error.status === 413) throw error;
      return htmlResponse(errorPage(isOAuthError(error) ? error.message : "Malformed request."), 400);
    }
    let parsed: Awaited<ReturnType<typeof readAuthorizeRequest>>;
    try {
      parsed = await readAuthorizeRequest(form, store, urls);
    } catch (error) {
      if (error instanceof UntrustedRedirect) return htmlResponse(errorPage(error.message), 400);
      throw error;
    }
    const { request: ar, error } = parsed;
    if (error) return redirectWith(ar.redirectUri, { error: error.error, error_description: error.message, state: ar.state, iss: urls.issuer });
    const hidden: Record<string, string> = {};
    for (const k of AUTHORIZE_FIELDS) {
      const v = param(form, k);
      if (v !== null) hidden[k] = v;
    }
    const pageFor = (message?: string) =>
      signInPage({
        clientName: ar.client.clientName,
        redirectHost: new URL(ar.redirectUri).host || ar.redirectUri,
        resource: urls.resource,
        action: new URL(urls.authorize).pathname,
        hidden,
        error: message,
      });
    if (!isPost) return htmlResponse(pageFor(), 200);

    if (param(form, "deny") !== null) {
      return redirectWith(ar.redirectUri, { error: "access_denied", error_description: "The user declined.", state: ar.state, iss: urls.issuer });
    }
    if (options.allowSignInAttempt && !(await options.allowSignInAttempt(request))) {
      return htmlResponse(pageFor("Too many sign-in attempts; wait a minute and try again."), 429);
    }
    const key = (param(form, "api_key") ?? "").trim();
    let principal: Principal;
    try {
      if (key === "") throw new OAuthError("access_denied", "Enter an API key of the account.");
      principal = await accounts.authenticate(`Bearer ${key}`);
    } catch (e) {
      if (key === "") return htmlResponse(pageFor("Enter an API key of the account."), 400);
      const refused = toApiError(e);
      // A store that cannot be read says nothing about the key: 503 with Retry-After, not 401.
      if (refused.status === 503) {
        const page = htmlResponse(pageFor("The account store could not be reached; try again in a moment."), 503);
        page.headers.set("Retry-After", String(STORE_RETRY_AFTER_S));
        return page;
      }
      if (refused.status === 500) throw e; // a programming error: the endpoint's 500, not "invalid key"
      const code = refused.code;
      const message =
        code === "account_suspended" || code === "account_blocked"
          ? "API access for this account is suspended or blocked."
          : "That API key is not valid (unknown, revoked or expired).";
      return htmlResponse(pageFor(message), 401);
    }
    const app = await store.connectApp({ accountId: principal.accountId, clientId: ar.client.clientId, resource: ar.resource!, scope: ar.scope! });
    const code = await store.issueCode({
      appId: app.appId,
      keyId: principal.keyId,
      clientId: ar.client.clientId,
      redirectUri: ar.redirectUri,
      codeChallenge: ar.codeChallenge!,
      resource: ar.resource!,
      scope: ar.scope!,
    });
    return redirectWith(ar.redirectUri, { code, state: ar.state, iss: urls.issuer });
  }

  async function token(request: Request): Promise<Response> {
    const form = await readForm(request);
    const creds = clientCredentials(request, form);
    const client = await store.authenticateClient(creds.clientId, creds.secret, creds.via);
    const grantType = param(form, "grant_type");
    let set: TokenSet;
    if (grantType === "authorization_code") {
      const code = param(form, "code");
      const verifier = param(form, "code_verifier");
      if (code === null) throw new OAuthError("invalid_request", "code is required.");
      if (verifier === null) throw new OAuthError("invalid_request", "code_verifier is required (PKCE).");
      set = await store.exchangeCode({
        code,
        clientId: client.clientId,
        redirectUri: param(form, "redirect_uri"),
        codeVerifier: verifier,
        resource: param(form, "resource"),
      });
    } else if (grantType === "refresh_token") {
      const refreshToken = param(form, "refresh_token");
      if (refreshToken === null) throw new OAuthError("invalid_request", "refresh_token is required.");
      const scope = param(form, "scope");
      if (scope !== null) scopeOf(scope);
      set = await store.refresh({ refreshToken, clientId: client.clientId, scope, resource: param(form, "resource") });
    } else {
      throw new OAuthError("unsupported_grant_type", "grant_type must be authorization_code or refresh_token.");
    }
    return jsonResponse({
      access_token: set.accessToken,
      token_type: "Bearer",
      expires_in: set.expiresInS,
      refresh_token: set.refreshToken,
      scope: set.scope,
    });
  }

  async function register(request: Request): Promise<Response> {
    // Counted before anything is read or stored, so a flood costs one map lookup per request.
    const nowMs = clock();
    const rate = registrations.take(`register:${sourceAddress(request)}`, registrationsPerMinute, nowMs);
    if (!rate.allowed) {
      // The oldest counted registration is under 60 s old, so a slot frees within 60 s.
      const retryAfterS = Math.min(60, Math.max(1, Math.ceil((rate.resetSec * 1000 - nowMs) / 1000)));
      throw new OAuthError("temporarily_unavailable", `Too many client registrations from this address; retry in ${retryAfterS} s.`, 429, {
        "Retry-After": String(retryAfterS),
      });
    }
    const type = (request.headers.get("content-type") ?? "").toLowerCase();
    if (!type.startsWith("application/json")) throw new OAuthError("invalid_client_metadata", "Send the client metadata as application/json.");
    let raw: unknown;
    try {
      raw = JSON.parse(await readBody(request));
    } catch (error) {
      if (isOAuthError(error)) throw error;
      throw new OAuthError("invalid_client_metadata", "The body is not JSON.");
    }
    const parsed = RegistrationSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.join(".") || "body";
      const code = field.startsWith("redirect_uris") ? "invalid_redirect_uri" : "invalid_client_metadata";
      throw new OAuthError(code, `${field}: ${issue.message}`);
    }
    const meta = parsed.data;
    for (const uri of meta.redirect_uris) {
      const problem = redirectUriProblem(uri);
      if (problem) throw new OAuthError("invalid_redirect_uri", problem);
    }
    if (meta.scope !== undefined) scopeOf(meta.scope);
    // RFC 7591 section 2: an omitted method means client_secret_basic.
    const authMethod = (meta.token_endpoint_auth_method ?? "client_secret_basic") as RegisteredClient["authMethod"];
    const grantTypes = meta.grant_types ?? ["authorization_code", "refresh_token"];
    const registered = {
      redirect_uris: meta.redirect_uris,
      token_endpoint_auth_method: authMethod,
      grant_types: grantTypes,
      response_types: ["code"],
      ...(meta.client_name !== undefined ? { client_name: meta.client_name } : {}),
      ...(meta.client_uri !== undefined ? { client_uri: meta.client_uri } : {}),
      ...(meta.logo_uri !== undefined ? { logo_uri: meta.logo_uri } : {}),
      ...(meta.software_id !== undefined ? { software_id: meta.software_id } : {}),
      ...(meta.software_version !== undefined ? { software_version: meta.software_version } : {}),
      scope: meta.scope ?? DEFAULT_SCOPE,
    };
    const client = await store.registerClient({ clientName: meta.client_name ?? null, redirectUris: meta.redirect_uris, authMethod, metadata: registered });
    return jsonResponse(
      {
        client_id: client.clientId,
        client_id_issued_at: Math.floor(client.createdMs / 1000),
        ...(client.clientSecret ? { client_secret: client.clientSecret, client_secret_expires_at: 0 } : {}),
        ...registered,
      },
      201,
    );
  }

  async function revoke(request: Request): Promise<Response> {
    const form = await readForm(request);
    const creds = clientCredentials(request, form);
    const client = await store.authenticateClient(creds.clientId, creds.secret, creds.via);
    const tokenValue = param(form, "token");
    if (tokenValue === null) throw new OAuthError("invalid_request", "token is required.");
    await store.revokeToken(tokenValue, client.clientId);
    return jsonResponse({}, 200);
  }

  const corsPreflight = () =>
    new Response(null, {
      status: 204,
      headers: {
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
        "Access-Control-Allow-Headers": "Authorization, Content-Type, Mcp-Protocol-Version",
        "Access-Control-Max-Age": "600",
      },
    });

  const methodNotAllowed = (allow: string) => jsonResponse({ error: "invalid_request", error_description: `Use ${allow}.` }, 405, { Allow: allow });

  /**
   * Answer an OAuth path, or return null when `pathname` is not one.
   * @example await as.handle(request, "/mcp/oauth/token", oauthUrls("http://localhost:8080"))
   */
  async function handle(request: Request, pathname: string, urls: OAuthUrls): Promise<Response | null> {
    const method = request.method;
    const isWellKnownPrm = pathname === "/.well-known/oauth-protected-resource" || pathname === `/.well-known/oauth-protected-resource${MCP_PATH}`;
    const isWellKnownAs =
      pathname === "/.well-known/oauth-authorization-server" ||
      pathname === `/.well-known/oauth-authorization-server${MCP_PATH}` ||
      pathname === `${MCP_PATH}/.well-known/oauth-authorization-server`;
    const endpoint = pathname.startsWith(OAUTH_BASE_PATH + "/") ? pathname.slice(OAUTH_BASE_PATH.length + 1) : null;
    if (!isWellKnownPrm && !isWellKnownAs && !(endpoint && ["authorize", "token", "register", "revoke"].includes(endpoint))) return null;
    if (method === "OPTIONS") return corsPreflight();
    try {
      if (isWellKnownPrm || isWellKnownAs) {
        if (method !== "GET" && method !== "HEAD") return methodNotAllowed("GET");
        return jsonResponse(isWellKnownPrm ? protectedResourceMetadata(urls) : authorizationServerMetadata(urls), 200, { "Cache-Control": "public, max-age=300" });
      }
      if (endpoint === "authorize") {
        if (method !== "GET" && method !== "POST") return methodNotAllowed("GET, POST");
        return await authorize(request, urls);
      }
      if (method !== "POST") return methodNotAllowed("POST");
      if (endpoint === "token") return await token(request);
      if (endpoint === "register") return await register(request);
      return await revoke(request);
    } catch (error) {
      if (isOAuthError(error)) {
        return oauthErrorResponse(error, { ...(error.status === 401 ? { "WWW-Authenticate": 'Basic realm="optionscope"' } : {}) });
      }
      // The accounts store's 503s and raw store failures alike (a SQLite OAuth store is not
      // guarded) are the OAuth store's own answer: 503 temporarily_unavailable with Retry-After.
      const apiError = toApiError(error);
      if (apiError.status === 503) return oauthErrorResponse(storeUnavailableOAuth());
      return oauthErrorResponse(new OAuthError("server_error", "Internal server error.", 500));
    }
  }

  return { handle };
}

export type AuthorizationServer = ReturnType<typeof createAuthorizationServer>;
