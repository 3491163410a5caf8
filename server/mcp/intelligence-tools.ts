/**
 * The intelligence toolset (`{mcp_url}?toolset=intelligence`, reference mcp-tools.md): one-call
 * answers built from REST calls, each run through the route executor for the caller and charged
 * as the sum of the calls it stands for. A short factual `summary`, compact `data`, and `meta`
 * with `cost`, `creditsRemaining`, `asOf` and `partial`. See docs/api.md#intelligence-tools.
 */
import { ProtocolError, ProtocolErrorCode, type CallToolResult } from "@modelcontextprotocol/server";
import { changeBrief, levelsBrief } from "../../lib/positioning";
import type { Principal } from "../accounts/types";
import { ApiError, toApiError } from "../errors";
import { newRequestId, takeRateLimit } from "../http/route-handler";
import { renderCode } from "../http/render-error";
import { mountedRoutes } from "../modules/define-module";
import { executeRoute } from "../modules/execute-route";
import type { AppServices } from "../services";
import { flowContextTool } from "./flow-context-tool";
import { volContextTool } from "./vol-context-tool";
import { marketBriefTool } from "./market-brief-tool";

/** The REST calls an intelligence tool makes, on behalf of one caller. */
export interface BriefCalls {
  /**
   * Run a base- or flow-host route by its declared path (`/v1/sweeps/:ticker`) with path `params`;
   * returns its `{data, meta}`; throws the route's `ApiError`.
   */
  // biome-ignore lint/suspicious/noExplicitAny: any route's body; each tool reads the fields of its own route
  get(path: string, query: Record<string, string>, params?: Record<string, string>, host?: "atlas"): Promise<{ data: any; meta: any }>;
}

/** One intelligence tool. */
export interface IntelligenceTool {
  name: string;
  title: string;
  description: string;
  /** Argument name -> JSON Schema; `required` lists the required ones. */
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  run(args: Record<string, string>, calls: BriefCalls): Promise<BriefOutcome>;
}

/** What an intelligence tool answers; `truncated` lists the lists the agent toolset cut (server/mcp/agent-result.ts). */
export interface BriefOutcome {
  summary: string;
  data: unknown;
  asOf: string;
  partial: boolean;
  truncated?: { path: string; returned: number; total: number }[];
}

const METRIC = { type: "string", enum: ["gamma", "vanna"], default: "gamma", description: "Which dealer exposure: gamma or vanna." };
const SYMBOL = { type: "string", description: "One ticker or option root (SPXW for the S&P 500 dailies and weeklies)." };

/** The intelligence tools of the modules this version serves (flow and volatility ones come with their modules). */
export const INTELLIGENCE_TOOLS: readonly IntelligenceTool[] = [
  {
    name: "explain_levels",
    title: "Explain key levels",
    description:
      "Key dealer-positioning levels for one symbol: spot, King node, flip, largest positive and negative walls, net exposure, " +
      "five largest levels, with a short factual summary. Credits: 1 (GET /v1/gex/levels).",
    properties: { symbol: SYMBOL, metric: METRIC },
    required: ["symbol"],
    async run(args, calls) {
      const body = await calls.get("/v1/gex/levels", { symbols: args.symbol, metric: args.metric ?? "gamma" });
      const brief = levelsBrief(body.data.symbols[0]);
      return { summary: brief.summary, data: brief.data, asOf: brief.data.asOf, partial: false };
    },
  },
  {
    name: "whats_changed",
    title: "What changed on the board",
    description:
      "How one symbol's board moved since an earlier instant: spot move, King node then and now, the five strikes whose net " +
      "exposure changed most. Credits: 6 (GET /v1/historical at `since`, 5, and GET /v1/heatmap, 1).",
    properties: {
      symbol: SYMBOL,
      since: { type: "string", description: "RFC 3339 instant to compare with (the board at or before it), not before 2023-03-28." },
      metric: METRIC,
    },
    required: ["symbol", "since"],
    async run(args, calls) {
      const metric = args.metric ?? "gamma";
      const then = await calls.get("/v1/historical", { symbols: args.symbol, at: args.since, metric });
      const now = await calls.get("/v1/heatmap", { symbols: args.symbol, metric });
      const brief = changeBrief(then.data.symbols[0], now.data.symbols[0]);
      return { summary: brief.summary, data: brief.data, asOf: brief.data.to, partial: false };
    },
  },
  flowContextTool,
  volContextTool,
  marketBriefTool,
];

/** The tools/list entry of an intelligence tool. */
export function listedIntelligenceTool(tool: IntelligenceTool): Record<string, unknown> {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: { type: "object", properties: tool.properties, required: tool.required, additionalProperties: false },
    annotations: { title: tool.title, readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false },
  };
}

const invalid = (message: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, message);

/** JSON Schema types whose argument values are passed on as their decimal or `true`/`false` text. */
const SCALAR_TYPES: Record<string, string> = { integer: "number", number: "number", boolean: "boolean" };

/** Arguments as strings (numbers and booleans where the schema types them so); -32602 for an unknown, missing or mistyped argument. */
function argsOf(tool: IntelligenceTool, args: unknown): Record<string, string> {
  if (args === undefined || args === null) args = {};
  if (typeof args !== "object" || Array.isArray(args)) throw invalid(`Arguments of ${tool.name} must be an object.`);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(args as Record<string, unknown>)) {
    if (!Object.hasOwn(tool.properties, name)) {
      throw invalid(`Unknown argument "${name.slice(0, 60)}" for ${tool.name}; known: ${Object.keys(tool.properties).join(", ")}.`);
    }
    if (value === null || value === undefined) continue;
    const scalar = SCALAR_TYPES[String(tool.properties[name].type)];
    if (scalar !== undefined && typeof value === scalar) {
      out[name] = String(value);
      continue;
    }
    const expected = scalar === undefined ? "a string" : `a ${tool.properties[name].type} or a string`;
    if (typeof value !== "string") throw invalid(`Argument "${name}" of ${tool.name} must be ${expected}.`);
    out[name] = value;
  }
  for (const name of tool.required) if (!Object.hasOwn(out, name)) throw invalid(`Missing required argument "${name}" for ${tool.name}.`);
  return out;
}

/**
 * Run an intelligence tool for a caller: rate-limited on the caller's key (one count per tool
 * call, as a REST tool), then every REST call it makes is validated, entitled and charged like the
 * REST call; when the tool fails, the calls that succeeded are refunded too, so a failed tool call
 * is free. Any failure after the arguments parse, the rate limiter's included (429, or 503
 * `unavailable` with Redis down), is a tool result with `isError`, as for every other tool.
 */
export async function callIntelligenceTool(
  services: AppServices,
  tool: IntelligenceTool,
  rawArgs: unknown,
  principal: Principal,
  signal: AbortSignal | undefined,
  responseHeaders?: Headers,
  /** Reshapes a successful answer before it is sent (the agent toolset's size budget and rounding). */
  shape?: (out: BriefOutcome, args: Record<string, string>) => BriefOutcome,
): Promise<{ result: CallToolResult; creditsRemaining: number | null }> {
  const args = argsOf(tool, rawArgs);
  const charged: { requestId: string; route: string; credits: number }[] = [];
  let creditsRemaining: number | null = null;
  const mounted = mountedRoutes(services.modules);
  const calls: BriefCalls = {
    async get(path, query, params, host) {
      const m = mounted.find((r) => r.route.path === path && (host ? r.route.host === host : r.route.host === "base" || r.route.host === "flow"));
      if (!m) throw new ApiError(404, "not_found", `No route ${path} on this server.`);
      const requestId = newRequestId();
      const run = await executeRoute(services, { route: m.route, state: m.state, principal, query, params, requestId, signal });
      if (run.credits > 0) charged.push({ requestId, route: path, credits: run.credits });
      creditsRemaining = run.creditsRemaining ?? creditsRemaining;
      return { data: run.result.data, meta: run.result.meta ?? {} };
    },
  };
  const cost = () => charged.reduce((sum, c) => sum + c.credits, 0);
  try {
    await takeRateLimit(services, responseHeaders ?? new Headers(), principal, null);
    const ran = await tool.run(args, calls);
    const out = shape ? shape(ran, args) : ran;
    const meta = { cost: cost(), creditsRemaining, asOf: out.asOf, partial: out.partial, ...(out.truncated ? { truncated: out.truncated } : {}) };
    const body = { summary: out.summary, data: out.data, meta };
    return {
      result: { content: [{ type: "text", text: `${out.summary}\n${JSON.stringify(out.data)}` }], structuredContent: body, _meta: { creditsRemaining } },
      creditsRemaining,
    };
  } catch (thrown) {
    const error = toApiError(thrown);
    creditsRemaining = error.creditsRemaining ?? creditsRemaining;
    for (const c of charged) {
      try {
        const a = services.accounts;
        const ref = { requestId: c.requestId, route: c.route };
        const r = a.refundAsync ? await a.refundAsync(principal, c.credits, ref) : await a.refund(principal, c.credits, ref);
        creditsRemaining = r.balance;
      } catch {
        services.logger({ level: "error", msg: "refund_failed", requestId: c.requestId });
      }
    }
    if (creditsRemaining === null) {
      try {
        creditsRemaining = await services.accounts.balance(principal.accountId);
      } catch {
        // unreadable store: the figure is left out rather than guessed
      }
    }
    const code = renderCode(error.code, "lower");
    const retryAfter = error.headers["Retry-After"];
    const retryAfterS = retryAfter !== undefined && /^\d+$/.test(retryAfter) ? { retryAfterS: Number(retryAfter) } : {};
    return {
      result: {
        content: [{ type: "text", text: `${code}: ${error.message} (HTTP ${error.status}; failed calls are not charged)` }],
        isError: true,
        _meta: { creditsRemaining, error: { status: error.status, code, ...retryAfterS } },
      },
      creditsRemaining,
    };
  }
}
