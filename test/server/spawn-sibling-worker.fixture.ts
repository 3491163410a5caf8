// Worker of the spawn-helper test: a TypeScript module (type-only syntax: tsx must load it) that
// echoes its data and reports the nice value it had when the module was evaluated, and its
// process id; in a process, it also answers each message with the nice value of every thread.
import { getPriority } from "node:os";
import { readdirSync, readFileSync } from "node:fs";
import { hostData, hostPort } from "../../server/workers/host-port";

const data: { n: number; big?: number; map?: Map<string, number> } = hostData();
const port = hostPort();
port.postMessage({ echoed: data.n * 2, nice: getPriority(), pid: process.pid, big: data.big, map: data.map });
port.on("message", () => {
  const nices = readdirSync("/proc/self/task").map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  });
  port.postMessage({ nices });
});
