// A worker thread's TypeScript entry bundled into one ES module for a checkout run from source
// (tests, `npm start`). Loading a worker through tsx's hooks costs about 3 s of CPU per worker
// (every module resolved and compiled through a loader thread); one bundled file costs about 0.7 s
// (bench/README.md#worker-start-up-from-source). The package needs none of this: tsup emits each
// worker beside the server (tsup.config.ts). Built with esbuild (a dev dependency, like tsx) in
// the background, never on the event loop (a synchronous build held a loaded server's loop for
// seconds), and cached on disk while none of its input files changed (size and mtime); until a
// current build exists, workers load through tsx.
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The checkout's worker bundles (node_modules/.cache, beside esbuild itself). */
const CACHE_DIR = fileURLToPath(new URL("../../node_modules/.cache/optionscope/workers", import.meta.url));

/** [path, size, mtimeMs] of every file a bundle was made from. */
type Stamp = [string, number, number];

function stampOf(path: string): Stamp | null {
  try {
    const s = statSync(path);
    return [path, s.size, s.mtimeMs];
  } catch {
    return null;
  }
}

function unchanged(stamps: unknown): boolean {
  if (!Array.isArray(stamps) || stamps.length === 0) return false;
  return stamps.every((old: Stamp) => {
    const now = stampOf(old[0]);
    return now !== null && now[1] === old[1] && now[2] === old[2];
  });
}

/** Where `entry`'s bundle and the stamps of its inputs live in `cacheDir`. */
export function bundlePaths(entry: string, cacheDir = CACHE_DIR): { out: string; stampsFile: string } {
  const name = `${basename(entry, ".ts")}-${createHash("sha256").update(entry).digest("hex").slice(0, 12)}`;
  return { out: join(cacheDir, `${name}.mjs`), stampsFile: join(cacheDir, `${name}.json`) };
}

/** Entries whose build is under way in this process (one build each at a time). */
const building = new Set<string>();

/**
 * The path of `entry` (an absolute .ts path) bundled as one .mjs file whose packages stay imports,
 * when a build made from its current inputs is on disk; else null, and a build starts in the
 * background (esbuild's own process: the event loop never waits for it) for the next caller. The
 * caller loads the entry through tsx meanwhile.
 */
export function devWorkerBundle(entry: string, cacheDir = CACHE_DIR): string | null {
  const { out, stampsFile } = bundlePaths(entry, cacheDir);
  try {
    if (unchanged(JSON.parse(readFileSync(stampsFile, "utf8")))) return out;
  } catch {
    // no usable build yet
  }
  if (!building.has(out)) {
    building.add(out);
    void buildBundle(entry, out, stampsFile).finally(() => building.delete(out));
  }
  return null;
}

/**
 * Builds `entry` into `out` and records its inputs' stamps; resolves to whether it worked. Files are
 * written under private names and renamed: processes building at once never read half a file.
 */
export async function buildBundle(entry: string, out: string, stampsFile: string): Promise<boolean> {
  try {
    // A computed specifier: the package build (tsup) must not bundle esbuild into dist.
    const specifier = "esbuild";
    const esbuild = createRequire(import.meta.url)(specifier) as typeof import("esbuild");
    const built = await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const stamps = Object.keys(built.metafile.inputs)
      .map((p) => stampOf(resolve(p)))
      .filter((s) => s !== null);
    await mkdir(dirname(out), { recursive: true });
    const tmp = `${out}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    await writeFile(tmp, built.outputFiles[0].contents);
    await rename(tmp, out);
    await writeFile(`${stampsFile}.${process.pid}`, JSON.stringify(stamps));
    await rename(`${stampsFile}.${process.pid}`, stampsFile);
    return true;
  } catch {
    return false;
  }
}
