// The worker processes this process started (server/spawn-sibling-worker.ts, `isolation: "process"`),
// read from /proc (Linux): each child whose command line names the worker module, with the nice
// value of each of its threads (field 19 of /proc/<pid>/task/<tid>/stat).
import { readdirSync, readFileSync } from "node:fs";

/** Fields of a /proc stat line after the command name: [0] state, [1] ppid, ... [16] nice. */
const statFields = (text: string) => text.slice(text.lastIndexOf(")") + 2).split(" ");

/** Nice value of each thread of process `pid`. */
function threadNices(pid: number | "self"): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => Number(statFields(readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8"))[16]));
}

/** This process's living children whose command line contains `entry` (e.g. "compute-worker"). */
export function workerProcesses(entry: string): { pid: number; nices: number[] }[] {
  const out: { pid: number; nices: number[] }[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = statFields(readFileSync(`/proc/${d}/stat`, "utf8"));
      if (Number(stat[1]) !== process.pid || stat[0] === "Z") continue;
      if (!readFileSync(`/proc/${d}/cmdline`, "utf8").includes(entry)) continue;
      out.push({ pid: Number(d), nices: threadNices(Number(d)) });
    } catch {
      // exited while read
    }
  }
  return out;
}
