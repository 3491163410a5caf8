import { OpenApiDocumentSchema } from "../../../lib/api/account";
import { EmptyQuerySchema } from "../../../lib/api/common";
import { memoizeJsonText } from "../../http/json-body";
import { buildOpenApiDocument, type DocumentKind } from "../../openapi/build-document";
import type { RouteContext } from "../define-route";
import { httpRequestOf } from "../http-request";
import { metaRoute, type MetaState } from "./meta-route";

function serveDocument(kind: DocumentKind, routePath: string) {
  return (ctx: RouteContext<unknown, unknown, MetaState>) => {
    const url = new URL(httpRequestOf(ctx.request).url);
    // The flow document is also served at `/v1/openapi.json` on the flow alias (server/http/host-app.ts).
    const served = url.pathname.endsWith(routePath) ? routePath : url.pathname.endsWith("/v1/openapi.json") ? "/v1/openapi.json" : "";
    const prefix = served ? url.pathname.slice(0, -served.length) : "";
    const serverUrl = (ctx.services.publicBaseUrl ?? url.origin) + prefix;
    const cache = ctx.state.documents;
    const key = `${kind} ${serverUrl}`;
    let doc = cache.get(key);
    if (!doc) {
      const built = buildOpenApiDocument(ctx.services.routes, kind, { serverUrl });
      // Indented: the document is read by people too (the same JSON value as the compact form).
      doc = memoizeJsonText(built, JSON.stringify(built, null, 2));
      cache.set(key, doc);
    }
    return { data: doc };
  };
}

const common = {
  method: "GET" as const,
  cost: 0,
  entitlement: "none" as const,
  auth: "none" as const,
  query: EmptyQuerySchema,
  data: OpenApiDocumentSchema,
  envelope: false,
  cacheControl: "public, max-age=300",
  tags: ["Meta"],
};

/** `GET /v1/openapi.json` on {base_url}: every module served there but flow. Free, no key. */
export const openApiBaseRoute = metaRoute({
  ...common,
  host: "base",
  module: "meta",
  path: "/v1/openapi.json",
  operationId: "getOpenAPI",
  summary: "This API description (OpenAPI 3.1)",
  description: "The machine-readable description of the endpoints on this host (every module but flow and price). Needs no key; free.",
  handler: serveDocument("base", "/v1/openapi.json"),
});

/** `GET /v1/flow/openapi.json`: the flow module. Free, no key (the spec leaves its cost open). */
export const openApiFlowRoute = metaRoute({
  ...common,
  host: "flow",
  module: "meta",
  path: "/v1/flow/openapi.json",
  operationId: "getFlowOpenAPI",
  summary: "The flow module's API description (OpenAPI 3.1)",
  description: "The machine-readable description of the flow endpoints. Needs no key; free.",
  handler: serveDocument("flow", "/v1/flow/openapi.json"),
});

/** `GET /v1/openapi.json` on {atlas_url}: the price module. Free, no key. */
export const openApiPriceRoute = metaRoute({
  ...common,
  host: "atlas",
  module: "meta",
  path: "/v1/openapi.json",
  operationId: "getPriceOpenAPI",
  summary: "The price module's API description (OpenAPI 3.1)",
  description: "The machine-readable description of the price (bars and symbol info) endpoints. Needs no key; free.",
  handler: serveDocument("atlas", "/v1/openapi.json"),
});
