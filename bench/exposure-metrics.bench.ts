// Issue 37 target: the heatmap with metric=charm costs no more than 1.2x metric=gamma. Measures
// the metric-dependent part of a heatmap answer (exposure grid + classified frame) on one full
// simulated SPXW board (seed 42), with the default window and over the whole board, for every
// metric. Run alone:
//   npx tsx bench/exposure-metrics.bench.ts [--engine js|wasm] [--rounds N]
// The metrics are timed in N short rounds (default 5), each in a rotated order, so load from other
// processes that comes and goes falls on every metric alike: each metric's figure is the median of
// its round means, each ratio the median of the rounds' ratios to gamma. Prints one PASS/FAIL line
// per window for charm / gamma <= 1.2, and the delta and vomma ratios (same kernel as charm).
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
const rounds = Number(arg("--rounds") ?? 5);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a whole number >= 1, got ${arg("--rounds")}`);
/** Median of a non-empty list. */
const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
let failed = false;
for (const [label, options] of windows) {
  const means = new Map<string, number[]>(EXPOSURE_METRICS.map((m) => [m, []]));
  const ratios = new Map<string, number[]>(EXPOSURE_METRICS.map((m) => [m, []]));
  for (let r = 0; r < rounds; r++) {
    const bench = new Bench({ time: 300, warmup: true, warmupTime: 100 });
    const order = EXPOSURE_METRICS.map((_, i) => EXPOSURE_METRICS[(i + r) % EXPOSURE_METRICS.length]);
    for (const metric of order) {
      bench.add(metric, () => {
        heatmapFrame(exposureGrid(chain, { ...options, metric }, engine), { layout: "net" });
      });
    }
    await bench.run();
    const mean = (name: string) => {
      const res = bench.tasks.find((t) => t.name === name)?.result;
      if (!res || !("latency" in res)) throw new Error(`${name}: no result`);
      return res.latency.mean;
    };
    for (const metric of EXPOSURE_METRICS) {
      means.get(metric)?.push(mean(metric));
      ratios.get(metric)?.push(mean(metric) / mean("gamma"));
    }
  }
  const ratioOf = (metric: string) => median(ratios.get(metric) ?? []);
  for (const metric of EXPOSURE_METRICS) {
    const ms = median(means.get(metric) ?? []);
    console.log(`${label.padEnd(15)} ${metric.padEnd(6)} ${ms.toFixed(3)} ms  / gamma ${ratioOf(metric).toFixed(3)} (engine ${engine.name})`);
  }
  const ratio = ratioOf("charm");
  const pass = ratio <= TARGET_RATIO;
  failed ||= !pass;
  const spread = (metric: string) => (ratios.get(metric) ?? []).map((x) => x.toFixed(3)).join(" ");
  console.log(`${pass ? "PASS" : "FAIL"} ${label}: charm / gamma = ${ratio.toFixed(3)} (target <= ${TARGET_RATIO}; rounds: ${spread("charm")})`);
  console.log(`     ${label}: delta / gamma = ${ratioOf("delta").toFixed(3)}, vomma / gamma = ${ratioOf("vomma").toFixed(3)} (median of ${rounds} rounds)`);
}
console.log("Figures from whatever machine ran this; on a loaded machine they are indicative only.");
process.exitCode = failed ? 1 : 0;
