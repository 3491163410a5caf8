// A process forked with an IPC channel by something other than spawnSiblingWorker (a test
// runner's worker, a supervisor) that imports host-port.ts: it must be left alone.
import { hostPort } from "../../server/workers/host-port";

let refused = false;
try {
  hostPort();
} catch {
  refused = true;
}
process.send!({ disconnectListeners: process.listenerCount("disconnect"), refused }, () => process.disconnect());
