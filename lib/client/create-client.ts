/**
 * `createClient`: the typed API client, one method per route of the server's table
 * (operations.generated.ts), isomorphic (fetch, AbortSignal, timers). See docs/api.md#typed-client.
 * Nothing here imports a schema: the route table holds what a call needs, and the schemas load
 * only when responses are validated (docs/methodology.md#package-budgets).
 */
import { openStream } from "../stream-client/stream-client";
import { RETRY_DEFAULTS } from "../stream-client/backoff";
import type { OperationRoute, ResponseSchemas } from "./operation-spec";
import { operations } from "./operations.generated";
import { pages } from "./paging";
import { RateLimitPacer, type RateLimitPacing } from "./pacing";
import { send, type CallOptions, type Transport } from "./send";
import type { ApiResponse, OptionscopeClient, StreamOptions } from "./types";

export interface ClientOptions {
  /** `{base_url}`, e.g. `https://api.example.com` or `http://localhost:8080`. */
  baseUrl: string;
  apiKey: string;
  /** `{atlas_url}` (price module); default `${baseUrl}/atlas`, the one-port layout. */
  atlasUrl?: string;
  /** Default: `globalThis.fetch`. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Defaults for every call (each overridable per call). */
  timeoutMs?: number;
  deadlineMs?: number;
  maxAttempts?: number;
  /** Backoff ceilings, ms (spec: 1 s doubling to 30 s). */
  baseBackoffMs?: number;
  capBackoffMs?: number;
  /** Uniform [0, 1) source of the jitter; inject for tests. */
  random?: () => number;
  /**
   * Check each success against the route's `data` schema (the call rejects with a ZodError on a
   * mismatch). `true` loads the generated schema table on the first call (Node, unbundled ESM);
   * a bundled page passes the table itself, `operationSchemas` from `optionscope/client/schemas`,
   * so the schemas are in its bundle only when it validates. See docs/api.md#typed-client.
   */
  validateResponses?: boolean | ResponseSchemas;
  /**
   * Self-pacing on `X-RateLimit-Remaining` (spec retry guidance rule 4): while the headers say no
   * request is left (or no more than `reserve`), calls wait until `X-RateLimit-Reset` instead of
   * drawing a 429. On by default (`reserve: 0`); `false` turns it off. See lib/client/pacing.ts.
   */
  rateLimitPacing?: RateLimitPacing | false;
  /** WebSocket constructor for the `/v1/stream/ws` method; default `globalThis.WebSocket`. */
  WebSocket?: typeof WebSocket;
}

const trimSlash = (s: string) => s.replace(/\/+$/, "");

// The schema table's module, named through a constant so that bundlers neither follow nor inline
// it: `import { createClient }` stays free of zod and of every route's schema (a literal
// `import()` is bundled into the client's own file by esbuild). Resolved from this module's URL:
// the sibling file in the package, the source file under tsx and vitest.
const SCHEMAS_MODULE = "./operation-schemas.generated.js";
let schemaTable: Promise<ResponseSchemas> | undefined;

/** The generated schema table, imported once per process (a failed import is retried next call). */
function loadSchemaTable(): Promise<ResponseSchemas> {
  schemaTable ??= import(/* @vite-ignore */ /* webpackIgnore: true */ SCHEMAS_MODULE).then(
    (m: { operationSchemas: ResponseSchemas }) => m.operationSchemas,
    (error: unknown) => {
      schemaTable = undefined;
      throw new Error(
        `validateResponses: true could not load the schema table (${error instanceof Error ? error.message : String(error)}); in a bundled page pass validateResponses: operationSchemas, exported by optionscope/client/schemas.`,
        { cause: error },
      );
    },
  );
  return schemaTable;
}

/** A parameter value on the wire: lists comma-joined, dates as RFC 3339. */
function wireValue(value: unknown): string {
  if (Array.isArray(value)) return value.join(",");
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/**
 * Split a request into path parameters (filled into `:name` segments, the keys of the route's
 * params schema: test/client/generated.test.ts) and the query string.
 */
function buildUrl(root: string, spec: OperationRoute, request: Record<string, unknown> = {}): string {
  const pathKeys = new Set<string>();
  const path = spec.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const v = request[name];
    if (v === undefined) throw new TypeError(`${spec.operationId}: path parameter ${name} is required.`);
    pathKeys.add(name);
    return encodeURIComponent(wireValue(v));
  });
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(request)) if (value !== undefined && !pathKeys.has(key)) query.set(key, wireValue(value));
  const qs = query.toString();
  return `${root}${path}${qs ? `?${qs}` : ""}`;
}

/**
 * A client for one key.
 * @example
 * const api = createClient({ baseUrl: "http://localhost:8080", apiKey });
 * const { data, creditsRemaining } = await api.getHeatmap({ symbols: ["SPXW", "SPY"], metric: "gamma" });
 */
export function createClient(options: ClientOptions): OptionscopeClient {
  const baseUrl = trimSlash(options.baseUrl);
  const atlasUrl = trimSlash(options.atlasUrl ?? `${baseUrl}/atlas`);
  const doFetch = options.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));
  const transport: Transport = {
    fetch: doFetch,
    nowMs: () => Date.now(),
    random: options.random ?? Math.random,
    baseBackoffMs: options.baseBackoffMs ?? RETRY_DEFAULTS.baseMs,
    capBackoffMs: options.capBackoffMs ?? RETRY_DEFAULTS.capMs,
    defaults: {
      timeoutMs: options.timeoutMs ?? 30_000,
      deadlineMs: options.deadlineMs ?? 120_000,
      maxAttempts: options.maxAttempts ?? RETRY_DEFAULTS.maxAttempts,
    },
    // One pacer for every host: the limit counts the key's requests on all of them together.
    pacer: options.rateLimitPacing === false ? undefined : new RateLimitPacer(options.rateLimitPacing),
  };
  const rootOf = (spec: OperationRoute) => (spec.host === "atlas" ? atlasUrl : baseUrl);
  const validate = options.validateResponses;
  const schemasFor = validate === true ? loadSchemaTable : validate ? () => Promise.resolve(validate) : null;

  const call = async (name: string, spec: OperationRoute, request: Record<string, unknown> = {}, callOptions?: CallOptions): Promise<ApiResponse<unknown, unknown>> => {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (spec.auth === "key") headers.Authorization = `Bearer ${options.apiKey}`;
    const sent = await send(transport, buildUrl(rootOf(spec), spec, request), headers, callOptions);
    const body = sent.body as { data?: unknown; meta?: unknown } | null;
    const data = spec.envelope ? body?.data : sent.body;
    const meta = spec.envelope ? body?.meta : undefined;
    if (schemasFor) (await schemasFor())[name]?.data.parse(data);
    const { status, requestId, creditsRemaining, rateLimit, attempts } = sent;
    return { data, meta, status, requestId, creditsRemaining, rateLimit, attempts, headers: sent.headers };
  };

  const openSse = (spec: OperationRoute, request: Record<string, unknown>, streamOptions: StreamOptions = {}) => {
    const { symbols, ...rest } = request;
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(rest)) if (v !== undefined) params[k] = wireValue(v);
    return openStream({
      ...streamOptions,
      baseUrl: rootOf(spec),
      apiKey: options.apiKey,
      symbols: Array.isArray(symbols) ? symbols.map(String) : String(symbols ?? ""),
      params,
      path: spec.path,
      fetch: doFetch,
    });
  };

  const openWs = (spec: OperationRoute, request: Record<string, unknown>) => {
    const Ws = options.WebSocket ?? globalThis.WebSocket;
    if (!Ws) throw new TypeError(`${spec.operationId}: no WebSocket constructor here; pass createClient({ WebSocket }).`);
    const url = buildUrl(rootOf(spec), spec, request).replace(/^http/, "ws");
    // Browsers cannot set Authorization on a WebSocket: the key rides in the subprotocol (docs/api.md#stream-websocket).
    return new Ws(url, ["optionscope.stream.v1", `bearer.${options.apiKey}`]);
  };

  const client: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(operations) as [string, OperationRoute][]) {
    if (spec.kind === "stream") {
      client[name] = spec.transport === "ws" ? (r: Record<string, unknown>) => openWs(spec, r) : (r: Record<string, unknown>, o?: StreamOptions) => openSse(spec, r, o);
      continue;
    }
    client[name] = (r?: Record<string, unknown>, o?: CallOptions) => call(name, spec, r, o);
    if (spec.paging) client[`${name}Pages`] = (r: Record<string, unknown> = {}, o?: CallOptions) => pages((req) => call(name, spec, req, o), spec.paging, r);
  }
  return client as OptionscopeClient;
}
