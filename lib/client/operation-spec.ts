import type * as z from "zod";

/**
 * What a call to one route needs at run time (generated from the server's route table into
 * operations.generated.ts): no schema, so the client loads no zod (docs/methodology.md#package-budgets).
 */
export interface OperationRoute {
  operationId: string;
  /** h3 path syntax: `:name` segments are filled from the call's path parameters. */
  path: string;
  /** `base` ({base_url}), `flow` ({base_url} too), `atlas` ({atlas_url}). */
  host: "base" | "flow" | "atlas";
  kind: "rest" | "stream";
  /** Streams only: Server-Sent Events or the WebSocket twin. */
  transport?: "sse" | "ws";
  /** `none`: the client sends no key (the API descriptions). */
  auth: "key" | "none";
  /** True: the body is `{data, meta}`; false: the body is the data (UDF, OpenAPI). */
  envelope: boolean;
  /** Credits per call, or `per-call` when the server computes it from the query. */
  cost: number | "per-call";
  /** How the route pages, from its query's keys. */
  paging: "cursor" | "offset" | "cursor+offset" | null;
}

/** One route's schemas (operation-schemas.generated.ts): the very objects the server validates with. */
export interface OperationSchemas {
  query: z.ZodObject;
  params?: z.ZodObject;
  data: z.ZodType;
  meta?: z.ZodType;
}

/** One route as the client's types see it: what a call needs and the route's schemas. */
export interface OperationSpec extends OperationRoute, OperationSchemas {}

/**
 * What `validateResponses` checks successes with: each method's `data` schema, keyed by method
 * name (`operationSchemas` from `optionscope/client/schemas` is one; a table naming fewer methods
 * checks only those). Structural, so passing the generated table costs tsc no zod comparison.
 */
export type ResponseSchemas = Readonly<Record<string, { readonly data: { parse(data: unknown): unknown } }>>;
