// CPU time of processes from /proc (Linux), for benches on a shared machine: CPU per request
// stays comparable between runs when throughput does not (other engineers' jobs take the cores).
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICKS_PER_S = 100;

/** Fields of /proc/<pid>/stat after the command name (field 3 onward), or null when gone. */
function statFields(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** CPU ms of `pid` and of its children it has reaped (a server's exited workers count too). */
export function cpuMsOf(pid: number): number {
  const f = statFields(pid);
  if (!f) return 0;
  // utime, stime, cutime, cstime are fields 14-17 (index 11-14 here).
  return ((Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 1000) / TICKS_PER_S;
}

/** Pids of every live process whose parent is `pid`. */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(Number(name));
    if (f && Number(f[1]) === pid) out.push(Number(name));
  }
  return out;
}

/** The pid of the first process whose command line contains every one of `parts`, or null. */
export function findPid(parts: string[]): number | null {
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").join(" ");
      if (parts.every((p) => cmd.includes(p))) return Number(name);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

/** CPU ms of a process tree's root and its live children (PostgreSQL: postmaster and backends). */
export function treeCpuMs(root: number): number {
  return cpuMsOf(root) + childrenOf(root).reduce((s, c) => s + cpuMsOf(c), 0);
}
