// Flow-module benchmark (issue 14 target): score a full regular session of simulated SPXW prints
// with the columnar batch (`scoreFlowColumns`, target >= 1,000,000 prints/s) and with the plain-JS
// per-object reference loop (`scoreFlow`, the oracle) in one tinybench run, and report the ratio.
// Column building (`flowColumns`, from OptionPrint objects) is measured too, as its own row.
// Run alone:
//   npx tsx bench/flow.bench.ts
// or add `flowSuite` to bench/suites.ts. Prints one PASS/FAIL line per target.
import { cpus, loadavg } from "node:os";
import { Bench } from "tinybench";
import { allocateFlowScoreColumns, flowColumns, openInterestBySymbol, premiumNorm, scoreFlow, scoreFlowColumns } from "../lib/flow";
import { fixedClock } from "../lib/market/clock";
import { createSimulatedMarket } from "../lib/market/simulated";
import { sessionBounds } from "../lib/time";
import type { Suite, SuiteReport } from "./suites";

const TARGET_PRINTS_PER_S = 1_000_000;
const SESSION = "2024-03-15";
const PRIOR_SESSION = "2024-03-14";

/** Regular-session SPXW prints of a day from the simulator (seed 42). */
async function sessionPrints(market: ReturnType<typeof createSimulatedMarket>, date: string) {
  const { openMs, closeMs } = sessionBounds(date);
  return market.optionPrints("SPXW", openMs, closeMs);
}

async function runFlowBench(): Promise<SuiteReport> {
  const market = createSimulatedMarket({ seed: 42, clock: fixedClock(Date.UTC(2024, 3, 1)) });
  const prints = await sessionPrints(market, SESSION);
  const prior = await sessionPrints(market, PRIOR_SESSION);
  const board = await market.chain("SPXW", sessionBounds(SESSION).openMs);
  const oi = board ? openInterestBySymbol(board) : new Map<string, number>();
  const ctx = { normPremiumUsd: premiumNorm(prior), openInterest: oi };
  const cols = flowColumns(prints, oi);
  const out = allocateFlowScoreColumns(cols.n);
  const n = prints.length;

  const names = { columnar: "columnar scoreFlowColumns", oracle: "per-object scoreFlow (oracle)", build: "flowColumns (objects -> columns)" };
  const bench = new Bench({ name: "flow", time: 1500, warmupTime: 300 });
  bench
    .add(names.columnar, () => {
      scoreFlowColumns(cols, ctx, out);
    })
    .add(names.oracle, () => {
      scoreFlow(prints, ctx);
    })
    .add(names.build, () => {
      flowColumns(prints, oi);
    });
  await bench.run();

  // CPU time per call, measured apart from tinybench: less sensitive to other jobs on the machine.
  const cpuMs: Record<string, number> = {};
  const cpuOf = (name: string, reps: number, fn: () => void) => {
    const c0 = process.cpuUsage();
    for (let k = 0; k < reps; k++) fn();
    const c = process.cpuUsage(c0);
    cpuMs[name] = (c.user + c.system) / 1000 / reps;
  };
  cpuOf(names.columnar, 40, () => scoreFlowColumns(cols, ctx, out));
  cpuOf(names.oracle, 4, () => scoreFlow(prints, ctx));
  cpuOf(names.build, 20, () => flowColumns(prints, oi));

  const meanMs: Record<string, number> = {};
  const table: SuiteReport["table"] = [];
  for (const t of bench.tasks) {
    const r = t.result as unknown as { latency?: { mean: number; p99: number }; mean?: number; p99?: number };
    const mean = r.latency?.mean ?? r.mean ?? Number.NaN;
    const p99 = r.latency?.p99 ?? r.p99 ?? Number.NaN;
    meanMs[t.name] = mean;
    table.push({
      workload: t.name,
      prints: n,
      "mean ms": Number(mean.toFixed(3)),
      "p99 ms": Number(p99.toFixed(3)),
      "prints/s": Math.round(n / (mean / 1000)),
      "cpu ms/call": Number(cpuMs[t.name].toFixed(3)),
      "prints/cpu-s": Math.round(n / (cpuMs[t.name] / 1000)),
    });
  }
  const rate = n / (meanMs[names.columnar] / 1000);
  const ratio = meanMs[names.oracle] / meanMs[names.columnar];
  const checks: SuiteReport["checks"] = [
    {
      name: "score a full SPXW session (columnar)",
      pass: rate >= TARGET_PRINTS_PER_S,
      detail: `${Math.round(rate).toLocaleString("en-US")} prints/s over ${n} prints (target >= 1,000,000); ${ratio.toFixed(1)}x the per-object oracle`,
    },
  ];
  const notes = [
    `SPXW ${SESSION}, seed 42: ${n} prints, ${cols.symbols.length} contracts, norm premium ${ctx.normPremiumUsd.toFixed(0)} USD (median of ${PRIOR_SESSION})`,
    `columnar vs oracle: ${ratio.toFixed(1)}x wall, ${(cpuMs[names.oracle] / cpuMs[names.columnar]).toFixed(1)}x CPU; columns + scoring: ${Math.round(n / ((meanMs[names.columnar] + meanMs[names.build]) / 1000)).toLocaleString("en-US")} prints/s`,
    `load average ${loadavg()[0].toFixed(2)} on ${cpus().length} cores`,
  ];
  return { table, checks, notes };
}

/** The suite for bench/run.ts. */
export const flowSuite: Suite = { name: "flow", run: runFlowBench };

if (process.argv[1]?.endsWith("flow.bench.ts")) {
  console.log(`# flow bench ${new Date().toISOString()} node ${process.version} ${cpus()[0]?.model ?? "cpu"} load ${loadavg()[0].toFixed(2)}`);
  const report = await runFlowBench();
  console.table(report.table);
  for (const note of report.notes) console.log(`  - ${note}`);
  for (const c of report.checks) console.log(`${c.pass ? "PASS" : "FAIL"} ${c.name}: ${c.detail}`);
}
