// Volatility benchmarks (issue 15 target): SVX at all five tenors on a full simulated SPXW board at
// one minute (terms, strips and interpolation from the ChainSnapshot; board generation excluded),
// target <= 5 ms, with the strip sums on the WASM and on the JS kernel engine side by side, and
// the strip sum alone on the 30-day strip. Run alone:
//   npx tsx bench/vol.bench.ts
// or add `volSuite` to bench/suites.ts. Prints one PASS/FAIL line per target, with the machine.
import os from "node:os";
import { Bench } from "tinybench";
import { createSimulatedMarket, fixedClock, type ChainSnapshot } from "../lib/market";
import { etInstant } from "../lib/time";
import { jsKernels, loadKernelsSync, type KernelEngine } from "../lib/kernels";
import { chainTerms, svxAll, vixTermVariance, expirationQuotes } from "../lib/vol";
import { benchRows, type BenchRow } from "./_rows";
import type { Suite, SuiteReport } from "./suites";

/** One measured workload against its target. */
export type VolBenchRow = BenchRow;

/** Runs the suite over 30 SPXW boards of one session (one minute apart) and returns its rows. */
export async function runVolBench(): Promise<VolBenchRow[]> {
  const market = createSimulatedMarket({ seed: 42, clock: fixedClock(Date.parse("2026-01-01T00:00:00Z")) });
  const day = "2024-05-01";
  const start = etInstant(day, "10:00");
  const boards: ChainSnapshot[] = [];
  for (let m = 0; m < 30; m++) boards.push(market.chainSync("SPXW", start + m * 60_000)!);
  const contracts = boards[0].right.length;
  let at = 0;
  let strikes = 0;
  const wasm = loadKernelsSync({ engine: "wasm" });
  const engines: [string, KernelEngine][] = [
    ["wasm", wasm],
    ["js", jsKernels],
  ];
  // The 30-day strip of the first board, for the strip sum alone.
  const strip = svxAll(chainTerms(boards[0])).svx30!;
  const stripTerms = chainTerms(boards[0]);
  const k30 = stripTerms.expirations.findIndex((e) => e.expiration === strip.next!.expiration);
  const term30 = stripTerms.term(k30)!;
  const contribution = new Float64Array(term30.strip.strike.length);
  const growth = Math.exp(term30.rateAnnual * term30.tYears);
  const bench = new Bench({ time: 2000, warmupTime: 300 });
  for (const [name, engine] of engines) {
    bench.add(`SVX, five tenors, SPXW board at one minute (${name})`, () => {
      at = (at + 1) % boards.length;
      const r = svxAll(chainTerms(boards[at], { engine }));
      strikes = (r.svx30?.near?.strikesUsed ?? 0) + (r.svx30?.next?.strikesUsed ?? 0);
    });
  }
  for (const [name, engine] of engines) {
    bench.add(`strip sum alone, SPXW 30-day strip (${name})`, () => {
      engine.vixStripSum(term30.strip, growth, contribution);
    });
  }
  bench.add("one VIX term (quotes gathered + strip), SPXW 30-day expiration", () => {
    at = (at + 1) % boards.length;
    const b = boards[at];
    const terms = chainTerms(b);
    const k = terms.expirations.findIndex((e) => e.tMinutes >= 43_200);
    const e = terms.expirations[k];
    vixTermVariance(expirationQuotes(b, e.expIndex), { tMinutes: e.tMinutes, rateAnnual: b.rate });
  });
  await bench.run();
  const targets: Record<string, number | null> = {
    "SVX, five tenors, SPXW board at one minute (wasm)": 5,
    "SVX, five tenors, SPXW board at one minute (js)": 5,
  };
  return benchRows(bench, targets, (name) =>
    name.startsWith("SVX") ? `${contracts} contracts, ${strikes} strikes in the 30-day strips` : name.startsWith("strip") ? `${term30.strip.strike.length} strikes` : "",
  );
}

/** The suite in `bench/run.ts` form. */
export const volSuite: Suite = {
  name: "vol",
  async run(): Promise<SuiteReport> {
    const rows = await runVolBench();
    return {
      table: rows.map((r) => ({ workload: r.name, "mean ms": Number(r.meanMs.toFixed(3)), "p99 ms": Number(r.p99Ms.toFixed(3)), "target ms": r.targetMs ?? "" })),
      checks: rows
        .filter((r) => r.targetMs !== null)
        .map((r) => ({ name: r.name, pass: r.pass === true, detail: `mean ${r.meanMs.toFixed(3)} ms (target <= ${r.targetMs} ms)` })),
      notes: rows.filter((r) => r.detail).map((r) => `${r.name}: ${r.detail}`),
    };
  },
};

if (process.argv[1]?.endsWith("vol.bench.ts")) {
  console.log(
    `# vol bench ${new Date().toISOString()} node ${process.version} ${os.cpus()[0]?.model ?? "cpu"} (${os.cpus().length} cpus) load ${os.loadavg()[0].toFixed(2)}`,
  );
  for (const row of await runVolBench()) {
    const verdict = row.pass === null ? "info" : row.pass ? "PASS" : "FAIL";
    console.log(
      `${verdict} ${row.name}: mean ${row.meanMs.toFixed(3)} ms, p99 ${row.p99Ms.toFixed(3)} ms${row.targetMs === null ? "" : ` (target <= ${row.targetMs} ms)`} ${row.detail}`,
    );
  }
}
