// Shared by the browser tests: bundle an entry module for the browser platform with esbuild,
// serve it from a throwaway local HTTP server, and launch headless Chromium against it.
// The page records every fetch/XHR/streaming-WASM call, so a test can prove the library needed
// neither a network fetch nor `fs` for its WASM.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, type Metafile } from "esbuild";
import { chromium, type Browser, type Page } from "playwright-core";

/** Chromium binary (override with `CHROMIUM_PATH`). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Flags that keep headless Chromium quiet and offline apart from our own server. */
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/**
 * Runs before the bundle: counts every way a page could fetch bytes at run time, including the
 * streaming WASM loaders, so the test can assert the kernels arrived inside the bundle.
 */
const NETWORK_TRAP = `<script>
window.__netCalls = [];
(() => {
  const log = (kind, what) => window.__netCalls.push(kind + " " + String(what));
  const f = window.fetch;
  window.fetch = (...a) => { log("fetch", a[0] && a[0].url || a[0]); return f.apply(window, a); };
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (m, u, ...r) { log("xhr", u); return open.call(this, m, u, ...r); };
  for (const k of ["instantiateStreaming", "compileStreaming"]) {
    const g = WebAssembly[k];
    if (g) WebAssembly[k] = (...a) => { log("wasm-" + k, ""); return g.apply(WebAssembly, a); };
  }
})();
</script>`;

/** A bundled page served on 127.0.0.1. */
export interface ServedBundle {
  /** Page address (`/`), which loads `/bundle.js` as a module. */
  url: string;
  /** Every request path the server saw, in order. */
  requests: string[];
  /** esbuild's metafile: every input that went into the bundle. */
  metafile: Metafile;
  /** Size of the bundle, bytes. */
  bundleBytes: number;
  close(): Promise<void>;
}

/**
 * Bundles `entrySource` (an ESM module; absolute import paths, or package names found in
 * `options.nodePaths`, node_modules folders) for the browser platform and serves it.
 *
 * @example const served = await bundleAndServe(`import { x } from "/abs/lib/index.ts"; window.__result = x();`);
 */
export async function bundleAndServe(entrySource: string, title = "optionscope", options: { nodePaths?: string[] } = {}): Promise<ServedBundle> {
  const dir = mkdtempSync(join(tmpdir(), "optionscope-browser-"));
  let server: Server | undefined;
  try {
    writeFileSync(join(dir, "entry.ts"), entrySource);
    const result = await build({
      entryPoints: [join(dir, "entry.ts")],
      bundle: true,
      platform: "browser",
      format: "esm",
      target: "es2022",
      outfile: join(dir, "bundle.js"),
      metafile: true,
      logLevel: "silent",
      nodePaths: options.nodePaths,
    });
    const bundle = readFileSync(join(dir, "bundle.js"));
    const html = `<!doctype html><meta charset="utf-8"><title>${title}</title>${NETWORK_TRAP}<script type="module" src="/bundle.js"></script>`;
    const requests: string[] = [];
    const srv = createServer((req, res) => {
      requests.push(req.url ?? "");
      if (req.url === "/bundle.js") res.writeHead(200, { "content-type": "text/javascript" }).end(bundle);
      else if (req.url === "/") res.writeHead(200, { "content-type": "text/html" }).end(html);
      else res.writeHead(404).end();
    });
    server = srv;
    await new Promise<void>((ok) => srv.listen(0, "127.0.0.1", ok));
    const address = srv.address();
    const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
    return {
      url,
      requests,
      metafile: result.metafile,
      bundleBytes: bundle.length,
      close: async () => {
        await new Promise<void>((ok) => srv.close(() => ok()));
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    server?.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Headless Chromium with the shared flags. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** What a page left in `window.__result`, plus its errors and network calls. */
export interface PageRun<T, X = undefined> {
  result: T;
  /** What `then` returned (it runs in the same page after `__result` settled). */
  extra: X;
  pageErrors: string[];
  netCalls: string[];
}

/**
 * Opens the served page, waits for the promise the entry stored in `window.__result`, optionally
 * runs `then` in the same page, and closes the page.
 *
 * @example const { result } = await runPage<{ ok: boolean }>(browser, served.url);
 */
export async function runPage<T, X = undefined>(browser: Browser, url: string, then?: (page: Page) => Promise<X>): Promise<PageRun<T, X>> {
  const page: Page = await browser.newPage();
  const pageErrors: string[] = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  try {
    await page.goto(url);
    await page.waitForFunction(() => "__result" in window);
    const result = await page.evaluate(() => (window as unknown as { __result: Promise<T> }).__result);
    const extra = (then ? await then(page) : undefined) as X;
    const netCalls = await page.evaluate(() => (window as unknown as { __netCalls: string[] }).__netCalls);
    return { result, extra, pageErrors, netCalls };
  } finally {
    await page.close();
  }
}

/** Bundle inputs that are Node built-ins (`fs`, `node:*`...): must be none for an isomorphic library. */
export function nodeBuiltinInputs(metafile: Metafile): string[] {
  const builtins = /^(node:|fs$|path$|os$|crypto$|http$|https$|url$|child_process$|worker_threads$)/;
  const out: string[] = [];
  for (const [file, input] of Object.entries(metafile.inputs)) {
    if (builtins.test(file)) out.push(file);
    for (const imp of input.imports) if (builtins.test(imp.path) || imp.external) out.push(`${file} -> ${imp.path}`);
  }
  return out;
}
