// Cost of one symbol-session of /v1/stats/daily, regular (390 frames) against extended (960), as a
// statistics worker replays it: windowed boards quoted for every minute, grid, statFrame,
// dailyStats (replayStatsSession). Boards' fixed part is memoised after the first run (as in a
// worker), so the figures are the per-minute cost. No target: the issue asks that the growth be
// measured and reported (bench/README.md, "Extended sessions").
//
//   npx tsx bench/extended-stats.bench.ts
import { loadavg } from "node:os";
import { Bench } from "tinybench";
import { loadKernels } from "../lib/kernels";
import { createSimulatedMarket, fixedClock } from "../lib/market";
import { etInstant } from "../lib/time";
import { statsGridQuery } from "../server/modules/positioning/stats-daily";
import { gridOptions } from "../server/modules/positioning/grid-route";
import { replayStatsSession } from "../server/modules/positioning/stats-replay";
import type { Suite, SuiteReport } from "./suites";

const DATE = "2025-03-05";

/** Runs the two workloads for SPY and SPXW; one row per (symbol, session kind). */
export async function runExtendedStatsBench(): Promise<SuiteReport> {
  const engine = await loadKernels({ engine: "auto" });
  const nowMs = etInstant(DATE, "23:00");
  const market = createSimulatedMarket({ seed: 42, clock: fixedClock(nowMs) });
  const options = gridOptions(statsGridQuery("gamma"));
  const bench = new Bench({ name: "extended-stats", time: 1500, iterations: 5 });
  const frames = new Map<string, number>();
  for (const symbol of ["SPY", "SPXW"]) {
    for (const extended of [false, true]) {
      const name = `${symbol} ${extended ? "extended" : "regular"} session statistics`;
      const task = { symbol, date: DATE, extended, nowMs, options };
      frames.set(name, (await replayStatsSession(market, engine, task))!.frames); // warm the board memo
      bench.add(name, async () => {
        await replayStatsSession(market, engine, task);
      });
    }
  }
  await bench.run();
  const table = bench.tasks.map((t) => {
    const lat = "latency" in t.result ? t.result.latency : null;
    const n = frames.get(t.name)!;
    const mean = lat ? lat.mean : Number.NaN;
    return {
      workload: t.name,
      frames: n,
      "mean ms": Number(mean.toFixed(1)),
      "p99 ms": Number((lat?.p99 ?? Number.NaN).toFixed(1)),
      "us per frame": Number(((1000 * mean) / n).toFixed(1)),
    };
  });
  const notes = [`${engine.name} engine, seed 42, ${DATE}; load average ${loadavg()[0].toFixed(2)} at the end`];
  return { table, checks: [], notes };
}

/** The suite for bench/run.ts. */
export const extendedStatsSuite: Suite = { name: "extended-stats", run: runExtendedStatsBench };

const isMain = typeof process !== "undefined" && process.argv[1]?.endsWith("extended-stats.bench.ts");
if (isMain) {
  runExtendedStatsBench().then(
    (r) => {
      console.table(r.table);
      for (const n of r.notes) console.log(n);
    },
    (err) => {
      console.error(err);
      process.exitCode = 2;
    },
  );
}
