import type { z } from "zod";
import { servedOn } from "../http/host-app";
import type { AnyRoute, RouteModule } from "../modules/define-route";
import { packageVersion } from "../version";
import { exampleOf } from "./examples";
import { defaultOf, isOptional, jsonSchemaOf } from "./json-schema";

/** The three machine-readable descriptions (spec, Versioning, rule 2). */
export type DocumentKind = "base" | "flow" | "atlas";

/** What each API module contributes to a document's title and summary. */
const MODULE_BLURBS: Partial<Record<RouteModule, string>> = {
  positioning: "per-strike gamma and vanna exposure, node classification, key levels, replay and daily statistics",
  volatility: "volatility analytics",
  account: "the account",
  flow: "scored options flow, contract and ticker analytics, market overview and off-exchange prints",
  price: "OHLCV bars and symbol information following the charting UDF convention",
};

/** Module names in title order. */
const MODULE_TITLES: Partial<Record<RouteModule, string>> = {
  positioning: "positioning",
  volatility: "volatility",
  account: "account",
  flow: "flow",
  price: "price",
};

/** The module a document is about when it serves no operation of it yet. */
const DOCUMENT_MODULE: Record<DocumentKind, RouteModule> = { base: "positioning", flow: "flow", atlas: "price" };

const joinWords = (words: string[]) => (words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`);
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Title and summary of a document, from the modules it actually serves (the API descriptions
 * themselves, module `meta`, do not count): a module that is not served is not announced.
 */
function describeDocument(kind: DocumentKind, selected: readonly AnyRoute[]): { title: string; summary: string } {
  // `/v1/account` is declared by the meta module; it is the account API.
  const served = new Set(selected.map((r) => (r.path === "/v1/account" ? "account" : r.module)));
  const modules = (Object.keys(MODULE_TITLES) as RouteModule[]).filter((m) => served.has(m));
  if (modules.length === 0) {
    const name = MODULE_TITLES[DOCUMENT_MODULE[kind]]!;
    return { title: `optionscope API: ${name}`, summary: `The ${name} module is not served by this version; this document lists no operation yet.` };
  }
  return {
    title: `optionscope API: ${joinWords(modules.map((m) => MODULE_TITLES[m]!))}`,
    summary: `${capitalised(modules.map((m) => MODULE_BLURBS[m]!).join("; "))}.`,
  };
}

/** Status codes every keyed route may answer, with what they mean here. */
const ERROR_RESPONSES: Record<string, string> = {
  "400": "Invalid request: `invalid_parameter`, `missing_parameter` or `range_too_large`.",
  "401": "No `Authorization` header (`unauthorized`).",
  "402": "Out of credits or a cap reached (`insufficient_credits`, `daily_cap_reached`, `monthly_cap_reached`).",
  "403": "Unknown, revoked or expired key (`forbidden`), suspended or blocked account, or data not enabled.",
  "404": "Unknown symbol or nothing to return.",
  "405": "Method other than GET (`method_not_allowed`).",
  "429": "Rate limit (`rate_limited`) or too many requests in flight (`too_many_concurrent_requests`).",
  "500": "Server fault (`internal_error`).",
  "503": "Temporarily unavailable (`credit_check_failed`, `unavailable`).",
  "504": "Not finished within the request time limit (`gateway_timeout`).",
};

function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

function parameters(schema: z.ZodObject | undefined, where: "query" | "path"): unknown[] {
  if (!schema) return [];
  const out: unknown[] = [];
  for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const js = jsonSchemaOf(field, "input");
    const description = typeof js.description === "string" ? js.description : undefined;
    delete js.description;
    const def = defaultOf(field);
    if (def !== undefined) js.default = def;
    const examples = Array.isArray(js.examples) ? js.examples : undefined;
    delete js.examples;
    out.push({
      name,
      in: where,
      required: where === "path" ? true : !isOptional(field),
      ...(description ? { description } : {}),
      schema: js,
      ...(examples && examples.length > 0 ? { example: examples[0] } : {}),
    });
  }
  return out;
}

const RATE_HEADERS = {
  "X-RateLimit-Limit": { description: "Requests per minute allowed for this key.", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left in the current minute.", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Unix seconds when the window resets.", schema: { type: "integer" } },
};

function operation(route: AnyRoute): Record<string, unknown> {
  const envelope = route.envelope !== false;
  const body = envelope
    ? {
        type: "object",
        required: ["data", "meta"],
        properties: {
          data: jsonSchemaOf(route.data, "output"),
          meta: route.meta ? jsonSchemaOf(route.meta, "output") : { type: "object" },
        },
      }
    : jsonSchemaOf(route.data, "output");
  const keyed = route.auth !== "none";
  const cost = typeof route.cost === "number" ? route.cost : undefined;
  const headers: Record<string, unknown> = { ...RATE_HEADERS };
  if (cost !== 0 && keyed) {
    headers["X-Credits-Remaining"] = { description: "Credit balance after this call.", schema: { type: "integer" } };
  }
  // A real answer of the simulated market (server/openapi/examples.ts), when the build made one.
  const example = exampleOf(route);
  const content = { "application/json": { schema: body, ...(example ? { example: example.body } : {}) } };
  const responses: Record<string, unknown> = {
    "200": { description: example ? `Success. Example: the simulated market's answer to \`GET ${example.request}\`.` : "Success.", headers, content },
  };
  for (const [status, description] of Object.entries(ERROR_RESPONSES)) {
    if (!keyed && ["401", "402", "403"].includes(status)) continue;
    responses[status] = {
      description,
      headers: RATE_HEADERS,
      content: { "application/json": { schema: { $ref: route.host === "atlas" ? "#/components/schemas/PriceError" : "#/components/schemas/Error" } } },
    };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    tags: route.tags,
    "x-credits": cost ?? "varies",
    ...(keyed ? {} : { security: [] }),
    parameters: [...parameters(route.params, "path"), ...parameters(route.query, "query")],
    responses,
  };
}

/**
 * One OpenAPI 3.1 document from the route table: `base` (everything on {base_url} but the flow
 * module), `flow` (the flow module), `atlas` (the price module).
 * @example buildOpenApiDocument(allRoutes, "base", { serverUrl: "http://localhost:8080" }).openapi // "3.1.0"
 */
export function buildOpenApiDocument(routes: readonly AnyRoute[], kind: DocumentKind, options: { serverUrl?: string; version?: string } = {}): Record<string, unknown> {
  const selected = routes.filter((r) => (kind === "base" ? r.host === "base" : kind === "flow" ? servedOn(r, "flowAlias") : servedOn(r, "atlas")));
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of selected) {
    const p = openApiPath(route.path);
    paths[p] ??= {};
    paths[p][route.method.toLowerCase()] = operation(route);
  }
  const tags = [...new Set(selected.flatMap((r) => r.tags))].map((name) => ({ name }));
  const { title, summary } = describeDocument(kind, selected);
  return {
    openapi: "3.1.0",
    info: {
      title,
      summary,
      version: options.version ?? packageVersion(),
      description:
        "Send `Authorization: Bearer <key>` on every call (a bare key is also accepted). Costs are in credits " +
        "(`x-credits`); failed calls are refunded. Data from the embedded simulator is labelled `simulated`.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: options.serverUrl ?? "http://localhost:8080" }],
    security: [{ bearerApiKey: [] }],
    tags,
    paths,
    components: {
      securitySchemes: {
        bearerApiKey: {
          type: "http",
          scheme: "bearer",
          description: "API key in the Authorization header; the bare key is accepted too. X-API-Key and query keys are not read.",
        },
      },
      schemas: {
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["code", "message"],
              properties: {
                code: { type: "string", description: "Stable code; compare case-insensitively." },
                message: { type: "string", description: "For people; wording may change." },
                retry_after: { type: "integer" },
                docs_url: { type: "string" },
              },
            },
          },
        },
        PriceError: {
          type: "object",
          required: ["s", "errmsg", "error"],
          properties: {
            s: { type: "string", const: "error" },
            errmsg: { type: "string" },
            error: { $ref: "#/components/schemas/Error/properties/error" },
          },
        },
      },
    },
  };
}
