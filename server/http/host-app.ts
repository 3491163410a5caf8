import { ATTRIBUTION_HEADER, attributionHeaderValue } from "../attribution";
import { H3, type H3Event } from "h3";
import { ApiError, apiErrors } from "../errors";
import type { AnyRoute } from "../modules/define-route";
import { mountedRoutes } from "../modules/define-module";
import type { AppServices } from "../services";
import { preflightResponse } from "./cors";
import { HeaderBag } from "./header-bag";
import { authenticateAndLimit, createRouteHandler, newRequestId } from "./route-handler";
import { renderError, type ErrorStyle } from "./render-error";
import { PROMETHEUS_CONTENT_TYPE } from "../metrics/registry";

/** The REST hosts of DESIGN section 4 (the MCP host is a mounted fetch handler). */
export type RestHost = "base" | "flowAlias" | "atlas";

/** How each REST host spells errors that belong to no route (404, 405, malformed URLs). */
export const HOST_STYLE: Record<RestHost, ErrorStyle> = { base: "lower", flowAlias: "flow", atlas: "price" };

/** The route whose answer the flow alias also serves at `/v1/openapi.json`. */
const FLOW_DOCUMENT_OPERATION = "getFlowOpenAPI";

/** Whether a route is served on a host: flow routes are on the base host and the flow alias. */
export function servedOn(route: AnyRoute, host: RestHost): boolean {
  if (host === "base") return route.host === "base" || route.host === "flow";
  if (host === "flowAlias") return route.host === "flow";
  return route.host === "atlas";
}

/** True when a path has percent-encoding that does not decode. */
function isMalformedPath(pathname: string): boolean {
  if (!pathname.includes("%")) return false;
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

/**
 * One h3 app for one host, its routes registered under `prefix` ("" when matched by host name).
 * Every method reaches the route's pipeline (which answers 405 itself, since h3 would say 404);
 * anything unrouted answers an enveloped 404 with rate-limit headers.
 */
export function buildHostApp(host: RestHost, prefix: string, services: AppServices): H3 {
  const style = HOST_STYLE[host];
  const app = new H3({
    silent: true,
    allowMalformedURL: true,
    onError: (error, event) => renderError(error, { style, method: event.req.method }),
  });
  for (const { route, state } of mountedRoutes(services.modules)) {
    if (!servedOn(route, host)) continue;
    const handle = createRouteHandler(route, state, services);
    app.all(prefix + route.path, (event: H3Event) => {
      if (isMalformedPath(event.url.pathname)) return fallback(event);
      return handle(event);
    });
    // The flow alias is the reference's legacy flow host, whose document is at `/v1/openapi.json`
    // (docs/api.md#openapi-documents): the flow document is served there too.
    if (host === "flowAlias" && route.operationId === FLOW_DOCUMENT_OPERATION) app.all(prefix + "/v1/openapi.json", (event: H3Event) => handle(event));
  }
  // Prometheus metrics, only when the server was started with them (docs/operations.md#metrics).
  const metrics = services.metrics;
  if (host === "base" && services.serveMetrics && metrics) {
    app.get(
      prefix + "/metrics",
      () => new Response(metrics.render(), { status: 200, headers: { "Content-Type": PROMETHEUS_CONTENT_TYPE, "Cache-Control": "no-store" } }),
    );
  }
  // Non-API pages (the price module's chart page): GET only, no key, no charge.
  for (const page of services.modules.flatMap((m) => m.def.pages ?? [])) {
    if (page.host !== host) continue;
    app.get(prefix + page.path, (event: H3Event) => page.handle(event.req, services));
  }
  const fallback = async (event: H3Event): Promise<Response> => {
    if (event.req.method === "OPTIONS") return preflightResponse();
    const headers = new HeaderBag({ "X-Request-Id": newRequestId(), [ATTRIBUTION_HEADER]: attributionHeaderValue(services.market.simulated) });
    try {
      // A valid key counts against that key; anything else against the caller's IP.
      await authenticateAndLimit(services, headers, event.req, "optional");
      if (isMalformedPath(event.url.pathname)) {
        throw new ApiError(400, "invalid_request", "Malformed percent-encoding in the URL path.");
      }
      throw apiErrors.notFound();
    } catch (error) {
      return renderError(error, { style, headers, method: event.req.method });
    }
  };
  app.all(prefix === "" ? "/**" : `${prefix}/**`, fallback);
  app.all(prefix === "" ? "/" : prefix, fallback);
  return app;
}
