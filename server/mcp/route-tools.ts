/**
 * The tool list, generated from the route table: one tool per keyed endpoint (the API
 * descriptions and streams excepted), its input schema from the route's own zod query and path
 * schemas, its output schema from the route's `data`/`meta` schemas. A route added to the table
 * becomes a tool with no change here. See docs/api.md#mcp-tool-server.
 */
import type { z } from "zod";
import { isOptional, jsonSchemaOf } from "../openapi/json-schema";
import { isToolRoute, type AnyRoute } from "../modules/define-route";
import { REFERENCE_TOOL_NAMES } from "./reference-tool-names";

/** JSON kinds an argument may take, read from its JSON Schema (`any` when the schema does not say). */
export type ArgKind = "string" | "number" | "integer" | "boolean" | "object" | "array" | "null" | "any";

/** One generated tool. */
export interface RouteTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** Absent when the route's body is not an object (MCP output schemas have an object root). */
  outputSchema?: Record<string, unknown>;
  annotations: { title: string; readOnlyHint: true; idempotentHint: true; openWorldHint: false; destructiveHint: false };
  route: AnyRoute;
  /**
   * Argument name -> the REST parameter it fills, where it goes and which JSON kinds it accepts.
   * Both the REST name (`maxStrikes`) and the reference catalogue's snake_case name
   * (`max_strikes`) are arguments; one call may use either, not both.
   */
  args: Map<string, { param: string; in: "query" | "path"; kinds: ReadonlySet<ArgKind>; required: boolean }>;
}

/** Longest tool description, characters: agents read every description on every turn. */
const MAX_DESCRIPTION_CHARS = 700;

/** `/v1/flow/:ticker` -> `/v1/flow/{ticker}` (the reference catalogue's spelling). */
function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

const snake = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();

/**
 * The tool name of a route: the reference catalogue's name for the same endpoint (positioning,
 * flow, volatility and account hosts), else derived from the operationId (`getVolIv` ->
 * `vol_iv`), with `price_` in front for the price host.
 * @example toolNameFor(heatmapRoute) // "heat_heatmap"
 */
function toolNameFor(route: AnyRoute): string {
  if (route.host !== "atlas") {
    const known = REFERENCE_TOOL_NAMES[openApiPath(route.path)];
    if (known) return known;
  }
  const base = snake(route.operationId).replace(/^(get|list)_/, "") || snake(route.path);
  return route.host === "atlas" ? `price_${base}` : base;
}

/** The JSON kinds a JSON Schema admits (through `type`, `anyOf`/`oneOf`, `const` and `enum`). */
function kindsOf(schema: Record<string, unknown>): Set<ArgKind> {
  const out = new Set<ArgKind>();
  const add = (v: unknown) => {
    if (v === null) out.add("null");
    else if (Array.isArray(v)) out.add("array");
    else if (typeof v === "string" || typeof v === "boolean" || typeof v === "number") out.add(typeof v as ArgKind);
    else if (typeof v === "object") out.add("object");
  };
  const t = schema.type;
  if (typeof t === "string") out.add(t as ArgKind);
  else if (Array.isArray(t)) for (const x of t) out.add(x as ArgKind);
  if ("const" in schema) add(schema.const);
  if (Array.isArray(schema.enum)) for (const v of schema.enum) add(v);
  for (const key of ["anyOf", "oneOf"] as const) {
    const alts = schema[key];
    if (Array.isArray(alts)) for (const alt of alts) for (const k of kindsOf(alt as Record<string, unknown>)) out.add(k);
  }
  if (out.size === 0) out.add("any");
  return out;
}

function costLine(route: AnyRoute): string {
  if (typeof route.cost === "function") return "Credits: as the REST endpoint charges for the same query.";
  if (route.cost === 0) return "Free.";
  return `Credits: ${route.cost} per call.`;
}

/** Summary, then the route's description cut at a sentence boundary, then the cost. */
function describe(route: AnyRoute): string {
  const summary = route.summary.replace(/\.$/, "");
  let text = route.description.trim();
  const budget = MAX_DESCRIPTION_CHARS - summary.length - 60;
  if (text.length > budget) {
    const cut = text.slice(0, budget);
    const end = cut.lastIndexOf(". ");
    text = end > 40 ? cut.slice(0, end + 1) : cut.replace(/\s+\S*$/, "") + "...";
  }
  return `${summary}. ${text} ${costLine(route)}`.replace(/\s+/g, " ").trim();
}

/**
 * A copy of an output schema that tolerates fields it does not name: the API evolves by adding
 * fields (spec, Versioning, item 4), and a client that cached `additionalProperties: false` would
 * reject the first answer carrying one.
 */
function openSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(openSchema);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema as Record<string, unknown>)) {
    if (k === "additionalProperties" && v === false) continue;
    out[k] = openSchema(v);
  }
  return out;
}

function objectRoot(schema: Record<string, unknown>): boolean {
  return schema.type === "object";
}

/**
 * Build one tool from a route.
 * @example routeTool(heatmapRoute).inputSchema.properties.symbols // { type: "string", ... }
 */
function routeTool(route: AnyRoute): RouteTool {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const args: RouteTool["args"] = new Map();
  const addShape = (shape: Record<string, z.ZodType> | undefined, where: "query" | "path") => {
    for (const [name, field] of Object.entries(shape ?? {})) {
      const js = jsonSchemaOf(field, "input");
      const isRequired = where === "path" || !isOptional(field);
      properties[name] = js;
      if (isRequired) required.push(name);
      const kinds = kindsOf(js);
      args.set(name, { param: name, in: where, kinds, required: isRequired });
      // The reference tool server's name for the same argument (mcp-tools.md: "in snake_case").
      const alias = snake(name);
      if (alias !== name && !(alias in (shape ?? {}))) {
        const description = `Same as \`${name}\` (the reference tool catalogue's name); give one of the two.`;
        properties[alias] = { ...js, description };
        args.set(alias, { param: name, in: where, kinds, required: false });
      }
    }
  };
  addShape(route.params?.shape as Record<string, z.ZodType> | undefined, "path");
  addShape(route.query.shape as Record<string, z.ZodType>, "query");
  const inputSchema: Record<string, unknown> = { type: "object", properties, additionalProperties: false };
  if (required.length > 0) inputSchema.required = required;

  let outputSchema: Record<string, unknown> | undefined;
  const data = openSchema(jsonSchemaOf(route.data, "output")) as Record<string, unknown>;
  if (route.envelope !== false) {
    outputSchema = {
      type: "object",
      properties: { data, meta: route.meta ? openSchema(jsonSchemaOf(route.meta, "output")) : { type: "object" } },
      required: ["data", "meta"],
    };
  } else if (objectRoot(data)) {
    outputSchema = data;
  }
  const title = route.summary.replace(/\.$/, "");
  return {
    name: toolNameFor(route),
    title,
    description: describe(route),
    inputSchema,
    outputSchema,
    annotations: { title, readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false },
    route,
    args,
  };
}

/**
 * Every tool of a route table, names made unique (a clash gets the host appended).
 * @example routeTools(allRoutes).map((t) => t.name) // ["account_usage", "heat_heatmap", ...]
 */
export function routeTools(routes: readonly AnyRoute[]): RouteTool[] {
  const tools: RouteTool[] = [];
  const names = new Set<string>();
  for (const route of routes) {
    if (!isToolRoute(route)) continue;
    const tool = routeTool(route);
    let name = tool.name;
    if (names.has(name)) name = `${name}_${route.host}`;
    for (let i = 2; names.has(name); i++) name = `${tool.name}_${i}`;
    names.add(name);
    tools.push({ ...tool, name });
  }
  return tools;
}
