// The Massive snapshot worker: runs `takeSnapshot` tasks (fetch every page, parse, build the
// boards) off the server's event loop. Started by server/feeds/massive/massive-feed.ts through
// spawnSiblingWorker; tsup builds it as dist/massive-snapshot-worker.js.
import { parentPort } from "node:worker_threads";
import { servePoolTasks } from "../../workers/worker-pool";
import { takeSnapshot, type SnapshotTask } from "./snapshot-task";

servePoolTasks(parentPort!, (task: SnapshotTask) => takeSnapshot(task));
