// The recorder's worker thread: Parquet encoding, durable writes and compaction of the store of
// record (write-task.ts), off the thread that records. Started by server/recording/writer.ts
// through spawnSiblingWorker at COMPUTE_NICE; tsup builds it as dist/recording-worker.js.
import { parentPort } from "node:worker_threads";
import { servePoolTasks } from "../workers/worker-pool";
import { runWriteTask, type WriteTask } from "./write-task";

servePoolTasks(parentPort!, (task: WriteTask) => runWriteTask(task));
