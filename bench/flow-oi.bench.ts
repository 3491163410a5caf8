// `oi=flow` (docs/methodology.md#flow-open-interest): what the estimate costs beside the board.
// - the estimator alone over a whole SPXW day of prints (pure CPU, prints already read);
// - a live minute: the running estimate extended by one minute of prints (what a compute worker
//   does per symbol and minute once its estimate is warm), against building that minute's board.
//   npx tsx bench/flow-oi.bench.ts
import os from "node:os";
import { Bench } from "tinybench";
import { openInterestBySymbol } from "../lib/flow/board-open-interest";
import { createSimulatedMarket } from "../lib/market";
import { FlowOiEstimator } from "../lib/positioning/flow-oi";
import { etInstant, sessionBounds } from "../lib/time";
import { FlowOiSessions } from "../server/modules/positioning/flow-oi-sessions";
import { benchRows } from "./_rows";

const DATE = "2025-01-15";
const SYMBOL = "SPXW";
const MINUTE_MS = 60_000;

/** Runs the workloads and returns one row per workload. */
export async function flowOiSuite() {
  const clock = { ms: etInstant(DATE, "12:00") };
  const market = createSimulatedMarket({ seed: 42, clock: { now: () => clock.ms } });
  const { openMs, closeMs } = sessionBounds(DATE);
  clock.ms = closeMs;
  const opening = openInterestBySymbol((await market.chain(SYMBOL, openMs))!);
  const prints = await market.optionPrints(SYMBOL, openMs, closeMs);
  const bench = new Bench({ iterations: 8, time: 0, warmupIterations: 1, warmupTime: 0 });
  bench.add(`estimator over a whole ${SYMBOL} day (${prints.length} prints)`, () => {
    new FlowOiEstimator(DATE, opening).add(prints);
  });
  // Live: warm at 12:00, then one minute more per iteration.
  const sessions = new FlowOiSessions(market);
  let t = etInstant(DATE, "12:00");
  await sessions.estimate(SYMBOL, DATE, t);
  bench.add(`${SYMBOL} running estimate, one more minute`, async () => {
    t += MINUTE_MS;
    await sessions.estimate(SYMBOL, DATE, t);
  });
  let b = etInstant(DATE, "12:00");
  bench.add(`${SYMBOL} board of one more minute (for scale)`, async () => {
    b += MINUTE_MS;
    await market.chain(SYMBOL, b);
  });
  await bench.run();
  return benchRows(bench, {}, () => "");
}

if (process.argv[1]?.endsWith("flow-oi.bench.ts")) {
  console.log(
    `# flow-oi bench ${new Date().toISOString()} node ${process.version} ${os.cpus()[0]?.model ?? "cpu"} x${os.cpus().length} load ${os.loadavg()[0].toFixed(2)}`,
  );
  for (const row of await flowOiSuite()) console.log(`${row.name}: mean ${row.meanMs.toFixed(1)} ms, p99 ${row.p99Ms.toFixed(1)} ms`);
  console.log(`# load at the end ${os.loadavg()[0].toFixed(2)}`);
}
