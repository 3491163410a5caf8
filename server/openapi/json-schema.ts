import { z } from "zod";

/** A zod schema as an inline JSON Schema 2020-12 object (OpenAPI 3.1 dialect), without `$schema`. */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
  delete out.$schema;
  return out;
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
