import { z } from "zod";

/**
 * Drop the bounds zod gives every `z.int()` (plus or minus `Number.MAX_SAFE_INTEGER`): they state
 * JavaScript's number range, not a rule of the API, so only bounds a schema sets itself are kept.
 */
function dropSafeIntegerBounds(node: unknown): void {
  if (Array.isArray(node)) {
    for (const n of node) dropSafeIntegerBounds(n);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const o = node as Record<string, unknown>;
  if (o.minimum === Number.MIN_SAFE_INTEGER) delete o.minimum;
  if (o.maximum === Number.MAX_SAFE_INTEGER) delete o.maximum;
  for (const v of Object.values(o)) dropSafeIntegerBounds(v);
}

/**
 * Each schema's conversion, by direction: zod schemas are immutable and `z.toJSONSchema` is most of
 * what building an OpenAPI document or a tool list costs (every document, every app's tool list and
 * every tool-list test converts the same few hundred schemas again). Callers get a copy to edit.
 */
const converted = { input: new WeakMap<z.ZodType, Record<string, unknown>>(), output: new WeakMap<z.ZodType, Record<string, unknown>>() };

/** A zod schema as an inline JSON Schema 2020-12 object (OpenAPI 3.1 dialect), without `$schema` and without zod's safe-integer bounds. */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  let out = converted[io].get(schema);
  if (!out) {
    out = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
    delete out.$schema;
    dropSafeIntegerBounds(out);
    converted[io].set(schema, out);
  }
  return structuredClone(out);
}

/** The value a parameter takes when absent, if it has a JSON-able default. */
export function defaultOf(schema: z.ZodType): unknown {
  const r = schema.safeParse(undefined);
  if (!r.success || r.data === undefined) return undefined;
  const t = typeof r.data;
  return t === "string" || t === "number" || t === "boolean" ? r.data : undefined;
}

/** True when a parameter may be left out. */
export function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}
