// The pages' browser scripts (issue 17 for the heatmap, issue 31 for the chart and the console):
// each is a TypeScript entry bundled by esbuild into one script. The package serves the prebuilt
// file that `npm run build` writes next to the packaged server (dist/web/<name>.js,
// scripts/build-page-scripts.ts); a checkout run from source builds the entry once on first use
// (cached on disk while its inputs are unchanged). Kept in memory with its gzip and hash.
import { createHash } from "node:crypto";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gzip } from "node:zlib";

const gzipAsync = promisify(gzip);

/** A page's script: its entry (in a checkout; absent from the package) and its prebuilt file. */
export interface PageScript {
  /** Absolute path of the TypeScript entry. */
  entry: string;
  /** Path of the prebuilt bundle inside the build's output directory (`web/heatmap-app.js`). */
  prebuilt: string;
}

/**
 * Where the packaged server finds a prebuilt bundle: beside its own file (dist/server.js,
 * dist/cli.js -> dist/web/heatmap-app.js). From source this points into server/web/web/, which
 * never exists, so a checkout always builds the current code.
 */
function prebuiltPath(script: PageScript): string {
  return fileURLToPath(new URL(`./${script.prebuilt}`, import.meta.url));
}

/**
 * An entry bundled for browsers (library and WASM kernels inlined), minified, as one script.
 * esbuild is a dev dependency: the package ships the prebuilt file instead.
 */
export async function buildBrowserBundle(entry: string): Promise<string> {
  return (await buildWithInputs(entry)).js;
}

async function buildWithInputs(entry: string): Promise<{ js: string; inputs: string[] }> {
  // A computed specifier: the package build (tsup) must not try to bundle esbuild into dist.
  const specifier = "esbuild";
  const { build } = (await import(specifier)) as typeof import("esbuild");
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    platform: "browser",
    format: "iife",
    target: "es2022",
    minify: true,
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  return { js: out.outputFiles[0].text, inputs: Object.keys(out.metafile.inputs).map((p) => resolve(p)) };
}

/** A dev build on disk with the size and mtime of every file it was made from. */
interface CachedBuild {
  inputs: [path: string, size: number, mtimeMs: number][];
  js: string;
}

async function stamp(path: string): Promise<[string, number, number] | null> {
  const s = await stat(path).catch(() => null);
  return s && [path, s.size, s.mtimeMs];
}

/**
 * `buildBrowserBundle` with a disk cache for checkouts (`cacheDir`): a fresh server reuses the last
 * build while none of its input files changed (size and mtime), instead of spending a build on
 * its first visitor. Any doubt (missing, unreadable, changed) builds again.
 */
export async function cachedBrowserBundle(entry: string, cacheDir: string): Promise<string> {
  const file = join(cacheDir, `bundle-${createHash("sha256").update(entry).digest("hex").slice(0, 16)}.json`);
  const cached = (await readFile(file, "utf8").then(JSON.parse, () => null)) as CachedBuild | null;
  if (cached && Array.isArray(cached.inputs) && typeof cached.js === "string") {
    const now = await Promise.all(cached.inputs.map(([p]) => stamp(p)));
    if (now.every((s, i) => s !== null && s[1] === cached.inputs[i][1] && s[2] === cached.inputs[i][2])) return cached.js;
  }
  const { js, inputs } = await buildWithInputs(entry);
  const stamps = (await Promise.all(inputs.map(stamp))).filter((s) => s !== null);
  await mkdir(cacheDir, { recursive: true })
    .then(() => writeFile(file, JSON.stringify({ inputs: stamps, js } satisfies CachedBuild)))
    .catch(() => undefined); // a read-only checkout still serves the build
  return js;
}

/** The checkout's build cache (node_modules/.cache, beside esbuild itself). */
const DEV_BUNDLE_CACHE = fileURLToPath(new URL("../../node_modules/.cache/optionscope", import.meta.url));

/** A served script: its text, gzip, a content hash (the cache-busting `?v=`) and where it came from. */
export interface BrowserAsset {
  js: string;
  /** The gzip body, compressed on first use (the page's HTML does not wait for it). */
  gzip(): Promise<Uint8Array>;
  hash: string;
  origin: "prebuilt" | "built";
}

/** Reads the prebuilt bundle at `prebuilt`, or builds `entry` (through the cache) when there is none. */
export async function loadBrowserAsset(prebuilt: string, entry: string, cacheDir = DEV_BUNDLE_CACHE): Promise<BrowserAsset> {
  const fromDisk = await readFile(prebuilt, "utf8").catch(() => null);
  const js = fromDisk ?? (await cachedBrowserBundle(entry, cacheDir));
  let gzipped: Promise<Uint8Array> | undefined;
  const asset: BrowserAsset = {
    js,
    gzip: () => (gzipped ??= gzipAsync(js).then((b) => Uint8Array.from(b))),
    hash: createHash("sha256").update(js).digest("hex").slice(0, 16),
    origin: fromDisk === null ? "built" : "prebuilt",
  };
  // Compressed in the background now, so serving the script never waits on the thread pool (a
  // wait there would let a board request take the event loop first: docs/api.md#heatmap-page-first-paint).
  void asset.gzip().catch(() => undefined);
  return asset;
}

const served = new Map<string, Promise<BrowserAsset>>();

/** The process's one served bundle of `script` (a failed build is retried on the next request). */
export function servedAsset(script: PageScript): Promise<BrowserAsset> {
  let asset = served.get(script.entry);
  if (!asset) {
    asset = loadBrowserAsset(prebuiltPath(script), script.entry).catch((error: unknown) => {
      served.delete(script.entry);
      throw error;
    });
    served.set(script.entry, asset);
  }
  return asset;
}

/** The answer when a script can be neither read nor built (a checkout without esbuild). */
export function bundleUnavailable(page: string): Response {
  return new Response(`// the ${page} bundle could not be built (is esbuild installed?)\n`, {
    status: 503,
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-store" },
  });
}
