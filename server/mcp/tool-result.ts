/**
 * A REST answer (status, body, balance) as an MCP tool result: a success carries the REST
 * `{data, meta}` as `structuredContent` (and as JSON text for clients that read only `content`);
 * a failure is `isError: true` with the API error code first in its text. Either way `_meta`
 * carries `creditsRemaining` (spec, What the service does, item 7).
 * See docs/api.md#mcp-tool-server.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { ApiError } from "../errors";
import { renderCode, type ErrorStyle } from "../http/render-error";

/** What a tool call came to: the REST body of a success, or the one `ApiError` and its module's style. */
export type ToolOutcome = { ok: true; body: unknown; requestId: string } | { ok: false; error: ApiError; style: ErrorStyle; requestId: string };

/**
 * Build the tool result.
 * @example toToolResult({ ok: true, body: { data, meta }, requestId }, 99, true)
 *   // { content: [{ type: "text", text: "{\"data\":...}" }], structuredContent: { data, meta }, _meta: { creditsRemaining: 99, ... } }
 */
export function toToolResult(outcome: ToolOutcome, creditsRemaining: number | null, withStructured: boolean): CallToolResult {
  const meta: Record<string, unknown> = {};
  if (creditsRemaining !== null) meta.creditsRemaining = creditsRemaining;
  meta.requestId = outcome.requestId;
  if (outcome.ok) {
    const { body } = outcome;
    const result: CallToolResult = { content: [{ type: "text", text: JSON.stringify(body) }], _meta: meta };
    if (withStructured && body !== null && typeof body === "object" && !Array.isArray(body)) {
      result.structuredContent = body as Record<string, unknown>;
    }
    return result;
  }
  const { error, style } = outcome;
  const code = renderCode(error.code, style);
  const retryAfter = error.headers["Retry-After"];
  const { success: _udfForm, ...details } = error.details;
  meta.error = {
    status: error.status,
    code,
    ...(retryAfter !== undefined && /^\d+$/.test(retryAfter) ? { retryAfterS: Number(retryAfter) } : {}),
    ...details,
  };
  return {
    content: [{ type: "text", text: `${code}: ${error.message} (HTTP ${error.status}; failed calls are not charged)` }],
    isError: true,
    _meta: meta,
  };
}
