// The worker side of `spawnSiblingWorker`: the channel to the host and the data it started the
// worker with, the same whether the worker is a thread (`parentPort`, `workerData`) or a child
// process (its IPC channel, the data in its environment). A child process takes its nice value on
// every thread it has, and exits when the host goes. See docs/architecture.md#worker-pools.
import { readdirSync } from "node:fs";
import { setPriority } from "node:os";
import { deserialize } from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { WORKER_DATA_ENV, WORKER_NICE_ENV } from "./worker-env";

/** The host's channel, as a worker reads and answers it. */
export interface HostPort {
  // biome-ignore lint/suspicious/noExplicitAny: the message's type is the worker's protocol
  on(event: "message", listener: (message: any) => void): unknown;
  postMessage(message: unknown): void;
}

// Started by spawnSiblingWorker as a process: an IPC channel and our start data (a process forked
// by anything else, a test runner's worker say, is left alone).
const inProcess = parentPort === null && typeof process.send === "function" && process.env[WORKER_DATA_ENV] !== undefined;

if (inProcess) {
  // A worker outlives nothing: when the host exits (even SIGKILLed) the channel closes.
  process.on("disconnect", () => process.exit(0));
  const nice = Number(process.env[WORKER_NICE_ENV]);
  if (process.env[WORKER_NICE_ENV] && Number.isInteger(nice)) reniceEveryThread(nice);
}

/**
 * Every thread of this process at `nice` (Linux keeps one value per thread, and V8's helper
 * threads start before any of our code runs); threads started later inherit it.
 */
function reniceEveryThread(nice: number): void {
  let tids: string[] = [];
  try {
    tids = readdirSync("/proc/self/task");
  } catch {
    // not Linux: the process's priority
  }
  for (const tid of tids.length > 0 ? tids.map(Number) : [0]) {
    try {
      setPriority(tid, nice);
    } catch {
      // the OS refused: keep the priority we have
    }
  }
}

const processPort: HostPort = {
  on: (_event, listener) => process.on("message", listener as (m: unknown) => void),
  postMessage: (message) => {
    // The host may be gone (it is exiting): the message has nobody to read it.
    if (process.connected) process.send!(message);
  },
};

/** The channel to the host (the thread's port, or the process's IPC channel). */
export function hostPort(): HostPort {
  if (parentPort) return parentPort;
  if (inProcess) return processPort;
  throw new Error("hostPort: not started as a worker (no parent port, no IPC channel)");
}

/** The data the host started this worker with. */
export function hostData<T>(): T {
  if (!inProcess) return workerData as T;
  // Structured-clone bytes in base64, as a thread's workerData is cloned (Infinity, Maps and all).
  const text = process.env[WORKER_DATA_ENV];
  return (text ? deserialize(Buffer.from(text, "base64")) : undefined) as T;
}
