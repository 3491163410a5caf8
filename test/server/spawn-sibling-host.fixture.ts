// Host of the spawn-helper test's orphan check: starts the fixture worker as a process, prints its
// pid once it answers, and stays up until killed.
import { spawnSiblingWorker } from "../../server/spawn-sibling-worker";

const w = spawnSiblingWorker(import.meta.url, { source: "./spawn-sibling-worker.fixture.ts", built: "./never-built.js" }, { n: 1 }, { isolation: "process" });
w.once("message", (m: { pid: number }) => process.stdout.write(`${m.pid}\n`));
setInterval(() => {}, 1000);
