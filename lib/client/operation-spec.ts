import type * as z from "zod";

/** One route as the client sees it (generated from the server's route table into operations.generated.ts). */
export interface OperationSpec {
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
  query: z.ZodObject;
  params?: z.ZodObject;
  data: z.ZodType;
  meta?: z.ZodType;
}
