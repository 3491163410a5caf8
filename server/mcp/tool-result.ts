/**
 * A REST answer (status, body, balance) as an MCP tool result: a success carries the REST
 * `{data, meta}` as `structuredContent` (and as JSON text for clients that read only `content`);
 * a failure is `isError: true` with the API error code first in its text. Either way `_meta`
 * carries `creditsRemaining` (spec, What the service does, item 7).
 * See docs/api.md#mcp-tool-server.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { InProcessResult } from "../http/pipeline";

/** The REST error object of a body in any module's style (`{error: {code, message}}`, price adds `s`). */
function errorOf(body: unknown): { code: string; message: string; extra: Record<string, unknown> } {
  const inner = (body as { error?: unknown } | null)?.error;
  if (inner && typeof inner === "object") {
    const { code, message, ...extra } = inner as Record<string, unknown>;
    return { code: String(code ?? "internal_error"), message: String(message ?? ""), extra };
  }
  return { code: "internal_error", message: "The endpoint failed without an error body.", extra: {} };
}

/**
 * Build the tool result.
 * @example toToolResult({ status: 200, body: { data, meta }, creditsRemaining: 99, headers }, true)
 *   // { content: [{ type: "text", text: "{\"data\":...}" }], structuredContent: { data, meta }, _meta: { creditsRemaining: 99, ... } }
 */
export function toToolResult(r: InProcessResult, creditsRemaining: number | null, withStructured: boolean): CallToolResult {
  const requestId = r.headers.get("x-request-id");
  const meta: Record<string, unknown> = {};
  if (creditsRemaining !== null) meta.creditsRemaining = creditsRemaining;
  if (requestId) meta.requestId = requestId;
  if (r.status >= 200 && r.status < 300) {
    const result: CallToolResult = { content: [{ type: "text", text: JSON.stringify(r.body) }], _meta: meta };
    if (withStructured && r.body !== null && typeof r.body === "object" && !Array.isArray(r.body)) {
      result.structuredContent = r.body as Record<string, unknown>;
    }
    return result;
  }
  const err = errorOf(r.body);
  const retryAfter = r.headers.get("retry-after");
  meta.error = {
    status: r.status,
    code: err.code,
    ...(retryAfter !== null && /^\d+$/.test(retryAfter) ? { retryAfterS: Number(retryAfter) } : {}),
    ...err.extra,
  };
  return {
    content: [{ type: "text", text: `${err.code}: ${err.message} (HTTP ${r.status}; failed calls are not charged)` }],
    isError: true,
    _meta: meta,
  };
}
