// Simulated-market benchmarks (issue 4 targets): one SPXW board (~20,000 contracts) at a minute
// of a session whose fixed part is already built, building that fixed part, and a full day of
// one-minute bars for one symbol. Run alone:
//   npx tsx bench/market.bench.ts
// or import `marketSuite` from bench/run.ts. Prints one line per workload with a PASS/FAIL against
// its target (the machine, its load and the date are printed too; targets are on an idle core).
import os from "node:os";
import { Bench } from "tinybench";
import { fixedClock } from "../lib/market/clock";
import { createSimulatedMarket } from "../lib/market/simulated";
import { benchRows, type BenchRow } from "./_rows";
import { sessionBounds, tradingDaysBetween } from "../lib/time";

/** One measured workload against its target. */
export type MarketBenchRow = BenchRow;

/** Runs the suite and returns one row per workload. */
export async function marketSuite(): Promise<MarketBenchRow[]> {
  const market = createSimulatedMarket({ seed: 42, clock: fixedClock(Date.parse("2025-06-02T20:30:00Z")) });
  const day = "2024-05-01";
  const { openMs } = sessionBounds(day);
  const days = tradingDaysBetween("2024-01-02", "2024-12-31");
  const allDays = tradingDaysBetween("2023-03-28", "2030-12-30");
  const bars = createSimulatedMarket({ seed: 42, clock: fixedClock(Date.parse("2031-01-01T00:00:00Z")) });
  bars.spotSync("AAPL", Date.parse("2024-01-02T15:00:00Z")); // daily paths are built once per market
  let minute = 0;
  let dayAt = 0;
  let sessionAt = 0;
  // Warm the session board once: replay asks 390 minutes of one session.
  const contracts = market.chainSync("SPXW", openMs + 60_000)!.right.length;

  const bench = new Bench({ time: 1500, warmupTime: 300 });
  bench
    .add("SPXW chain, one minute (board built)", () => {
      minute = (minute + 1) % 390;
      market.chainSync("SPXW", openMs + minute * 60_000);
    })
    .add("SPXW session board (expirations, strikes, OI)", () => {
      // Cycling over more sessions than the board cache holds, so each board is really rebuilt.
      sessionAt = (sessionAt + 1) % days.length;
      market.chainSync("SPXW", sessionBounds(days[sessionAt]).openMs + 7 * 60_000);
    })
    .add("one day of one-minute bars, one symbol (extended, not cached)", () => {
      // Cycling over more sessions than the path and bar caches hold: each day is really generated.
      dayAt = (dayAt + 1) % allDays.length;
      const b = sessionBounds(allDays[dayAt], { extended: true });
      bars.minuteBarsSync("AAPL", b.openMs, b.closeMs, { extended: true });
    });
  await bench.run();

  // One tape is the truth (docs/methodology.md#one-tape-board-volume-from-the-prints): reading a
  // board's volume sums the tape before its minute; the first read of a session makes its tape.
  const { closeMs } = sessionBounds(day);
  market.chainSync("SPXW", closeMs)!.volume; // the whole day's tape, once
  let volumeMinute = 0;
  let coldAt = 0;
  const tapeBench = new Bench({ time: 1500, warmupTime: 300 });
  tapeBench.add("SPXW chain with volume, one minute (board built, day's tape made)", () => {
    volumeMinute = (volumeMinute + 1) % 390;
    market.chainSync("SPXW", openMs + volumeMinute * 60_000)!.volume;
  });
  // A cold tape costs seconds: a handful of sessions, each new to the market (no memo).
  const coldBench = new Bench({ iterations: 4, time: 0, warmupIterations: 0, warmupTime: 0 });
  coldBench.add("SPXW closing board volume, cold session (a full day of tape)", () => {
    coldAt += 1;
    market.chainSync("SPXW", sessionBounds(days[coldAt * 17]).closeMs)!.volume;
  });
  await tapeBench.run();
  await coldBench.run();
  const targets: Record<string, number | null> = {
    "SPXW chain, one minute (board built)": 5,
    "SPXW session board (expirations, strikes, OI)": null,
    "one day of one-minute bars, one symbol (extended, not cached)": 5,
    "SPXW chain with volume, one minute (board built, day's tape made)": null,
    "SPXW closing board volume, cold session (a full day of tape)": null,
  };
  const detail = (name: string) => (name.startsWith("SPXW chain") ? `${contracts} contracts` : "");
  return [...benchRows(bench, targets, detail), ...benchRows(tapeBench, targets, detail), ...benchRows(coldBench, targets, detail)];
}

if (process.argv[1]?.endsWith("market.bench.ts")) {
  console.log(`# market bench ${new Date().toISOString()} node ${process.version} ${os.cpus()[0]?.model ?? "cpu"} load ${os.loadavg()[0].toFixed(2)}`);
  for (const row of await marketSuite()) {
    const verdict = row.pass === null ? "info" : row.pass ? "PASS" : "FAIL";
    const target = row.targetMs === null ? "" : ` (target <= ${row.targetMs} ms)`;
    console.log(`${verdict} ${row.name}: mean ${row.meanMs.toFixed(3)} ms, p99 ${row.p99Ms.toFixed(3)} ms${target} ${row.detail}`);
  }
}
