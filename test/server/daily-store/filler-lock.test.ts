// One filler per store: a filler in another process holds the lease and computes; a second filler
// on the same data directory stands by (computing nothing, reporting the stored progress), and
// takes over as soon as the first is killed with SIGKILL (its pid is gone; no waiting for the
// lease to expire), finishing exactly the rows the first had not stored. The fill runs in a
// process of its own, every thread of it at FILL_NICE, while this process's threads keep theirs.
import { workerProcesses } from "../../_helpers/worker-processes";
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../../lib/market/clock";
import { previousTradingDay } from "../../../lib/time";
import { dailyDbPath, FLOW_SUMMARY, marketIdentity, openDailyStore, startDailyFill, VOL_READING, type DailyFiller } from "../../../server/daily-store";
import { FILL_NICE } from "../../../server/daily-store/priority";
import { LAST_SESSION, LOCK_SCOPE, NOW_MS, tempDir } from "./_store-fixtures";
import { tsEntryArgs } from "../../_helpers/ts-entry";

const t = tempDir();
let child: ChildProcess | null = null;
let filler: DailyFiller | null = null;
afterAll(async () => {
  child?.kill("SIGKILL");
  await filler?.close();
  t.remove();
});

/** Nice value of each thread of this process (field 19 of /proc/<pid>/task/<tid>/stat). */
function threadNices(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]));
  }
  return out;
}

async function until(cond: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("one filler per store", () => {
  it("the second filler stands by while the first computes, and takes over after the first is SIGKILLed", async () => {
    const store = openDailyStore(dailyDbPath(t.dir), marketIdentity({ kind: "simulated", seed: 42 }));
    try {
      // 1. The first filler, in its own process, takes the lease.
      const fixture = fileURLToPath(new URL("./filler-holder.fixture.ts", import.meta.url));
      child = spawn(process.execPath, [...(await tsEntryArgs(fixture)), t.dir], { stdio: ["ignore", "pipe", "inherit"] });
      const childLines: Record<string, unknown>[] = [];
      let buf = "";
      child.stdout!.on("data", (c: Buffer) => {
        buf += c.toString();
        const parts = buf.split("\n");
        buf = parts.pop()!;
        for (const p of parts) if (p.trim()) childLines.push(JSON.parse(p));
      });
      await until(() => childLines.some((l) => l.msg === "role"), "the first filler to start");
      expect(childLines.find((l) => l.msg === "role")).toMatchObject({ role: "filling", pid: child.pid });

      // 2. The second filler, here: standby, naming the holder.
      // Before the filler: this process's threads and their priorities (other files' worker pools
      // in this test worker run at their own nice values, e.g. COMPUTE_NICE).
      const serverThreads = threadNices();
      const logs: Record<string, unknown>[] = [];
      filler = startDailyFill({
        store,
        source: { kind: "simulated", seed: 42 },
        clock: fixedClock(NOW_MS),
        ...LOCK_SCOPE,
        standbyRetryMs: 100,
        log: (l) => logs.push(l),
      });
      expect(filler.role()).toBe("standby");
      expect(logs.find((l) => l.msg === "daily_fill_standby")).toMatchObject({ holder: { pid: child.pid } });
      const done = filler.idle();

      // 3. The first computes (rows appear) while the second still stands by.
      await until(() => store.count(FLOW_SUMMARY) >= 1, "the first filler's first row");
      expect(filler.role()).toBe("standby");
      expect(store.fill.snapshot().running).toBe(true);
      // 4. SIGKILL (at once, mid-pass): no release; the pid is gone, so the lease is taken over at the next retry.
      child.kill("SIGKILL");
      await new Promise((resolve) => child!.once("exit", resolve));
      const storedByFirst = store.count(FLOW_SUMMARY) + store.count(VOL_READING);
      const computed = await done;
      expect(logs.find((l) => l.msg === "daily_fill_takeover")).toMatchObject({ previous: { pid: child.pid } });
      expect(computed).toBe(4 - storedByFirst);

      // The fill is a process of its own, every thread of it niced; this thread is not.
      expect(logs.find((l) => l.msg === "daily_fill_worker_ready")).toMatchObject({ nice: FILL_NICE });
      const fills = workerProcesses("fill-worker");
      expect(fills.length).toBe(1);
      expect(new Set(fills[0].nices)).toEqual(new Set([FILL_NICE]));
      const nices = threadNices();
      expect(nices.get(process.pid)).toBe(0);
      // Every thread this process had before the filler (event loop, V8 and libuv helpers) keeps its priority.
      for (const [tid, nice] of serverThreads) if (nices.has(tid)) expect(nices.get(tid)).toBe(nice);

      // 5. The store holds exactly the planned rows.
      const flowDates = [LAST_SESSION, previousTradingDay(LAST_SESSION), previousTradingDay(previousTradingDay(LAST_SESSION))];
      expect([...store.range(FLOW_SUMMARY, "KO", "2000-01-01", "2100-01-01").keys()].sort()).toEqual([...flowDates].sort());
      expect([...store.range(VOL_READING, "KO", "2000-01-01", "2100-01-01").keys()]).toEqual([LAST_SESSION]);
      expect(store.count(FLOW_SUMMARY) + store.count(VOL_READING)).toBe(4);
      expect(filler.role()).toBe("idle");
      expect(store.fill.snapshot().running).toBe(false);
    } finally {
      store.close();
    }
  }, 120_000);
});
