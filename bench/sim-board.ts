// The simulator's per-session board, measured apart from the market's caches: building the fixed
// part of a board (grid, open interest, last-trade positions) and quoting every contract of a
// built board at one minute, for SPXW (~20,000 contracts) and SPY. Written to measure what dropping
// the unused per-contract volume plan saved (issue 31). Run alone:
//   npx tsx bench/sim-board.ts
// Prints the load average with the figures: wall-clock times move with other work on the machine,
// so each workload is also timed in process CPU (user + system, per call, over a fixed count).
import { loadavg } from "node:os";
import { Bench } from "tinybench";
import { quoteBoard } from "../lib/market/simulated/chain-quotes";
import { simCalendar } from "../lib/market/simulated/_calendar";
import { SimEngine } from "../lib/market/simulated/engine";
import { buildSessionBoard } from "../lib/market/simulated/session-board";
import { tradingDaysBetween } from "../lib/time";

const engine = new SimEngine(42);
const cal = simCalendar();
const days = tradingDaysBetween("2024-01-02", "2024-12-31").map((day) => cal.dayIndex.get(day)!);

const tasks: { name: string; fn: () => void }[] = [];
for (const ticker of ["SPXW", "SPY"]) {
  const spec = engine.spec(ticker)!;
  let at = 0;
  tasks.push({
    name: `${ticker} board build (buildSessionBoard)`,
    fn: () => {
      at = (at + 1) % days.length;
      buildSessionBoard(engine, spec, days[at]);
    },
  });
  const d = days[80];
  const board = buildSessionBoard(engine, spec, d);
  const spot = board.openSpot;
  let minute = 0;
  tasks.push({
    name: `${ticker} quote the whole board, one minute (quoteBoard, ${board.n} contracts)`,
    fn: () => {
      minute = (minute + 1) % 390;
      quoteBoard(board, board.regOpenMs + minute * 60_000, spot, spot);
    },
  });
}

const bench = new Bench({ time: 3000, warmupTime: 500 });
for (const t of tasks) bench.add(t.name, t.fn);
/** Process CPU milliseconds per call over `n` calls (after tinybench's warm-up). */
const cpuMsPerCall = (fn: () => void, n: number): number => {
  const t0 = process.cpuUsage();
  for (let i = 0; i < n; i++) fn();
  const dt = process.cpuUsage(t0);
  return (dt.user + dt.system) / 1000 / n;
};

const before = loadavg();
await bench.run();
const cpu = tasks.map((t) => cpuMsPerCall(t.fn, t.name.includes("build") ? 100 : 400));
const after = loadavg();
const fmt = (l: number[]) => l.map((x) => x.toFixed(2)).join(" ");
console.log(`load average before ${fmt(before)}, after ${fmt(after)} (1, 5, 15 min); ${new Date().toISOString()}`);
console.table(
  bench.tasks.map((t, i) => {
    const r = t.result as unknown as { latency: { mean: number; p50: number; p99: number; samplesCount?: number } };
    return { name: t.name, meanMs: +r.latency.mean.toFixed(3), p50Ms: +r.latency.p50.toFixed(3), p99Ms: +r.latency.p99.toFixed(3), cpuMs: +cpu[i].toFixed(3) };
  }),
);
