/**
 * The tool server at {mcp_url}: Streamable HTTP MCP (the official SDK's `createMcpHandler`), one
 * tool per keyed endpoint of the route table, each call run through the REST pipeline for the
 * caller, so it is validated and charged exactly like the REST call; plus the OAuth 2.1 sign-in
 * that lets a tool client connect with only the URL. See docs/api.md#mcp-tool-server.
 */
import { createMcpHandler, ProtocolError, ProtocolErrorCode, Server, type CallToolResult } from "@modelcontextprotocol/server";
import type { Principal } from "../accounts/types";
import { ApiError, apiErrors, toApiError } from "../errors";
import { BODY_TOO_LARGE_HEADERS, readBodyText } from "../http/read-body";
import { clientIp, newRequestId, routeStyle, takeRateLimit } from "../http/route-handler";
import { renderError } from "../http/render-error";
import { logLine } from "../log-line";
import { packageVersion } from "../version";
import { mountedRoutes } from "../modules/define-module";
import { executeRoute } from "../modules/execute-route";
import { createAuthorizationServer, MCP_PATH, oauthUrls, type AuthorizationServer } from "../oauth/authorization-server";
import type { OAuthStore, OAuthTtls } from "../oauth/oauth-store";
import type { AppServices, FetchLike } from "../services";
import { routeTools, type RouteTool } from "./route-tools";
import { toRouteInput } from "./tool-args";
import { refusalResponse, resolveToolCaller } from "./tool-auth";
import { toToolResult, type ToolOutcome } from "./tool-result";
import { callIntelligenceTool, INTELLIGENCE_TOOLS, listedIntelligenceTool, type BriefOutcome } from "./intelligence-tools";
import { shapeForAgent } from "./agent-result";
import { AGENT_TOOLS, agentShapeOf, listedAgentTool } from "./agent-tools";

/** Largest JSON-RPC body read, bytes (the SDK's own limit). */
const MCP_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The `method` of a JSON-RPC message (and the tool a `tools/call` names), or null when the text is not one. */
function jsonRpcMethod(text: string): { method: string; tool?: string } | null {
  try {
    const message = JSON.parse(text) as { method?: unknown; params?: { name?: unknown } } | null;
    if (!message || typeof message.method !== "string") return null;
    const tool = message.method === "tools/call" && typeof message.params?.name === "string" ? message.params.name.slice(0, 80) : undefined;
    return { method: message.method, ...(tool ? { tool } : {}) };
  } catch {
    return null;
  }
}

/** What the access line of a tool-server request says beyond the HTTP figures (docs/api.md#agent-toolset). */
interface McpLogNote {
  rpc?: string;
  tool?: string;
  toolset?: string;
  accountId?: string;
  keyId?: string;
}

/** Tool lists: `default` (one tool per REST endpoint), `intelligence` (one-call answers), `agent` (the compact set, docs/api.md#agent-toolset). */
const TOOLSETS = ["default", "intelligence", "agent"] as const;
type Toolset = (typeof TOOLSETS)[number];

/** The toolset a request asks for (`?toolset=`); null when it names none of them. */
function toolsetOf(url: URL): Toolset | null {
  const asked = url.searchParams.get("toolset");
  if (asked === null || asked === "") return "default";
  return (TOOLSETS as readonly string[]).includes(asked) ? (asked as Toolset) : null;
}

const INTELLIGENCE_LISTED = INTELLIGENCE_TOOLS.map(listedIntelligenceTool);
const AGENT_LISTED = AGENT_TOOLS.map(listedAgentTool);

/** Name and version the server reports in `initialize`. */
const TOOL_SERVER_INFO = { name: "optionscope", title: "optionscope options analytics", version: packageVersion() } as const;

/** What a client of the agent toolset is told once, at initialize. */
const AGENT_INSTRUCTIONS =
  "Read-only options analytics for agents. Start with market_brief, explain_levels or flow_context; the get_ tools return " +
  "data. Answers stay under 8 KB: lists are cut (meta.truncated says where) and numbers rounded; pass limit or fields for " +
  "more. Each call is charged its credits (meta.cost); failed calls are free. For the S&P 500 use SPXW.";

/** What a client is told once, at initialize. */
const TOOL_SERVER_INSTRUCTIONS =
  "Read-only options analytics. Every tool wraps one REST endpoint 1:1 and costs the same credits, charged to the " +
  "account of the API key or OAuth sign-in; failed calls are free and say the API error code. Each result's _meta " +
  'carries creditsRemaining. Several symbols go in one comma-separated string ("SPXW,SPY,QQQ"), never a list. ' +
  "For the S&P 500 use SPXW (SPX holds only the AM-settled monthlies); likewise NDXP/NDX and RUTW/RUT. " +
  "account_usage (free) shows the balance and limits. meta.simulated says whether the market data is simulated.";

export interface ToolServerOptions {
  /** The OAuth store; default: the one the accounts keep (`accounts.openOAuthStore`) when they keep one. `false`: API keys only. */
  oauth?: OAuthStore | false;
  /** Token lifetimes, seconds, when the store is opened here (access 3600, refresh 30 days, code 300). */
  oauthTtls?: Partial<OAuthTtls>;
  /** Public origin of the tool host, e.g. `https://mcp.example.com` (behind a proxy); default: the request's origin. */
  publicOrigin?: string;
  /** Sign-in form submissions per client IP per minute (default 10). */
  signInAttemptsPerMinute?: number;
}

/** What `createToolServer` returns: the fetch handler plus what tests and the CLI want to see. */
export interface ToolServer {
  fetch: FetchLike;
  tools: readonly RouteTool[];
  oauth: OAuthStore | null;
  close(): Promise<void>;
}

const MCP_ALLOWED_HEADERS = "Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID";
const MCP_EXPOSED_HEADERS =
  "WWW-Authenticate, Mcp-Session-Id, X-Credits-Remaining, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Request-Id";

function withCors(response: Response, extra?: Headers): Response {
  const headers = new Headers(response.headers);
  extra?.forEach((v, k) => {
    headers.set(k, v);
  });
  headers.set("Access-Control-Allow-Origin", "*");
  headers.set("Access-Control-Expose-Headers", MCP_EXPOSED_HEADERS);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The OAuth store the accounts keep beside them (same database), or null when they keep none. */
function openDefaultStore(services: AppServices, ttls: Partial<OAuthTtls> | undefined): OAuthStore | null {
  return services.accounts.openOAuthStore?.({ now: services.wallNowMs, ...ttls }) ?? null;
}

/**
 * Build the tool server for an app's services (its route table, accounts, limiters, clock).
 * @example
 * const tools = createToolServer(services);
 * const res = await tools.fetch(new Request("http://localhost:8080/mcp", { method: "POST", ... }));
 */
export function createToolServer(services: AppServices, options: ToolServerOptions = {}): ToolServer {
  // Built on first use: an app that never serves a tool call pays nothing (no schemas, no tables).
  let built: { tools: RouteTool[]; byName: Map<string, RouteTool>; stateOf: Map<RouteTool["route"], unknown>; listed: Record<string, unknown>[] } | null = null;
  const toolList = () => {
    if (!built) {
      const mounted = mountedRoutes(services.modules);
      const tools = routeTools(mounted.map((m) => m.route));
      built = {
        tools,
        stateOf: new Map(mounted.map((m) => [m.route, m.state])),
        byName: new Map(tools.map((t) => [t.name, t])),
        listed: tools.map((t) => ({
          name: t.name,
          title: t.title,
          description: t.description,
          inputSchema: t.inputSchema,
          ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
          annotations: t.annotations,
        })),
      };
    }
    return built;
  };

  let oauthState: { store: OAuthStore | null; as: AuthorizationServer | null } | null = null;
  const signInLimit = options.signInAttemptsPerMinute ?? 10;
  const oauthOf = () => {
    if (!oauthState) {
      const store = options.oauth === false ? null : (options.oauth ?? openDefaultStore(services, options.oauthTtls));
      const as = store
        ? createAuthorizationServer({
            store,
            accounts: services.accounts,
            allowSignInAttempt: async (request) => (await services.rateLimiter.take(`signin:${clientIp(request)}`, signInLimit, services.wallNowMs())).allowed,
          })
        : null;
      oauthState = { store, as };
    }
    return oauthState;
  };

  /**
   * One tool call through the route executor, exactly as the REST call: rate-limited on the
   * caller's key, validated, entitled, charged, refunded on failure. The rate-limit headers and
   * the balance go on the HTTP response that carries the result.
   */
  async function callTool(
    tool: RouteTool,
    args: unknown,
    principal: Principal,
    signal: AbortSignal | undefined,
    responseHeaders: Headers | undefined,
  ): Promise<CallToolResult> {
    const input = toRouteInput(tool, args);
    const requestId = newRequestId();
    const { route } = tool;
    let outcome: ToolOutcome;
    let credits: number | null;
    try {
      await takeRateLimit(services, responseHeaders ?? new Headers(), principal, null);
      const run = await executeRoute(services, {
        route,
        state: toolList().stateOf.get(route),
        principal,
        query: input.query,
        params: input.params,
        requestId,
        signal,
      });
      const r = run.result;
      outcome = { ok: true, body: route.envelope === false ? r.data : { data: r.data, meta: r.meta ?? {} }, requestId };
      credits = run.creditsRemaining;
    } catch (error) {
      const apiError = toApiError(error);
      outcome = { ok: false, error: apiError, style: routeStyle(route), requestId };
      credits = apiError.creditsRemaining;
    }
    if (credits === null) {
      try {
        credits = await services.accounts.balance(principal.accountId);
      } catch {
        credits = null; // The store is unreadable: leave the figure out rather than guess it.
      }
    }
    if (credits !== null) responseHeaders?.set("X-Credits-Remaining", String(credits));
    return toToolResult(outcome, credits, tool.outputSchema !== undefined);
  }

  const handler = createMcpHandler(
    (ctx) => {
      type Extra = { principal?: Principal; responseHeaders?: Headers; toolset?: Toolset };
      const agent = (ctx.authInfo?.extra as Extra | undefined)?.toolset === "agent";
      const server = new Server(TOOL_SERVER_INFO, { capabilities: { tools: {} }, instructions: agent ? AGENT_INSTRUCTIONS : TOOL_SERVER_INSTRUCTIONS });
      server.setRequestHandler("tools/list", async (_request, c) => {
        const extra = (c.http?.authInfo?.extra ?? ctx.authInfo?.extra) as Extra | undefined;
        const listed = extra?.toolset === "intelligence" ? INTELLIGENCE_LISTED : extra?.toolset === "agent" ? AGENT_LISTED : toolList().listed;
        return { tools: listed as never };
      });
      server.setRequestHandler("tools/call", async (request, c) => {
        const extra = (c.http?.authInfo?.extra ?? ctx.authInfo?.extra) as Extra | undefined;
        const principal = extra?.principal;
        const name = String(request.params.name);
        const unknown = () => new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 80)}`);
        // The endpoint refuses unauthenticated requests before they reach here; this is a guard only.
        if (extra?.toolset === "agent") {
          const tool = AGENT_TOOLS.find((t) => t.name === name);
          if (!tool) throw unknown();
          if (!principal) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, "Not authenticated.");
          const shape = (out: BriefOutcome, args: Record<string, string>) => shapeForAgent(out, agentShapeOf(tool, args));
          const run = await callIntelligenceTool(services, tool, request.params.arguments, principal, c.mcpReq.signal, extra.responseHeaders, shape);
          if (run.creditsRemaining !== null) extra.responseHeaders?.set("X-Credits-Remaining", String(run.creditsRemaining));
          return run.result;
        }
        if (extra?.toolset === "intelligence") {
          const brief = INTELLIGENCE_TOOLS.find((t) => t.name === name);
          if (!brief) throw unknown();
          if (!principal) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, "Not authenticated.");
          const { result, creditsRemaining } = await callIntelligenceTool(services, brief, request.params.arguments, principal, c.mcpReq.signal, extra.responseHeaders);
          if (creditsRemaining !== null) extra.responseHeaders?.set("X-Credits-Remaining", String(creditsRemaining));
          return result;
        }
        const tool = toolList().byName.get(name);
        if (!tool) throw unknown();
        if (!principal) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, "Not authenticated.");
        const result = await callTool(tool, request.params.arguments, principal, c.mcpReq.signal, extra?.responseHeaders);
        return server.projectCallToolResult(result, tool.outputSchema);
      });
      return server;
    },
    { onerror: () => {} },
  );

  /** One tool-server request, with its access line (`msg: "request"`, `host: "mcp"`) as the REST hosts write theirs. */
  async function serveMcp(request: Request, origin: string): Promise<Response> {
    const startMs = services.wallNowMs();
    const note: McpLogNote = {};
    let status = 500;
    let requestId: string | undefined;
    try {
      const response = await serveMcpRequest(request, origin, note);
      status = response.status;
      requestId = response.headers.get("X-Request-Id") ?? undefined;
      return response;
    } finally {
      if (request.method !== "OPTIONS") {
        logLine(services, {
          msg: "request",
          requestId,
          method: request.method,
          host: "mcp",
          route: MCP_PATH,
          path: new URL(request.url).pathname.slice(0, 200),
          status,
          durationMs: services.wallNowMs() - startMs,
          ...note,
        });
      }
    }
  }

  async function serveMcpRequest(request: Request, origin: string, note: McpLogNote): Promise<Response> {
    if (request.method === "OPTIONS") {
      return new Response(null, {
        status: 204,
        headers: {
          "Access-Control-Allow-Origin": "*",
          "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
          "Access-Control-Allow-Headers": MCP_ALLOWED_HEADERS,
          "Access-Control-Expose-Headers": MCP_EXPOSED_HEADERS,
          "Access-Control-Max-Age": "600",
        },
      });
    }
    const urls = oauthUrls(origin);
    const headers = new Headers({ "X-Request-Id": newRequestId() });
    const toolset = toolsetOf(new URL(request.url));
    if (toolset) note.toolset = toolset;
    if (toolset === null) {
      const error = apiErrors.invalidParameter("toolset", `one of ${TOOLSETS.join(", ")} (or absent for the REST tools).`);
      return withCors(renderError(error, { style: "lower", headers, method: request.method }));
    }
    const caller = await resolveToolCaller(request, {
      accounts: services.accounts,
      oauth: oauthOf().store,
      resource: urls.resource,
      resourceMetadataUrl: urls.protectedResourceMetadata,
    });
    if (!caller.ok) {
      if (!oauthOf().store && caller.status === 401) caller.headers["WWW-Authenticate"] = 'Bearer realm="optionscope"';
      try {
        // Refused requests count against the caller's IP, as on the REST hosts.
        await takeRateLimit(services, headers, null, request);
      } catch (error) {
        return renderError(error, { style: "lower", headers, method: request.method });
      }
      return refusalResponse(caller, headers);
    }
    const grant = caller.grant;
    note.accountId = caller.principal.accountId;
    note.keyId = caller.principal.keyId;
    // Every response states the key's rate-limit figures (a tool call counts; the rest only read them).
    // Only informative: with the limiter unreachable they are left out, and a tool call reports the
    // outage as its result, like any tool failure (docs/api.md#mcp-tool-server).
    const figures = await Promise.resolve()
      .then(() => services.rateLimiter.peek?.(caller.principal.keyId, caller.principal.limits.requestsPerMinute, services.wallNowMs()))
      .catch(() => undefined);
    if (figures) {
      headers.set("X-RateLimit-Limit", String(figures.limit));
      headers.set("X-RateLimit-Remaining", String(figures.remaining));
      headers.set("X-RateLimit-Reset", String(figures.resetSec));
    }
    // A tool call's result decides X-Credits-Remaining, so its answer is sent whole once the call
    // ends (stateless: the stream ends with the result), never streamed ahead of its headers.
    let forward = request;
    let toolCall = false;
    if (request.method === "POST") {
      const body = await readBodyText(request, MCP_MAX_BODY_BYTES);
      if (body.tooLarge) {
        const error = new ApiError(413, "request_too_large", `The request body is larger than ${MCP_MAX_BODY_BYTES} bytes.`, { headers: { ...BODY_TOO_LARGE_HEADERS } });
        return withCors(renderError(error, { style: "lower", headers, method: request.method }));
      }
      const rpc = jsonRpcMethod(body.text);
      if (rpc) {
        note.rpc = rpc.method;
        if (rpc.tool) note.tool = rpc.tool;
      }
      toolCall = rpc?.method === "tools/call";
      forward = new Request(request.url, { method: request.method, headers: request.headers, body: body.text, signal: request.signal });
    }
    const response = await handler.fetch(forward, {
      authInfo: {
        // The credential itself stays here: nothing downstream needs it, nothing may pass it on.
        token: "",
        clientId: grant?.clientId ?? "api-key",
        scopes: grant ? grant.scope.split(" ") : ["mcp"],
        ...(grant ? { expiresAt: Math.floor(grant.expiresMs / 1000) } : {}),
        resource: new URL(urls.resource),
        extra: { principal: caller.principal, via: caller.via, responseHeaders: headers, toolset },
      },
    });
    if (toolCall && response.body && (response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      const text = await response.text();
      return withCors(new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers }), headers);
    }
    if (toolCall && !headers.has("X-Credits-Remaining")) {
      // The call ended before it could state a balance (an invalid argument): read it.
      try {
        headers.set("X-Credits-Remaining", String(await services.accounts.balance(caller.principal.accountId)));
      } catch {
        // unreadable store: the header is left out rather than guessed
      }
    }
    return withCors(response, headers);
  }

  async function fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const origin = options.publicOrigin ? new URL(options.publicOrigin).origin : url.origin;
    const { as } = oauthOf();
    if (as) {
      const answered = await as.handle(request, url.pathname, oauthUrls(origin));
      if (answered) return answered;
    }
    if (url.pathname === MCP_PATH || url.pathname === MCP_PATH + "/") return serveMcp(request, origin);
    return renderError(apiErrors.notFound(), { style: "lower", method: request.method });
  }

  return {
    fetch,
    get tools() {
      return toolList().tools;
    },
    get oauth() {
      return oauthOf().store;
    },
    close: () => handler.close(),
  };
}

/** True for paths the tool server answers outside its own prefix (RFC 8414 / RFC 9728 discovery). */
export function isOAuthDiscoveryPath(pathname: string): boolean {
  return pathname.startsWith("/.well-known/oauth-protected-resource") || pathname.startsWith("/.well-known/oauth-authorization-server");
}
