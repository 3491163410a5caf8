// The chart page on the atlas host: `{atlas_url}/chart?symbol=SPY&resolution=D`. Free and keyless
// (the page asks for the key and sends it on its own API calls); not part of the /v1 API.
import type { AppServices } from "../services";
import { bundleUnavailable, servedAsset } from "./bundle";
import { chartHtml } from "./chart-html";
import { lightweightChartsSource } from "./lightweight-charts-asset";
import { CHART_SCRIPT, UDF_KEY_SCRIPT } from "./page-scripts";

/** A non-API page or asset served by a host app (registered by `buildHostApp`). */
export interface WebPage {
  host: "base" | "atlas";
  /** Path under the host's prefix. */
  path: string;
  /** The response, or its promise (h3 awaits it). */
  handle(request: Request, services: AppServices): Response | Promise<Response>;
}

const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

function text(body: string, contentType: string, cacheControl: string, extra: Record<string, string> = {}): Response {
  return new Response(body, {
    status: 200,
    headers: { "Content-Type": contentType, "Cache-Control": cacheControl, "X-Content-Type-Options": "nosniff", ...extra },
  });
}

/** The path prefix the page was reached under (`/atlas`, or "" when the host is matched by name). */
function basePath(request: Request): string {
  return new URL(request.url).pathname.replace(/\/chart(\/.*)?$/, "");
}

/** The chart page, its script (the bundle of chart/app/main.ts: ./bundle.ts) and the charting library. */
export const chartPages: WebPage[] = [
  {
    host: "atlas",
    path: "/chart",
    handle: (request, services) =>
      text(chartHtml({ base: basePath(request), simulated: services.market.simulated }), "text/html; charset=utf-8", "no-cache", {
        "Content-Security-Policy": PAGE_CSP,
        "Referrer-Policy": "no-referrer",
      }),
  },
  {
    host: "atlas",
    path: "/chart/app.js",
    handle: () =>
      servedAsset(CHART_SCRIPT).then(
        (asset) => text(asset.js, "text/javascript; charset=utf-8", "no-cache"),
        () => bundleUnavailable("chart"),
      ),
  },
  {
    // The key for TradingView's own UDF datafeed, loaded by script tag (docs/tradingview.md).
    host: "atlas",
    path: "/chart/udf-key.js",
    handle: () =>
      servedAsset(UDF_KEY_SCRIPT).then(
        (asset) => text(asset.js, "text/javascript; charset=utf-8", "no-cache"),
        () => bundleUnavailable("udf-key"),
      ),
  },
  {
    host: "atlas",
    path: "/chart/lightweight-charts.js",
    handle: () => {
      const source = lightweightChartsSource();
      if (source === null) {
        return new Response("// lightweight-charts is not installed (npm install lightweight-charts)\n", {
          status: 503,
          headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-store" },
        });
      }
      return text(source, "text/javascript; charset=utf-8", "public, max-age=86400");
    },
  },
];
