// A TypeScript entry of a checkout bundled into one ES module by esbuild, cached on disk while none
// of its input files changed (size and mtime). Loading TypeScript through tsx's loader hooks costs
// 3-5 s of CPU per process or worker (every module resolved and compiled through a loader thread);
// one bundled file costs about 1 s (bench/README.md#worker-start-up-from-source). Used for worker
// threads started from source (dev-worker-bundle.ts), the CLI run from a checkout
// (bin/optionscope.mjs) and the tests' child processes. The package needs none of this: tsup emits
// dist/. Plain JavaScript so that bin/optionscope.mjs can load it without tsx.
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The checkout's bundles (node_modules/.cache, beside esbuild itself). */
export const SOURCE_BUNDLE_CACHE = fileURLToPath(new URL("../../node_modules/.cache/optionscope/workers", import.meta.url));

function stampOf(path) {
  try {
    const s = statSync(path);
    return [path, s.size, s.mtimeMs];
  } catch {
    return null;
  }
}

function unchanged(stamps) {
  if (!Array.isArray(stamps) || stamps.length === 0) return false;
  return stamps.every((old) => {
    const now = stampOf(old[0]);
    return now !== null && now[1] === old[1] && now[2] === old[2];
  });
}

/** Where `entry`'s bundle and the stamps of its inputs live in `cacheDir`. */
export function bundlePaths(entry, cacheDir = SOURCE_BUNDLE_CACHE) {
  const name = `${basename(entry, ".ts")}-${createHash("sha256").update(entry).digest("hex").slice(0, 12)}`;
  return { out: join(cacheDir, `${name}.mjs`), stampsFile: join(cacheDir, `${name}.json`) };
}

/** The path of `entry`'s bundle when one made from its current inputs is on disk, else null. */
export function currentBundle(entry, cacheDir = SOURCE_BUNDLE_CACHE) {
  const { out, stampsFile } = bundlePaths(entry, cacheDir);
  try {
    return unchanged(JSON.parse(readFileSync(stampsFile, "utf8"))) ? out : null;
  } catch {
    return null;
  }
}

// Each module keeps its own `import.meta.url` (its source file's URL), so the paths it resolves
// relative to itself (sibling workers, migrations, package.json, static assets) are the same as
// when it runs from source: esbuild would otherwise give every module the bundle's URL.
const IMPORT_META_URL = /\bimport\.meta\??\.url\b/g;
const pinImportMetaUrl = {
  name: "pin-import-meta-url",
  setup(build) {
    build.onLoad({ filter: /\.[cm]?ts$/ }, async (args) => {
      if (args.path.includes("/node_modules/")) return undefined;
      const source = await readFile(args.path, "utf8");
      if (!source.includes("import.meta")) return undefined;
      return { contents: source.replace(IMPORT_META_URL, JSON.stringify(pathToFileURL(args.path).href)), loader: "ts" };
    });
  },
};

/**
 * Builds `entry` into its cache files and records its inputs' stamps; resolves to the bundle's
 * path, or null when esbuild is missing or the build failed. Files are written under private names
 * and renamed: processes building at once never read half a file.
 */
export async function buildBundle(entry, cacheDir = SOURCE_BUNDLE_CACHE) {
  const { out, stampsFile } = bundlePaths(entry, cacheDir);
  try {
    // A computed specifier: the package build (tsup) must not bundle esbuild into dist.
    const specifier = "esbuild";
    const esbuild = createRequire(import.meta.url)(specifier);
    const built = await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      plugins: [pinImportMetaUrl],
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const stamps = Object.keys(built.metafile.inputs)
      .map((p) => stampOf(resolve(p)))
      .filter((s) => s !== null);
    await mkdir(dirname(out), { recursive: true });
    const tag = `${process.pid}.${Math.random().toString(36).slice(2)}`;
    await writeFile(`${out}.${tag}`, built.outputFiles[0].contents);
    await rename(`${out}.${tag}`, out);
    await writeFile(`${stampsFile}.${tag}`, JSON.stringify(stamps));
    await rename(`${stampsFile}.${tag}`, stampsFile);
    return out;
  } catch {
    return null;
  }
}

/**
 * The worker threads' entries (as tsup.config.ts names them for dist/): a checkout's `serve` builds
 * their bundles before it starts (bin/optionscope.mjs), so its first workers do not load through
 * tsx (about 3 s of CPU each, six of them competing with the first requests).
 */
export const WORKER_ENTRIES = [
  "server/modules/positioning/stats-worker.ts",
  "server/daily-store/fill-worker.ts",
  "server/daily-store/compute-worker.ts",
  "server/feeds/massive/snapshot-worker.ts",
  "server/recording/write-worker.ts",
].map((p) => fileURLToPath(new URL(`../../${p}`, import.meta.url)));

/** `entry`'s current bundle, built first when there is none; null when it cannot be built. */
export async function ensureBundle(entry, cacheDir = SOURCE_BUNDLE_CACHE) {
  return currentBundle(entry, cacheDir) ?? (await buildBundle(entry, cacheDir));
}
