// Open interest carry (docs/methodology.md#open-interest-carry-from-the-tape): what a board of a
// session new to the market costs now that its open interest reads the previous session's tape.
// Each iteration asks the 10:00 board of a session not asked before and reads its open interest
// (board built, previous session's sizes made). Optionally compares against another checkout's `lib` (the code before
// the carry), in the same process:
//   npx tsx bench/oi-carry.bench.ts [/path/to/before-checkout]
import os from "node:os";
import { Bench } from "tinybench";
import { benchRows } from "./_rows";
import { etInstant, tradingDaysBetween } from "../lib/time";

type MarketFactory = (o: { seed: number; clock: { now(): number } }) => { chainSync(s: string, t: number): { oi: Float64Array } | null };

/** Adds the new-session workloads of one implementation. */
function addWorkloads(bench: Bench, label: string, create: MarketFactory): void {
  const clock = { now: () => Date.parse("2025-06-02T20:30:00Z") };
  const days = tradingDaysBetween("2024-01-02", "2024-12-31");
  for (const [symbol, step] of [
    ["SPXW", 7],
    ["AAPL", 5],
  ] as const) {
    const market = create({ seed: 42, clock });
    let at = 0;
    bench.add(`${label}: ${symbol} board of a new session`, () => {
      at += step; // never the previous session of an earlier board: each iteration pays its own
      market.chainSync(symbol, etInstant(days[at], "10:00"))!.oi; // the carried column (computed on first read)
    });
  }
}

/** Runs the workloads (and the other checkout's, when given) and returns one row per workload. */
export async function oiCarrySuite(before?: string) {
  const bench = new Bench({ iterations: 8, time: 0, warmupIterations: 0, warmupTime: 0 });
  const now = await import("../lib/market/simulated");
  if (before) {
    const old = await import(`${before}/lib/market/simulated/index.ts`);
    addWorkloads(bench, "before", old.createSimulatedMarket as MarketFactory);
  }
  addWorkloads(bench, "with carry", now.createSimulatedMarket as unknown as MarketFactory);
  await bench.run();
  return benchRows(bench, {}, () => "");
}

if (process.argv[1]?.endsWith("oi-carry.bench.ts")) {
  console.log(
    `# oi-carry bench ${new Date().toISOString()} node ${process.version} ${os.cpus()[0]?.model ?? "cpu"} x${os.cpus().length} load ${os.loadavg()[0].toFixed(2)}`,
  );
  for (const row of await oiCarrySuite(process.argv[2])) console.log(`${row.name}: mean ${row.meanMs.toFixed(1)} ms, p99 ${row.p99Ms.toFixed(1)} ms`);
  console.log(`# load at the end ${os.loadavg()[0].toFixed(2)}`);
}
