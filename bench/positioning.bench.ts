// Positioning benchmarks (issue 3 targets): one live SPXW frame, a 390-frame SPY session of daily
// statistics, and the zero-gamma spot profile over the SPXW chain. Run alone:
//   npx tsx bench/positioning.bench.ts [--engine js|wasm]
// or add `positioningSuite` to bench/suites.ts. Prints one PASS/FAIL line per target.
// Chains come from the simulated market (seed 42) by default; `--synthetic` uses the
// deterministic synthetic boards below instead.
import { Bench } from "tinybench";
import { loadKernels, type KernelEngine, type KernelEngineChoice } from "../lib/kernels";
import { createSimulatedMarket, fixedClock } from "../lib/market";
import {
  POSITIONING_DEFAULTS,
  strikeWindow,
  dailyStats,
  exposureGrid,
  heatmapFrame,
  sessionFrameInstants,
  statFrame,
  zeroGammaLevel,
  type HeatmapFrame,
  type PositioningChain,
} from "../lib/positioning";
import { etInstant } from "../lib/time";
import { settlementInstantMs } from "../lib/symbols";
import type { Suite, SuiteReport } from "./suites";
import { mulberry32 } from "./_mulberry32";

/** One measured workload against its target. */
export interface PositioningBenchRow {
  name: string;
  meanMs: number;
  p99Ms: number;
  targetMs: number;
  pass: boolean;
  engine: string;
}

// --- synthetic chains (deterministic; `--synthetic`) ---

/** Trading dates from `date` on (weekdays; holidays do not matter for a bench board). */
function nextWeekdays(date: string, n: number): string[] {
  const out: string[] = [];
  const d = new Date(`${date}T12:00:00Z`);
  while (out.length < n) {
    const w = d.getUTCDay();
    if (w !== 0 && w !== 6) out.push(d.toISOString().slice(0, 10));
    d.setUTCDate(d.getUTCDate() + 1);
  }
  return out;
}

/**
 * An SPX-like board: `nExp` expirations x `nStrikes` strikes x call/put, skewed smile, OI
 * concentrated near the money and at round strikes. 40 x 250 x 2 = 20,000 contracts.
 */
export function syntheticChain(opts: {
  symbol: string;
  root: string;
  date: string;
  asOfMs: number;
  spot: number;
  step: number;
  nExp: number;
  nStrikes: number;
  seed: number;
}): PositioningChain {
  const r = mulberry32(opts.seed);
  const expirations = nextWeekdays(opts.date, opts.nExp);
  const k0 = Math.round(opts.spot / opts.step) * opts.step - Math.floor(opts.nStrikes / 2) * opts.step;
  const strikes = Float64Array.from({ length: opts.nStrikes }, (_, i) => k0 + i * opts.step);
  const n = opts.nExp * opts.nStrikes * 2;
  const c = {
    strikeIndex: new Int32Array(n),
    expIndex: new Int32Array(n),
    right: new Uint8Array(n),
    oi: new Float64Array(n),
    bid: new Float64Array(n),
    ask: new Float64Array(n),
    iv: new Float64Array(n),
  };
  let i = 0;
  for (let e = 0; e < opts.nExp; e++) {
    const atmVol = 0.13 + 0.002 * Math.sqrt(e + 1);
    for (let s = 0; s < opts.nStrikes; s++) {
      const m = Math.log(strikes[s] / opts.spot);
      const round = strikes[s] % (opts.step * 10) === 0 ? 3 : 1;
      for (const right of [0, 1]) {
        c.strikeIndex[i] = s;
        c.expIndex[i] = e;
        c.right[i] = right;
        c.iv[i] = Math.max(0.05, atmVol - 0.9 * m + 2.5 * m * m);
        c.oi[i] = Math.round(round * (200 + 8000 * Math.exp(-(m * m) / 0.002)) * (0.5 + r()));
        i++;
      }
    }
  }
  return {
    symbol: opts.symbol,
    asOfMs: opts.asOfMs,
    spot: opts.spot,
    rate: 0.045,
    dividendYield: 0.013,
    simulated: true,
    expirations,
    expirySettleMs: expirations.map((d) => settlementInstantMs(opts.root, d)),
    strikes,
    ...c,
  };
}

// --- the suite ---

const TARGETS = { liveFrameMs: 2, sessionStatsMs: 150, zeroGammaMs: 60 };

/** Boards of the simulated market (seed 42): full SPXW boards, SPY windows as daily statistics read them. */
function simulatedChains(date: string): (symbol: "SPXW" | "SPY", atMs: number) => PositioningChain {
  const market = createSimulatedMarket({ seed: 42, clock: fixedClock(Date.parse(`${date}T23:59:00Z`) + 86_400_000) });
  const select = {
    maxExpirations: POSITIONING_DEFAULTS.maxExpirations,
    strikeWindow: (k: Float64Array, spot: number) => strikeWindow(k, spot, POSITIONING_DEFAULTS.maxStrikes),
  };
  return (symbol, atMs) => {
    const c = symbol === "SPXW" ? market.chainSync(symbol, atMs) : market.chainWindowSync(symbol, atMs, select);
    if (!c) throw new Error(`simulated market has no ${symbol} board at ${new Date(atMs).toISOString()}`);
    return c;
  };
}

/** Deterministic synthetic boards: SPXW 40 x 250 x 2 = 20,000 contracts; SPY 30 x 150 x 2. */
function syntheticChains(date: string): (symbol: "SPXW" | "SPY", atMs: number) => PositioningChain {
  return (symbol, atMs) =>
    symbol === "SPXW"
      ? syntheticChain({ symbol, root: "SPXW", date, asOfMs: atMs, spot: 5801.3, step: 5, nExp: 40, nStrikes: 250, seed: 7 })
      : syntheticChain({ symbol, root: "SPY", date, asOfMs: atMs, spot: 580.13 + Math.sin(atMs / 9e5), step: 1, nExp: 30, nStrikes: 150, seed: 11 });
}

/**
 * Runs the three positioning workloads and returns one row per target (also printed as PASS/FAIL
 * unless `print: false`). Chains: the simulated market unless `source: "synthetic"`.
 */
export async function runPositioningBench(
  options: { engine?: KernelEngine | KernelEngineChoice; source?: "simulated" | "synthetic"; print?: boolean } = {},
): Promise<{ rows: PositioningBenchRow[]; notes: string[] }> {
  const engine = typeof options.engine === "object" ? options.engine : await loadKernels({ engine: options.engine ?? "auto" });
  const date = "2025-03-05";
  const stamps = sessionFrameInstants(date);
  const source = options.source ?? "simulated";
  const chainAt = source === "simulated" ? simulatedChains(date) : syntheticChains(date);

  const spxw = chainAt("SPXW", etInstant(date, "11:00"));
  const earlier: HeatmapFrame = heatmapFrame(exposureGrid(chainAt("SPXW", etInstant(date, "10:55")), {}, engine));
  const spySession = stamps.map((t) => chainAt("SPY", t));

  const bench = new Bench({ name: "positioning", time: 400, iterations: 10 });
  bench
    .add("live SPXW frame: exposureGrid (default window) + heatmapFrame (classify, velocity)", () => {
      heatmapFrame(exposureGrid(spxw, {}, engine), { live: true, earlier });
    })
    .add(`SPY session statistics: ${stamps.length} frames (grid + statFrame) + dailyStats`, () => {
      const frames = spySession.map((c) => statFrame(exposureGrid(c, {}, engine)));
      dailyStats(frames, { date, nowMs: stamps[stamps.length - 1] + 3_600_000 });
    })
    .add("zero-gamma profile, SPXW chain (all expirations), +-10% at 0.1% steps", () => {
      zeroGammaLevel(spxw, { maxExpirations: "all" }, engine);
    });
  await bench.run();

  const targets = [TARGETS.liveFrameMs, TARGETS.sessionStatsMs, TARGETS.zeroGammaMs];
  const rows = bench.tasks.map((t, i): PositioningBenchRow => {
    const res = t.result;
    const stats = "latency" in res ? res.latency : null;
    const meanMs = stats ? stats.mean : Number.NaN;
    return { name: t.name, meanMs, p99Ms: stats ? stats.p99 : Number.NaN, targetMs: targets[i], pass: meanMs <= targets[i], engine: engine.name };
  });
  const notes = [
    `${engine.name} engine; ${source} chains (${date}); SPXW board ${spxw.oi.length} contracts; ` +
      `SPY session boards ${spySession[0].oi.length} contracts each${source === "simulated" ? " (the default window, as statistics read them)" : ""}; ` +
      "board generation is outside the timings",
  ];
  if (options.print ?? true) {
    console.log(`positioning bench: ${notes[0]}`);
    for (const r of rows) {
      console.log(`${r.pass ? "PASS" : "FAIL"} ${r.name}: mean ${r.meanMs.toFixed(3)} ms, p99 ${r.p99Ms.toFixed(3)} ms (target <= ${r.targetMs} ms)`);
    }
  }
  return { rows, notes };
}

/** The suite for bench/run.ts (shape of bench/suites.ts). */
export const positioningSuite: Suite = {
  name: "positioning",
  async run(): Promise<SuiteReport> {
    const { rows, notes } = await runPositioningBench({ print: false });
    return {
      table: rows.map((r) => ({
        workload: r.name,
        engine: r.engine,
        "mean ms": Number(r.meanMs.toFixed(3)),
        "p99 ms": Number(r.p99Ms.toFixed(3)),
        "target ms": r.targetMs,
      })),
      checks: rows.map((r) => ({ name: r.name, pass: r.pass, detail: `mean ${r.meanMs.toFixed(3)} ms (target <= ${r.targetMs} ms)` })),
      notes,
    };
  },
};

// Run directly: npx tsx bench/positioning.bench.ts [--engine js|wasm] [--synthetic]
const isMain = typeof process !== "undefined" && process.argv[1]?.endsWith("positioning.bench.ts");
if (isMain) {
  const i = process.argv.indexOf("--engine");
  const engine = (i > 0 ? process.argv[i + 1] : "auto") as KernelEngineChoice;
  const source = process.argv.includes("--synthetic") ? "synthetic" : "simulated";
  runPositioningBench({ engine, source }).then(
    ({ rows }) => {
      process.exitCode = rows.every((r) => r.pass) ? 0 : 1;
    },
    (err) => {
      console.error(err);
      process.exitCode = 2;
    },
  );
}
