// Worker of the spawn-helper test: a TypeScript module (type-only syntax: tsx must load it) that
// echoes its workerData and reports the nice value its thread had when the module was evaluated.
import { getPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";

const data: { n: number } = workerData;
parentPort!.postMessage({ echoed: data.n * 2, nice: getPriority() });
