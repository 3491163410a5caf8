/**
 * `npm run gen:client`: writes the typed client's two generated files from the server's route table:
 * lib/client/operations.generated.ts, what a call needs at run time (path, host, kind, paging; no
 * schema, so `createClient` loads no zod), and lib/client/operation-schemas.generated.ts, each
 * route's schemas, which the client's types read and `validateResponses` loads on demand
 * (docs/methodology.md#package-budgets).
 *
 * Each route's query, path-parameter, `data` and `meta` schemas are located among the exports of
 * `lib/` by object identity, so the client imports the very objects the server validates with and
 * cannot drift. A schema the server keeps to itself (declared inline in `server/`) is an error
 * naming the route: move it into `lib/` (see lib/api/) and rerun. The drift test
 * (test/client/generated.test.ts) regenerates in memory and compares with the files.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { AnyRoute } from "../server/modules/define-route";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const LIB = join(ROOT, "lib");
const CLIENT = join(LIB, "client");
export const GENERATED_PATH = join(CLIENT, "operations.generated.ts");
export const GENERATED_SCHEMAS_PATH = join(CLIENT, "operation-schemas.generated.ts");

/** Where one exported schema lives: the import path (from lib/client/) and its export name. */
export interface SchemaHome {
  from: string;
  name: string;
}

/** Export index: schema object -> its first home (files in sorted order, barrels skipped). */
export type SchemaIndex = Map<object, SchemaHome>;

/** Every `.ts` file under lib/ except the client, generated files and barrels (`index.ts`). */
function libFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== CLIENT) out.push(...libFiles(path));
    } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") && entry.name !== "index.ts" && !entry.name.includes(".generated.")) {
      out.push(path);
    }
  }
  return out.sort();
}

/** Import every lib file and index its exported zod schemas by identity. */
export async function indexLibSchemas(): Promise<SchemaIndex> {
  const index: SchemaIndex = new Map();
  for (const file of libFiles(LIB)) {
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const from = "./" + relative(CLIENT, file).split(sep).join("/").replace(/\.ts$/, "");
    const spec = from.startsWith("./../") ? from.slice(2) : from;
    for (const [name, value] of Object.entries(mod)) {
      if (value && typeof value === "object" && "_zod" in value && !index.has(value)) index.set(value, { from: spec, name });
    }
  }
  return index;
}

/** The client method name of an operationId: camelCase (first letter lower, `_`/`-` joins capitalised). */
export function methodName(operationId: string): string {
  const parts = operationId.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = parts.map((p, i) => (i === 0 ? p : p[0].toUpperCase() + p.slice(1))).join("");
  return joined[0].toLowerCase() + joined.slice(1);
}

/** How a route pages, from its query schema's keys (spec: dark-pool cursor paging, screeners by offset). */
function pagingOf(route: AnyRoute): "cursor" | "offset" | "cursor+offset" | null {
  const keys = Object.keys(route.query.shape);
  const cursor = keys.includes("cursor");
  const offset = keys.includes("offset");
  return cursor && offset ? "cursor+offset" : cursor ? "cursor" : offset ? "offset" : null;
}

/** Thrown when a route's schema is not exported from lib/: the message names the route. */
export class UnexportedSchemaError extends Error {
  override readonly name = "UnexportedSchemaError";
}

/** The two generated files' texts: the run-time table and the schema table. */
export interface RenderedOperations {
  /** lib/client/operations.generated.ts */
  table: string;
  /** lib/client/operation-schemas.generated.ts */
  schemas: string;
}

const entry = (method: string, fields: string[]) => `  ${method}: {\n${fields.map((f) => `    ${f},`).join("\n")}\n  },`;

/**
 * The texts of both generated files for `routes`.
 * @throws UnexportedSchemaError naming every route whose schema lib/ does not export
 */
export function renderOperations(routes: readonly AnyRoute[], index: SchemaIndex): RenderedOperations {
  const imports = new Map<string, Set<string>>();
  const problems: string[] = [];
  const names = new Map<string, string>();
  const tableEntries: string[] = [];
  const schemaEntries: string[] = [];
  for (const route of routes) {
    const where = `${route.operationId} (GET ${route.path})`;
    const ref = (role: string, schema: unknown): string | null => {
      const home = index.get(schema as object);
      if (!home) {
        problems.push(`${where}: its ${role} schema is not exported from lib/; move it into lib/ (see lib/api/) and export it.`);
        return null;
      }
      let set = imports.get(home.from);
      if (!set) {
        set = new Set();
        imports.set(home.from, set);
      }
      set.add(home.name);
      return home.name;
    };
    const method = methodName(route.operationId);
    const clash = names.get(method);
    if (clash) problems.push(`${where}: method name ${method} is already taken by ${clash}.`);
    names.set(method, where);
    const kind = route.kind ?? "rest";
    tableEntries.push(
      entry(method, [
        `operationId: ${JSON.stringify(route.operationId)}`,
        `path: ${JSON.stringify(route.path)}`,
        `host: ${JSON.stringify(route.host)}`,
        `kind: ${JSON.stringify(kind)}`,
        // The WebSocket twin reads credentials from the subprotocol too (route.credentials); every other stream is SSE.
        ...(kind === "stream" ? [`transport: ${JSON.stringify(route.credentials ? "ws" : "sse")}`] : []),
        `auth: ${JSON.stringify(route.auth ?? "key")}`,
        `envelope: ${route.envelope !== false}`,
        `cost: ${typeof route.cost === "number" ? route.cost : JSON.stringify("per-call")}`,
        `paging: ${JSON.stringify(pagingOf(route))}`,
      ]),
    );
    schemaEntries.push(
      entry(method, [
        `query: ${ref("query", route.query)}`,
        ...(route.params ? [`params: ${ref("params", route.params)}`] : []),
        `data: ${ref("data", route.data)}`,
        ...(route.meta ? [`meta: ${ref("meta", route.meta)}`] : []),
      ]),
    );
  }
  if (problems.length > 0) throw new UnexportedSchemaError(`gen:client failed:\n  ${problems.join("\n  ")}`);
  const importLines = [...imports.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([from, set]) => `import { ${[...set].sort().join(", ")} } from "${from}";`);
  const generated = "// Generated by `npm run gen:client` (scripts/gen-client.ts) from the server's route table. Do not edit.";
  const table = [
    generated,
    "// One entry per route: the client method name (camelCase of the operationId) and what a call",
    "// needs at run time. No schema here, so `createClient` loads no zod: each route's schemas are in",
    "// operation-schemas.generated.ts (docs/methodology.md#package-budgets).",
    "",
    "/**",
    " * Every route of the server's table, keyed by client method name. Path parameters are the",
    " * path's `:name` segments (test/client/generated.test.ts checks them against each route's",
    " * params schema).",
    " */",
    "export const operations = {",
    ...tableEntries,
    "} as const;",
    "",
  ].join("\n");
  const schemas = [
    generated,
    "// Each route's query, path-parameter, `data` and `meta` schemas, keyed by client method name: the",
    "// very objects the server validates with, imported from lib/. The client's types read this",
    "// module's types; its values load only for `validateResponses` (lib/client/create-client.ts).",
    ...importLines,
    "",
    "/**",
    " * Every route's schemas. Checked by test/client/generated.test.ts (each route's own schemas, by",
    " * identity) rather than by `satisfies`: comparing ~90 zod schemas with a type cost tsc 5 s.",
    " */",
    "export const operationSchemas = {",
    ...schemaEntries,
    "} as const;",
    "",
  ].join("\n");
  return { table, schemas };
}

/** Regenerate both files' texts from the live route table. */
export async function generateClientOperations(): Promise<RenderedOperations> {
  const { allRoutes } = await import("../server/modules");
  return renderOperations(allRoutes, await indexLibSchemas());
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const { table, schemas } = await generateClientOperations();
    writeFileSync(GENERATED_PATH, table);
    writeFileSync(GENERATED_SCHEMAS_PATH, schemas);
    console.log(`wrote ${relative(ROOT, GENERATED_PATH)} and ${relative(ROOT, GENERATED_SCHEMAS_PATH)}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
