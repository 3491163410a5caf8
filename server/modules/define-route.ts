import type { z } from "zod";
import type { Entitlement, Principal } from "../accounts/types";
import type { AppServices } from "../services";

/**
 * Which host serves a route: `base` ({base_url}), `flow` (the flow module: {base_url} and
 * {flow_alias_url}), `atlas` ({atlas_url}, the price module).
 */
export type RouteHost = "base" | "flow" | "atlas";

/** Group a route belongs to in the OpenAPI documents and docs. */
export type RouteModule = "positioning" | "volatility" | "account" | "meta" | "flow" | "price";

/**
 * What a handler receives. `query` and `params` are the validated outputs of the schemas; path
 * parameters are percent-decoded before validation (`executeRoute`).
 */
export interface RouteContext<Q, P, S = unknown> {
  query: Q;
  params: P;
  /** The caller; null only on routes with `auth: "none"`. */
  principal: Principal | null;
  requestId: string;
  /** Aborted on client disconnect or when the request time limit passes. */
  signal: AbortSignal;
  /** The market clock's "now" when the request started (ms): pinned by OPTIONSCOPE_NOW in tests. */
  nowMs: number;
  /** App-wide services (market, accounts, limits, clock, kernels). */
  services: AppServices;
  /** The state of the route's own module (`defineModule({ createState })`): caches, pools. */
  state: S;
  /**
   * The HTTP request when the call came over HTTP; null for a tool call. Only stream routes and
   * the API descriptions read it (headers, upgrade, the served origin).
   */
  request: Request | null;
}

/** What a handler returns: `data` and `meta` of the envelope (or a raw body when `envelope: false`). */
export interface RouteResult {
  data: unknown;
  meta?: Record<string, unknown>;
  /** Overrides the route's `Cache-Control` for this response. */
  cacheControl?: string;
  /** Extra headers (for example price-module cache rules). */
  headers?: Record<string, string>;
  /**
   * A raw response sent as is after the pipeline's checks and debit (event streams, WebSocket
   * upgrades); the pipeline adds its headers (request id, rate limit, credits, CORS).
   */
  response?: Response;
}

/**
 * `rest`: one request, one answer (an MCP tool too, unless `auth: "none"`). `stream`: an event
 * stream (SSE or WebSocket) opened by the request; never a tool, since a tool call has one result.
 */
export type RouteKind = "rest" | "stream";

/** One endpoint, declared once (DESIGN section 3). `S` is the state of the route's module. */
export interface RouteDef<QS extends z.ZodObject = z.ZodObject, PS extends z.ZodObject = z.ZodObject, S = unknown> {
  /** Default `rest`. */
  kind?: RouteKind;
  host: RouteHost;
  module: RouteModule;
  method: "GET";
  /** h3 path syntax: `/v1/flow/:ticker`; the OpenAPI documents render `{ticker}`. */
  path: string;
  /** Stable OpenAPI operationId (reference names where they exist). */
  operationId: string;
  /** Credits per call, fixed or from the validated query. */
  cost: number | ((query: z.output<QS>) => number);
  /** `none` for free routes that still need a key (`/v1/account`). */
  entitlement: Entitlement;
  /** `none`: no key read at all (the OpenAPI documents). Default `key`. */
  auth?: "key" | "none";
  /**
   * Where the credentials are, when not only in `Authorization` (the WebSocket stream also reads
   * the `Sec-WebSocket-Protocol` bearer form). Returns an `Authorization`-style value or null.
   */
  credentials?: (request: Request) => string | null;
  /** Query parameters with the spec's bounds, defaults and enums. */
  query: QS;
  /** Path parameters (flow routes such as `{ticker}`), validated after percent-decoding. */
  params?: PS;
  /** Unknown query parameters: ignored (default) or a 400 (`reject`, the volatility screener). */
  unknownQuery?: "ignore" | "reject";
  /**
   * The symbols a call asks for (checked against the plan by `assertEntitled`) and, with
   * `symbolsLimit`, counted against `limits.symbolsPerHeatmapCall`.
   */
  symbolsOf?: (query: z.output<QS>, params: z.output<PS>) => readonly string[];
  /** Per-plan ceiling on `symbolsOf(...)`; over it is 400 `invalid_parameter` (never truncated). */
  symbolsLimit?: { param: string; max: (p: Principal) => number };
  /**
   * Per-account in-flight slots (for example historical replays). `code` picks the 429: the
   * default `too_many_concurrent_requests`, or the flow module's `too_many_concurrent_queries`
   * (with `retry_after` and `docs_url`).
   */
  concurrency?: {
    kind: string;
    max: (p: Principal) => number;
    retryAfterS: number;
    code?: "too_many_concurrent_requests" | "too_many_concurrent_queries";
  };
  /** The route's time limit, ms (then 504 `gateway_timeout`); never above the app's `requestTimeoutMs`. */
  timeoutMs?: number;
  /** Cross-field rules after each parameter validated (throws `ApiError`, e.g. `range_too_large`). */
  check?: (query: z.output<QS>, ctx: { nowMs: number }) => void;
  /** Schema of `data` (the OpenAPI response and the typed client). */
  data: z.ZodType;
  /** Schema of `meta` (optional). */
  meta?: z.ZodType;
  /** Default true: `{data, meta}`. False: the handler's `data` is the whole body (OpenAPI, UDF). */
  envelope?: boolean;
  /** `Cache-Control` of a success (default `private, no-cache`). */
  cacheControl?: string;
  summary: string;
  description: string;
  tags: string[];
  handler: (ctx: RouteContext<z.output<QS>, z.output<PS>, S>) => RouteResult | Promise<RouteResult>;
}

/** A route of any query shape (the registry's element type). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
// biome-ignore lint/suspicious/noExplicitAny: a route of any query, data and services type; `unknown` would reject their handlers (parameters are contravariant)
export type AnyRoute = RouteDef<any, any, any>;

/**
 * Declare an endpoint. Identity at runtime; it exists so TypeScript infers the handler's query
 * type from the schema.
 * @example defineRoute({ host: "base", module: "account", method: "GET", path: "/v1/account", ... })
 */
export function defineRoute<QS extends z.ZodObject, PS extends z.ZodObject = z.ZodObject, S = unknown>(route: RouteDef<QS, PS, S>): RouteDef<QS, PS, S> {
  return route;
}

/**
 * `defineRoute` bound to one module's state type, so its handlers see `ctx.state` typed.
 * @example export const positioningRoute = routeDefiner<PositioningState>();
 */
export function routeDefiner<S>() {
  return <QS extends z.ZodObject, PS extends z.ZodObject = z.ZodObject>(route: RouteDef<QS, PS, S>): RouteDef<QS, PS, S> => route;
}

/** True for routes offered as MCP tools: keyed, one answer per call (no streams, no descriptions). */
export function isToolRoute(route: AnyRoute): boolean {
  return route.auth !== "none" && (route.kind ?? "rest") === "rest";
}

/**
 * The credits a call costs. Anything but a finite non-negative integer is a defect of the route
 * (a lookup gone wrong once priced a call at NaN and served it free): it throws, so the executor
 * answers a logged 500 and never serves the call.
 */
export function routeCost(route: AnyRoute, query: unknown): number {
  const cost = typeof route.cost === "function" ? route.cost(query) : route.cost;
  if (!Number.isSafeInteger(cost) || cost < 0) throw new Error(`route ${route.path} computed cost ${String(cost)}, not a non-negative integer`);
  return cost;
}
