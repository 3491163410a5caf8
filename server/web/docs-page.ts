// The API reference at `/docs` on {base_url}: our three OpenAPI documents rendered by Redoc
// (npm `redoc`, MIT), whose standalone bundle this server sends itself: no CDN, no script of ours
// (Redoc starts on its `<redoc spec-url>` element). Free and keyless. See docs/api.md#api-reference-page.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { WebPage } from "./chart-page";
import { NAV_CSS, pageNav } from "./page-nav";

/** The documents the page can show: `?api=` value -> spec path (under the base host's prefix) and label. */
const DOCUMENTS = {
  base: { spec: "/v1/openapi.json", label: "Positioning, volatility and account" },
  flow: { spec: "/v1/flow/openapi.json", label: "Flow" },
  price: { spec: "/atlas/v1/openapi.json", label: "Price (UDF bars)" },
} as const;
type DocumentName = keyof typeof DOCUMENTS;

/** Redoc's standalone build (defines `Redoc` and renders every `<redoc>` element on load), in its package. */
export const REDOC_BUNDLE = "bundles/redoc.standalone.js";
/**
 * The same file in the server's build, beside its entries (scripts/build-page-scripts.ts copies
 * it): the server package ships it instead of depending on `redoc`.
 */
export const REDOC_PREBUILT = "web/redoc.standalone.js";
const REDOC_CDN_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";

/**
 * Redoc injects its styles (styled-components), draws with inline SVG and data: images, runs its
 * search index in a blob: worker, and reads the documents from this origin.
 */
const DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

let redocCached: string | null | undefined; // the file never changes while the process runs

/** Redoc's standalone script: the build's copy, else the installed package's; null when neither exists. */
function redocSource(): string | null {
  if (redocCached !== undefined) return redocCached;
  const from = typeof import.meta?.url === "string" ? import.meta.url : pathToFileURL(join(process.cwd(), "index.js")).href;
  const candidates = [
    // The packaged server (dist/cli.js -> dist/web/...); from source this path never exists.
    () => fileURLToPath(new URL(`./${REDOC_PREBUILT}`, from)),
    // A checkout: the package's `exports` map may hide bundles/, so resolve its package.json and join.
    () => join(dirname(createRequire(from).resolve("redoc/package.json")), REDOC_BUNDLE),
  ];
  redocCached = null;
  for (const path of candidates) {
    try {
      // The one thing the bundle fetches from elsewhere: its footer logo from Redocly's CDN. With no
      // source the image fails and Redoc hides it, so the page loads nothing from another origin.
      redocCached = readFileSync(path(), "utf8").replaceAll(REDOC_CDN_LOGO, "");
      break;
    } catch {
      // Not there: the next place, or null.
    }
  }
  return redocCached;
}

const escapeAttr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** The document a request asks for (`?api=base|flow|price`), base when absent or unknown. */
function documentOf(url: URL): DocumentName {
  const asked = url.searchParams.get("api");
  return asked !== null && Object.hasOwn(DOCUMENTS, asked) ? (asked as DocumentName) : "base";
}

/**
 * The page: the site's nav, a switch between the three documents and Redoc's element.
 * @example docsHtml("", "flow").includes('spec-url="/v1/flow/openapi.json"') // true
 */
function docsHtml(root: string, current: DocumentName): string {
  const tabs = (Object.keys(DOCUMENTS) as DocumentName[])
    .map((name) => {
      const d = DOCUMENTS[name];
      const href = name === "base" ? `${root}/docs` : `${root}/docs?api=${name}`;
      return `<a href="${escapeAttr(href)}"${name === current ? ' aria-current="page"' : ""}>${d.label}</a>`;
    })
    .join("");
  const spec = `${root}${DOCUMENTS[current].spec}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>optionscope API reference: ${DOCUMENTS[current].label}</title>
<style>
  body { margin: 0; background: #fff; }
  header { background: #131722; font-family: system-ui, sans-serif; }
  ${NAV_CSS}
  nav.docs { display: flex; gap: 16px; padding: 6px 12px; font-size: 13px; }
  nav.docs a { color: #9598a1; text-decoration: none; }
  nav.docs a[aria-current="page"] { color: #d1d4dc; font-weight: 600; }
  nav.docs span { color: #6a6d78; margin-left: auto; }
  nav.docs span a { color: #9598a1; }
</style>
</head>
<body>
<header>
${pageNav(root, "docs")}
<nav class="docs" aria-label="API documents">${tabs}<span>raw: <a href="${escapeAttr(spec)}">${escapeAttr(DOCUMENTS[current].spec)}</a></span></nav>
</header>
<redoc spec-url="${escapeAttr(spec)}" expand-responses="200" json-sample-expand-level="3" native-scrollbars></redoc>
<script src="${escapeAttr(root)}/docs/redoc.standalone.js"></script>
</body>
</html>
`;
}

/** The base host's path prefix the page was reached under ("" on the one-port layout). */
function rootOf(request: Request): string {
  return new URL(request.url).pathname.replace(/\/docs(\/.*)?$/, "");
}

/** `/docs` and the Redoc script it loads. */
export const docsPages: WebPage[] = [
  {
    host: "base",
    path: "/docs",
    handle: (request) =>
      new Response(docsHtml(rootOf(request), documentOf(new URL(request.url))), {
        status: 200,
        headers: {
          "Content-Type": "text/html; charset=utf-8",
          "Cache-Control": "no-cache",
          "X-Content-Type-Options": "nosniff",
          "Content-Security-Policy": DOCS_CSP,
          "Referrer-Policy": "no-referrer",
        },
      }),
  },
  {
    host: "base",
    path: "/docs/redoc.standalone.js",
    handle: () => {
      const source = redocSource();
      if (source === null) {
        return new Response("// redoc is not installed (npm install redoc)\n", {
          status: 503,
          headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-store" },
        });
      }
      return new Response(source, {
        status: 200,
        headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400", "X-Content-Type-Options": "nosniff" },
      });
    },
  },
];
