// Writes the per-endpoint part of docs/api.md (between its `endpoints` markers) from the route
// table: per operation its method and path, cost, summary, description, parameters and the request
// of its OpenAPI example. test/server/openapi/examples.test.ts fails when the file is behind.
//   npx tsx scripts/gen-api-reference.ts
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { z } from "zod";
import { allRoutes } from "../server/modules";
import type { AnyRoute } from "../server/modules/define-route";
import { exampleOf } from "../server/openapi/examples";
import { isOptional, jsonSchemaOf } from "../server/openapi/json-schema";

const BEGIN = "<!-- endpoints:begin (scripts/gen-api-reference.ts writes this part) -->";
const END = "<!-- endpoints:end -->";

/** A JSON Schema in a few words: its type, enum, bounds. */
function typeOf(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => `\`${v}\``).join(" | ");
  if ("const" in schema) return `\`${String(schema.const)}\``;
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Record<string, unknown>[]).map(typeOf).join(" or ");
  const t = String(schema.type ?? "any");
  const bounds = [schema.minimum !== undefined ? `>= ${schema.minimum}` : "", schema.maximum !== undefined ? `<= ${schema.maximum}` : ""].filter(Boolean).join(", ");
  return bounds ? `${t} (${bounds})` : t;
}

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();

function parameterRows(route: AnyRoute): string[] {
  const rows: string[] = [];
  const add = (shape: Record<string, z.ZodType> | undefined, where: string) => {
    for (const [name, field] of Object.entries(shape ?? {})) {
      const js = jsonSchemaOf(field, "input");
      const required = where === "path" || !isOptional(field) ? "yes" : "";
      const description = typeof js.description === "string" ? js.description : "";
      rows.push(`| \`${name}\` | ${where} | ${required} | ${cell(typeOf(js))} | ${cell(description)} |`);
    }
  };
  add(route.params?.shape as Record<string, z.ZodType> | undefined, "path");
  add(route.query.shape as Record<string, z.ZodType>, "query");
  return rows;
}

const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");

function costText(route: AnyRoute): string {
  if (route.cost === 0) return "free";
  if (typeof route.cost === "number") return `${route.cost} credit${route.cost === 1 ? "" : "s"}`;
  return "varies with the query (see the description)";
}

function endpoint(route: AnyRoute, prefix: string): string {
  const lines = [`#### ${route.method} ${prefix}${openApiPath(route.path)}`, ""];
  const kind = route.kind === "stream" ? "stream; " : "";
  const auth = route.auth === "none" ? "no key" : "key required";
  lines.push(`${route.summary.replace(/\.$/, "")}. ${kind}${costText(route)}; ${auth}; operation \`${route.operationId}\`.`, "");
  lines.push(route.description.trim(), "");
  const rows = parameterRows(route);
  if (rows.length > 0) lines.push("| parameter | in | required | type | description |", "| --- | --- | --- | --- | --- |", ...rows, "");
  const example = exampleOf(route);
  if (example) lines.push(`Example (its answer is in the OpenAPI document and at \`/docs\`): \`GET ${prefix}${example.request}\``, "");
  return lines.join("\n");
}

/** The generated part of docs/api.md, markers included. */
export function apiReferenceMarkdown(): string {
  const groups: [string, string, (r: AnyRoute) => boolean][] = [
    ["Base host: positioning, volatility, account", "", (r) => r.host === "base"],
    ["Flow", "", (r) => r.host === "flow"],
    ["Price host (UDF)", "{atlas_url}", (r) => r.host === "atlas"],
  ];
  const out = [BEGIN, ""];
  for (const [title, prefix, pick] of groups) {
    const routes = allRoutes.filter(pick);
    out.push(`### ${title}`, "", `${routes.length} operations.`, "");
    for (const r of routes) out.push(endpoint(r, prefix));
  }
  out.push(END);
  return out.join("\n");
}

/** docs/api.md with its generated part replaced. */
export function withApiReference(markdown: string): string {
  const start = markdown.indexOf(BEGIN);
  const end = markdown.indexOf(END);
  if (start < 0 || end < start) throw new Error("docs/api.md has no endpoints markers");
  return markdown.slice(0, start) + apiReferenceMarkdown() + markdown.slice(end + END.length);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = join(resolve(dirname(fileURLToPath(import.meta.url)), ".."), "docs/api.md");
  writeFileSync(file, withApiReference(readFileSync(file, "utf8")));
  console.log(`wrote ${file}`);
}
