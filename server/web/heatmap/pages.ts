// The heatmap page on {base_url}: `/heatmap?symbol=SPY`, and its script (the browser bundle of
// app/server-entry.ts, built once with esbuild on first request). Free and keyless like the chart
// page: the page sends the key on its own API calls.
import { fileURLToPath } from "node:url";
import type { AppServices } from "../../services";
import type { WebPage } from "../chart-page";
import { heatmapHtml } from "./heatmap-html";

// WASM compiles need 'wasm-unsafe-eval'; the config block is JSON (never executed).
const PAGE_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const ENTRY = fileURLToPath(new URL("./app/server-entry.ts", import.meta.url));

let bundle: string | null = null;

/**
 * The page's script: the app bundled for browsers (library and WASM kernels inlined), minified.
 * Built once per process on first request (a few hundred ms) and kept.
 */
export async function heatmapBundle(entry = ENTRY): Promise<string> {
  if (bundle !== null && entry === ENTRY) return bundle;
  // A computed specifier: the package build (tsup) must not try to bundle esbuild into dist.
  const specifier = "esbuild";
  const { build } = (await import(specifier)) as typeof import("esbuild");
  const out = await build({ entryPoints: [entry], bundle: true, platform: "browser", format: "iife", target: "es2022", minify: true, write: false, logLevel: "silent" });
  const text = out.outputFiles[0].text;
  if (entry === ENTRY) bundle = text;
  return text;
}

/** The path prefix the page was reached under ("" when the host is matched by name). */
function basePath(request: Request): string {
  return new URL(request.url).pathname.replace(/\/heatmap(\/.*)?$/, "");
}

/** `/heatmap` and `/heatmap/app.js` on the base host. */
export const heatmapPages: WebPage[] = [
  {
    host: "base",
    path: "/heatmap",
    handle: (request: Request, services: AppServices) => {
      const base = basePath(request).replace(/[^A-Za-z0-9/_-]/g, "");
      const html = heatmapHtml(
        { base, mode: "api", nowMs: services.market.clock.now(), simulated: services.market.simulated },
        { src: `${base}/heatmap/app.js` },
      );
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
    // h3 awaits a promised Response; the WebPage type names the synchronous form.
    handle: (() =>
      heatmapBundle().then(
        (js) => new Response(js, { headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff" } }),
        () => new Response("// the heatmap bundle could not be built (is esbuild installed?)\n", { status: 503, headers: { "Content-Type": "text/javascript; charset=utf-8" } }),
      )) as unknown as WebPage["handle"],
  },
];
