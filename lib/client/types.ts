/**
 * The client's request and response types, derived from the generated operation tables (whose
 * schemas are the server's own), so a method's types follow the route without a hand-written line.
 * The schema table is imported for its types only: the client's code never loads it unless asked
 * to validate (create-client.ts).
 */
import type * as z from "zod";
import type { operationSchemas } from "./operation-schemas.generated";
import type { operations } from "./operations.generated";
import type { OperationSpec } from "./operation-spec";
import type { RateLimit } from "./response-headers";
import type { CallOptions } from "./send";
import type { StreamClient, StreamClientOptions } from "../stream-client/stream-client";

type RouteTable = typeof operations;
type SchemaTable = typeof operationSchemas;
/** Every route: what a call needs (`operations`) and its schemas (`operationSchemas`), by method name. */
export type Operations = { [K in keyof RouteTable & keyof SchemaTable]: RouteTable[K] & SchemaTable[K] };
export type OperationName = keyof Operations;

/** What a parameter is sent as: the schema's input, or its output where the input is untyped (preprocessed strings). */
type Wire<I, O> = unknown extends I ? Exclude<O, undefined> : Exclude<I, undefined>;
/** Comma-separated parameters (symbols, dates) also take a list. */
type Listable<T> = T extends string ? T | readonly string[] : T;

/** The parameters of a schema as a caller writes them (optional where the server has a default or none is needed). */
export type ParamsOf<S extends z.ZodType> = {
  [K in keyof z.input<S>]: Listable<Wire<z.input<S>[K], K extends keyof z.output<S> ? z.output<S>[K] : never>>;
};

type PathParams<Op> = Op extends { params: infer P extends z.ZodType } ? ParamsOf<P> : unknown;

/** The query (and path parameters) of an operation. */
export type RequestOf<Op extends OperationSpec> = ParamsOf<Op["query"]> & PathParams<Op>;

type MetaOf<Op> = Op extends { meta: infer M extends z.ZodType } ? z.output<M> : Op extends { envelope: true } ? Record<string, unknown> : undefined;

/** A success: the body's `data` (the whole body on UDF and description routes) and what its headers say. */
export interface ApiResponse<D, M> {
  data: D;
  meta: M;
  status: number;
  /** `X-Request-Id`. */
  requestId: string | null;
  /** `X-Credits-Remaining` after this call (null on routes that do not send it). */
  creditsRemaining: number | null;
  /** `X-RateLimit-*`. */
  rateLimit: RateLimit | null;
  /** Attempts it took (retries + 1). */
  attempts: number;
  headers: Headers;
}

export type ResponseOf<Op extends OperationSpec> = ApiResponse<z.output<Op["data"]>, MetaOf<Op>>;

/** True when every parameter is optional (the argument may be left out). */
// biome-ignore lint/complexity/noBannedTypes: `{}` is the empty object type on purpose: it extends T exactly when every key of T is optional
type AllOptional<T> = {} extends T ? true : false;
type Args<Op extends OperationSpec> =
  AllOptional<RequestOf<Op>> extends true ? [request?: RequestOf<Op>, options?: CallOptions] : [request: RequestOf<Op>, options?: CallOptions];

/** Stream options the caller may set (everything but what the client fills in). */
export type StreamOptions = Omit<StreamClientOptions, "baseUrl" | "apiKey" | "symbols" | "params" | "path" | "fetch">;

type RestMethod<Op extends OperationSpec> = (...args: Args<Op>) => Promise<ResponseOf<Op>>;
type SseMethod<Op extends OperationSpec> = (request: RequestOf<Op>, options?: StreamOptions) => StreamClient;
type WsMethod<Op extends OperationSpec> = (request: RequestOf<Op>) => WebSocket;

type MethodOf<Op extends OperationSpec> = Op extends { kind: "stream" } ? (Op extends { transport: "ws" } ? WsMethod<Op> : SseMethod<Op>) : RestMethod<Op>;

type PagedName = { [K in OperationName]: Operations[K] extends { paging: "cursor" | "offset" | "cursor+offset" } ? K : never }[OperationName];

/** Page iterators of the paged routes: `<method>Pages(request)` yields each page's response. */
type PageMethods = {
  [K in PagedName as `${K & string}Pages`]: (request: RequestOf<Operations[K]>, options?: CallOptions) => AsyncIterableIterator<ResponseOf<Operations[K]>>;
};

/** The typed client: one method per route of the server's table. */
export type OptionscopeClient = { [K in OperationName]: MethodOf<Operations[K]> } & PageMethods;
