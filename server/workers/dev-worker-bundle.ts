// A worker thread's TypeScript entry bundled into one ES module for a checkout run from source
// (tests, `npm start`). Loading a worker through tsx's hooks costs about 3 s of CPU per worker
// (every module resolved and compiled through a loader thread); one bundled file costs about 0.7 s
// (bench/README.md#worker-start-up). The package needs none of this: tsup emits each worker beside
// the server (tsup.config.ts). Built with esbuild (a dev dependency, like tsx), cached on disk
// beside the page bundles while none of its input files changed (size and mtime).
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join, resolve } from "node:path";
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

/**
 * The path of `entry` (an absolute .ts path) bundled as one .mjs file whose packages stay imports,
 * rebuilt when any input changed; null when esbuild cannot build it (the caller loads the entry
 * through tsx instead).
 */
export function devWorkerBundle(entry: string, cacheDir = CACHE_DIR): string | null {
  const name = `${basename(entry, ".ts")}-${createHash("sha256").update(entry).digest("hex").slice(0, 12)}`;
  const out = join(cacheDir, `${name}.mjs`);
  const stampsFile = join(cacheDir, `${name}.json`);
  try {
    if (unchanged(JSON.parse(readFileSync(stampsFile, "utf8")))) return out;
  } catch {
    // no usable build yet
  }
  try {
    // A computed specifier: the package build (tsup) must not bundle esbuild into dist.
    const specifier = "esbuild";
    const esbuild = createRequire(import.meta.url)(specifier) as typeof import("esbuild");
    const built = esbuild.buildSync({
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
    mkdirSync(cacheDir, { recursive: true });
    // Written under a private name and renamed: processes starting workers at once never read half a file.
    const tmp = `${out}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(tmp, built.outputFiles[0].contents);
    renameSync(tmp, out);
    writeFileSync(`${stampsFile}.${process.pid}`, JSON.stringify(stamps));
    renameSync(`${stampsFile}.${process.pid}`, stampsFile);
    return out;
  } catch {
    return null;
  }
}
