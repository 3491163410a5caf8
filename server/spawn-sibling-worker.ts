// Start a worker thread whose module sits beside the caller: on the TypeScript sources (dev, tests:
// bundled once into one file by server/workers/dev-worker-bundle.ts, or through tsx when that
// cannot be built; a plain `new Worker(file.ts)` cannot load either) or on the built `.js` file
// tsup emits into dist/ beside the bundle (tsup.config.ts names each worker entry).
// Used by the positioning stats pool, the compute pools and the daily store's fill.
import { fork } from "node:child_process";
import { access } from "node:fs";
import { setPriority } from "node:os";
import { serialize } from "node:v8";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { devWorkerBundle } from "./workers/dev-worker-bundle";
import { WORKER_DATA_ENV, WORKER_NICE_ENV } from "./workers/worker-env";

/**
 * What a host uses of a worker, thread or process: the subset of `Worker` both give. Its module
 * reads its data and channel through `hostData()` and `hostPort()` (server/workers/host-port.ts).
 */
export interface SiblingWorker {
  postMessage(message: unknown): void;
  /** "message": the worker's message; "error": an Error; "exit": the exit code. */
  // biome-ignore lint/suspicious/noExplicitAny: each event's listener takes its own value, as Worker's overloads do
  on(event: "message" | "error" | "exit", listener: (value: any) => void): unknown;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  once(event: "message" | "error" | "exit", listener: (value: any) => void): unknown;
  /** The worker never keeps the host's process alive. */
  unref(): void;
  /** Stops it; resolves once it has exited. */
  terminate(): Promise<number | undefined>;
  /** The process id of a worker process (undefined for a thread). */
  readonly pid?: number;
}

/** A worker module's file name in the sources and in the build. */
export interface SiblingWorkerFiles {
  /** Relative to the caller's source file, e.g. "./stats-worker.ts". */
  source: string;
  /** Relative to the built bundle in dist/, e.g. "./stats-worker.js". */
  built: string;
}

export interface SiblingWorkerOptions {
  /**
   * `"process"`: a child process instead of a thread. A thread's V8 shares one process-wide lock
   * with the event loop's: the last step of every full garbage collection of any thread holds it,
   * so a worker with a large heap (hundreds of milliseconds of marking, longer when it is niced
   * and the machine busy) stalls the loop's own collection for as long. A process shares nothing.
   * Messages are cloned the same way (`serialization: "advanced"`). See docs/architecture.md#worker-pools.
   */
  isolation?: "thread" | "process";
  /**
   * Nice value the worker thread takes before it loads anything (Linux: that thread only), so
   * even loading and compiling its modules runs at that priority. Ignored where the OS refuses.
   */
  nice?: number;
}

/** A package specifier resolved from here (a worker's base would be the process's working directory), else as given. */
function resolvedHere(specifier: string): string {
  try {
    const resolve = (import.meta as ImportMeta & { resolve?: (s: string) => string }).resolve;
    if (typeof resolve === "function") return resolve(specifier);
  } catch {
    // keep the bare specifier
  }
  return specifier;
}

/**
 * A worker on `files` next to `callerUrl` (the caller's `import.meta.url`), given `workerData`.
 * Throws when the worker cannot be created (callers fall back to their own thread).
 * @example spawnSiblingWorker(import.meta.url, { source: "./stats-worker.ts", built: "./stats-worker.js" }, init)
 */
export function spawnSiblingWorker(callerUrl: string, files: SiblingWorkerFiles, workerData: unknown, options: SiblingWorkerOptions = {}): SiblingWorker {
  if (options.isolation === "process") return spawnSiblingProcess(callerUrl, files, workerData, options.nice);
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
    const code = `${prologue}import(${JSON.stringify(resolvedHere("tsx/esm/api"))}).then((m) => m.tsImport(${JSON.stringify(url)}, ${JSON.stringify(url)}));`;
    return new Worker(code, { eval: true, workerData });
  }
  return startBuilt(new URL(files.built, callerUrl), prologue, workerData);
}

/** A worker on a plain JavaScript module, after the prologue when there is one. */
function startBuilt(file: URL, prologue: string, workerData: unknown): Worker {
  if (!prologue) return new Worker(file, { workerData });
  return new Worker(`${prologue}import(${JSON.stringify(file.href)});`, { eval: true, workerData });
}

/** Node flags a worker process must not inherit: module hooks (tsx's, a test runner's) and the inspector. */
const NOT_INHERITED = /^(--import|--require|-r|--loader|--experimental-loader|--inspect[a-z-]*|--debug-port)(=|$)/;

/** The host's Node flags a worker process keeps (V8 and diagnostic flags, as a thread would). */
function inheritedExecArgv(): string[] {
  const out: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    const m = NOT_INHERITED.exec(argv[i]);
    if (!m) out.push(argv[i]);
    else if (m[2] === "" && !argv[i].startsWith("--inspect")) i++; // "--import x": skip its value too
  }
  return out;
}

/** The same module as the thread would load, in a child process at `nice`. */
function spawnSiblingProcess(callerUrl: string, files: SiblingWorkerFiles, workerData: unknown, nice: number | undefined): SiblingWorker {
  let file: string;
  const execArgv = inheritedExecArgv();
  if (callerUrl.endsWith(".ts")) {
    const source = fileURLToPath(new URL(files.source, callerUrl));
    const bundle = process.env.OPTIONSCOPE_WORKER_BUNDLE === "off" ? null : devWorkerBundle(source);
    file = bundle ?? source;
    if (!bundle) execArgv.push("--import", resolvedHere("tsx/esm"));
  } else file = fileURLToPath(new URL(files.built, callerUrl));
  const env: NodeJS.ProcessEnv = { ...process.env, [WORKER_DATA_ENV]: serialize(workerData).toString("base64") };
  if (nice !== undefined) env[WORKER_NICE_ENV] = String(Math.trunc(nice));
  const child = fork(file, [], { execArgv, env, serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"] });
  // The child's main thread at once; it renices its other threads itself (host-port.ts).
  if (nice !== undefined && child.pid !== undefined) {
    try {
      setPriority(child.pid, Math.trunc(nice));
    } catch {
      // refused (or already gone): the child tries again
    }
  }
  // A worker killed by a signal exits "1", as a thread that threw does.
  const codeOf = (code: number | null, signal: NodeJS.Signals | null) => code ?? (signal ? 1 : 0);
  const exit = new Promise<number | undefined>((resolve) => child.once("exit", (code, signal) => resolve(codeOf(code, signal))));
  const worker: SiblingWorker = {
    pid: child.pid,
    postMessage: (message) => {
      if (child.connected) child.send(message as never);
    },
    on(event, listener) {
      if (event === "exit") child.on("exit", (code, signal) => (listener as (c: number) => void)(codeOf(code, signal)));
      else child.on(event, listener as (v: unknown) => void);
      return worker;
    },
    once(event, listener) {
      if (event === "exit") child.once("exit", (code, signal) => (listener as (c: number) => void)(codeOf(code, signal)));
      else child.once(event, listener as (v: unknown) => void);
      return worker;
    },
    unref: () => {
      child.unref();
      child.channel?.unref();
    },
    terminate: () => {
      // At once, as a thread's terminate: no task finishes and the daily store's transactions roll back.
      if (child.exitCode === null && child.signalCode === null) {
        // Awaited: the host's loop stays up for the exit (an unref'd child would let a host that
        // awaits it at top level end with "unsettled top-level await", exit code 13).
        child.ref();
        child.kill("SIGKILL");
      }
      return exit;
    },
  };
  return worker;
}
