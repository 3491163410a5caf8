/**
 * Tool arguments -> the REST query and path strings, or a JSON-RPC -32602 (invalid params) when
 * an argument has the wrong name or JSON type or a required one is missing (spec, Tool server
 * errors, item 2). Values are not judged here: ranges, enumerations and formats are checked by
 * the route's own zod schemas, so a bad value is the REST 400 `invalid_parameter` as a tool error.
 * See docs/api.md#mcp-tool-server.
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { ArgKind, RouteTool } from "./route-tools";

/** The JSON kind of a value (`integer` is reported as `number` and accepted where `integer` is asked). */
function kindOfValue(v: unknown): ArgKind {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v as ArgKind;
}

function accepts(kinds: ReadonlySet<ArgKind>, value: unknown): boolean {
  if (kinds.has("any")) return true;
  const k = kindOfValue(value);
  if (k === "number") return kinds.has("number") || kinds.has("integer");
  return kinds.has(k);
}

const invalid = (message: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, message);

/**
 * Split and stringify a tool call's arguments for the route. `null` counts as absent.
 * @throws ProtocolError -32602 on an unknown name, a wrong JSON type (for example a list where the
 *   REST API takes a comma-separated string) or a missing required argument.
 * @example toRouteInput(heatmapTool, { symbols: "SPY,QQQ", maxStrikes: 40 }) // { query: { symbols: "SPY,QQQ", maxStrikes: "40" }, params: {} }
 */
export function toRouteInput(tool: RouteTool, args: unknown): { query: Record<string, string>; params: Record<string, string> } {
  if (args === undefined || args === null) args = {};
  if (typeof args !== "object" || Array.isArray(args)) throw invalid(`Arguments of ${tool.name} must be an object.`);
  const query: Record<string, string> = {};
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(args as Record<string, unknown>)) {
    const spec = tool.args.get(name);
    if (!spec) {
      const known = [...tool.args.keys()];
      throw invalid(`Unknown argument "${name.slice(0, 60)}" for ${tool.name}; known: ${known.length ? known.join(", ") : "none"}.`);
    }
    if (value === null || value === undefined) continue;
    if (!accepts(spec.kinds, value)) {
      const wanted = [...spec.kinds].join(" or ");
      const hint = Array.isArray(value) && spec.kinds.has("string") ? ' (lists are one comma-separated string, for example "SPY,QQQ")' : "";
      throw invalid(`Argument "${name}" of ${tool.name} must be a ${wanted}, not a${kindOfValue(value) === "array" ? "n" : ""} ${kindOfValue(value)}${hint}.`);
    }
    if (typeof value === "object") throw invalid(`Argument "${name}" of ${tool.name} must be a scalar.`);
    const target = spec.in === "path" ? params : query;
    if (Object.hasOwn(target, spec.param)) {
      throw invalid(`Argument "${name}" of ${tool.name} gives \`${spec.param}\` a second time; use one of its names.`);
    }
    target[spec.param] = String(value);
  }
  for (const [name, spec] of tool.args) {
    if (spec.required && !Object.hasOwn(query, name) && !Object.hasOwn(params, name)) throw invalid(`Missing required argument "${name}" for ${tool.name}.`);
  }
  return { query, params };
}
