// Start a worker thread whose module sits beside the caller: on the TypeScript sources (dev, tests:
// bundled once into one file by server/workers/dev-worker-bundle.ts, or through tsx when that
// cannot be built; a plain `new Worker(file.ts)` cannot load either) or on the built `.js` file
// tsup emits into dist/ beside the bundle (tsup.config.ts names each worker entry).
// Used by the positioning stats pool and the daily store's fill.
import { access } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { devWorkerBundle } from "./workers/dev-worker-bundle";

/** A worker module's file name in the sources and in the build. */
export interface SiblingWorkerFiles {
  /** Relative to the caller's source file, e.g. "./stats-worker.ts". */
  source: string;
  /** Relative to the built bundle in dist/, e.g. "./stats-worker.js". */
  built: string;
}

export interface SiblingWorkerOptions {
  /**
   * Nice value the worker thread takes before it loads anything (Linux: that thread only), so
   * even loading and compiling its modules runs at that priority. Ignored where the OS refuses.
   */
  nice?: number;
}

/** tsx's ESM API, resolved from here (the eval worker's base would be the process's working directory). */
function tsxApi(): string {
  try {
    const resolve = (import.meta as ImportMeta & { resolve?: (s: string) => string }).resolve;
    if (typeof resolve === "function") return resolve("tsx/esm/api");
  } catch {
    // keep the bare specifier
  }
  return "tsx/esm/api";
}

/**
 * A worker on `files` next to `callerUrl` (the caller's `import.meta.url`), given `workerData`.
 * Throws when the worker cannot be created (callers fall back to their own thread).
 * @example spawnSiblingWorker(import.meta.url, { source: "./stats-worker.ts", built: "./stats-worker.js" }, init)
 */
export function spawnSiblingWorker(callerUrl: string, files: SiblingWorkerFiles, workerData: unknown, options: SiblingWorkerOptions = {}): Worker {
  const prologue = options.nice === undefined ? "" : `try { require("node:os").setPriority(${Math.trunc(options.nice)}); } catch {}\n`;
  // libuv's thread pool is shared by the whole process and started by its first user; threads
  // inherit their creator's nice value. Queue one pool job from here first, so a niced worker is
  // never the one that starts it (under a CommonJS entry nothing may have started it yet).
  if (prologue) access(".", () => {});
  if (callerUrl.endsWith(".ts")) {
    // From source: one bundled file when esbuild can make it (4x cheaper to start), else tsx.
    // OPTIONSCOPE_WORKER_BUNDLE=off keeps tsx (source-mapped stack traces while debugging a worker).
    const bundle = process.env.OPTIONSCOPE_WORKER_BUNDLE === "off" ? null : devWorkerBundle(fileURLToPath(new URL(files.source, callerUrl)));
    if (bundle) return startBuilt(pathToFileURL(bundle), prologue, workerData);
    const url = new URL(files.source, callerUrl).href;
    const code = `${prologue}import(${JSON.stringify(tsxApi())}).then((m) => m.tsImport(${JSON.stringify(url)}, ${JSON.stringify(url)}));`;
    return new Worker(code, { eval: true, workerData });
  }
  return startBuilt(new URL(files.built, callerUrl), prologue, workerData);
}

/** A worker on a plain JavaScript module, after the prologue when there is one. */
function startBuilt(file: URL, prologue: string, workerData: unknown): Worker {
  if (!prologue) return new Worker(file, { workerData });
  return new Worker(`${prologue}import(${JSON.stringify(file.href)});`, { eval: true, workerData });
}
