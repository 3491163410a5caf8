// Worker of the spawn-helper test: a TypeScript module (type-only syntax: tsx must load it) that
// echoes its workerData.
import { parentPort, workerData } from "node:worker_threads";

const data: { n: number } = workerData;
parentPort!.postMessage({ echoed: data.n * 2 });
