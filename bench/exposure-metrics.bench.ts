// Issue 37 target: the heatmap with metric=charm costs no more than 1.2x metric=gamma. Measures
// the metric-dependent part of a heatmap answer (exposure grid + classified frame) on one full
// simulated SPXW board (seed 42), with the default window and over the whole board, for every
// metric. Run alone:
//   npx tsx bench/exposure-metrics.bench.ts [--engine js|wasm]
// Prints mean times and one PASS/FAIL line per window (charm / gamma <= 1.2).
import { Bench } from "tinybench";
import { loadKernels, type KernelEngineChoice } from "../lib/kernels";
import { createSimulatedMarket, fixedClock } from "../lib/market";
import { EXPOSURE_METRICS, type ExposureGridOptionsInput, exposureGrid, heatmapFrame } from "../lib/positioning";
import { etInstant } from "../lib/time";

/** The ceiling of charm's cost over gamma's. */
const TARGET_RATIO = 1.2;

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const engine = await loadKernels({ engine: (arg("--engine") ?? "auto") as KernelEngineChoice });
const date = "2024-03-06";
const atMs = etInstant(date, "11:00");
const market = createSimulatedMarket({ seed: 42, clock: fixedClock(atMs) });
const chain = market.chainSync("SPXW", atMs);
if (!chain) throw new Error("the simulated market has no SPXW board at 11:00");

const windows: [string, ExposureGridOptionsInput][] = [
  ["default window", {}],
  ["whole board", { maxStrikes: "all", maxExpirations: "all", includeEmpty: true }],
];
let failed = false;
for (const [label, options] of windows) {
  const bench = new Bench({ time: 1500, warmup: true, warmupTime: 300 });
  for (const metric of EXPOSURE_METRICS) {
    bench.add(metric, () => {
      heatmapFrame(exposureGrid(chain, { ...options, metric }, engine), { layout: "net" });
    });
  }
  await bench.run();
  const mean = (name: string) => {
    const r = bench.tasks.find((t) => t.name === name)?.result;
    if (!r || !("latency" in r)) throw new Error(`${name}: no result`);
    return r.latency.mean;
  };
  for (const metric of EXPOSURE_METRICS) console.log(`${label.padEnd(15)} ${metric.padEnd(6)} ${mean(metric).toFixed(3)} ms (engine ${engine.name})`);
  const ratio = mean("charm") / mean("gamma");
  const pass = ratio <= TARGET_RATIO;
  failed ||= !pass;
  console.log(`${pass ? "PASS" : "FAIL"} ${label}: charm / gamma = ${ratio.toFixed(3)} (target <= ${TARGET_RATIO})`);
}
console.log("Figures from whatever machine ran this; on a loaded machine they are indicative only.");
process.exitCode = failed ? 1 : 0;
