// The heatmap page on {base_url}: `/heatmap?symbol=SPY`, and its script `/heatmap/app.js`
// (../bundle.ts: prebuilt in the package, built on first use from source). Free and keyless like the
// chart page: the page sends the key on its own API calls.
import { acceptsGzip } from "../../http/route-handler";
import type { AppServices } from "../../services";
import type { WebPage } from "../chart-page";
import { type BrowserAsset, buildBrowserBundle, bundleUnavailable, servedAsset } from "../bundle";
import { HEATMAP_SCRIPT } from "../page-scripts";
import { HEATMAP_BOOT_CSP_HASH } from "./boot-script";
import { heatmapHtml } from "./heatmap-html";

// WASM compiles need 'wasm-unsafe-eval'; the config block is JSON (never executed); the one inline
// script is the boot script, allowed by its hash.
const PAGE_CSP =
  `default-src 'self'; script-src 'self' 'wasm-unsafe-eval' ${HEATMAP_BOOT_CSP_HASH}; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; ` +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * An entry bundled for browsers (the static build's; by default the served page's).
 * @example await heatmapBundle(resolve("server/web/heatmap/app/static-entry.ts"))
 */
export async function heatmapBundle(entry = HEATMAP_SCRIPT.entry): Promise<string> {
  return entry === HEATMAP_SCRIPT.entry ? (await servedAsset(HEATMAP_SCRIPT)).js : buildBrowserBundle(entry);
}

/** The path prefix the page was reached under ("" when the host is matched by name). */
function basePath(request: Request): string {
  return new URL(request.url).pathname.replace(/\/heatmap(\/.*)?$/, "");
}

/** The script's URL: content-addressed (`?v=hash`), so browsers keep it without asking again. */
function scriptSrc(base: string, asset: BrowserAsset | null): string {
  return `${base}/heatmap/app.js${asset ? `?v=${asset.hash}` : ""}`;
}

const IMMUTABLE = "public, max-age=31536000, immutable";

/** `/heatmap/app.js`: gzip when accepted; immutable under its own hash, revalidated otherwise. */
async function scriptResponse(request: Request, asset: BrowserAsset): Promise<Response> {
  const versioned = new URL(request.url).searchParams.get("v") === asset.hash;
  const headers: Record<string, string> = {
    "Content-Type": "text/javascript; charset=utf-8",
    "Cache-Control": versioned ? IMMUTABLE : "no-cache",
    ETag: `"${asset.hash}"`,
    Vary: "Accept-Encoding",
    "X-Content-Type-Options": "nosniff",
  };
  if (request.headers.get("if-none-match") === `"${asset.hash}"`) return new Response(null, { status: 304, headers });
  if (!acceptsGzip(request)) return new Response(asset.js, { headers });
  return new Response((await asset.gzip()) as Uint8Array<ArrayBuffer>, { headers: { ...headers, "Content-Encoding": "gzip" } });
}

/** `/heatmap` and `/heatmap/app.js` on the base host. */
export const heatmapPages: WebPage[] = [
  {
    host: "base",
    path: "/heatmap",
    handle: async (request: Request, services: AppServices) => {
      const base = basePath(request).replace(/[^A-Za-z0-9/_-]/g, "");
      // The bundle is ready (or built) before the page names it; a failed build leaves the
      // unversioned URL, whose 503 says why.
      const asset = await servedAsset(HEATMAP_SCRIPT).catch(() => null);
      const html = heatmapHtml({ base, mode: "api", nowMs: services.market.clock.now(), simulated: services.market.simulated }, { src: scriptSrc(base, asset) });
      return new Response(html, {
        headers: {
          "Content-Type": "text/html; charset=utf-8",
          "Cache-Control": "no-cache",
          "X-Content-Type-Options": "nosniff",
          "Content-Security-Policy": PAGE_CSP,
          "Referrer-Policy": "no-referrer",
        },
      });
    },
  },
  {
    host: "base",
    path: "/heatmap/app.js",
    handle: (request: Request) =>
      servedAsset(HEATMAP_SCRIPT).then(
        (asset) => scriptResponse(request, asset),
        () => bundleUnavailable("heatmap"),
      ),
  },
];
