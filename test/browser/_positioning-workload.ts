// One workload over the public library entry, run unchanged in headless Chromium (bundled) and in
// Node (vitest), so the results can be compared number for number. Two halves:
// - `workloadInputs`: the simulated market (pinned clock) makes the chains and bars;
// - `computeWorkload`: the positioning functions, the solver, symbols, calendar and aggregation on them.
// The page runs both halves itself, and also `computeWorkload` on Node's inputs (sent as JSON),
// which separates what the WASM engine computes from what V8's Math.* computes.
import {
  addTradingDays,
  aggregateBars,
  bsmPrice,
  classifyNodes,
  dailyStats,
  etInstant,
  exposureGrid,
  heatmapFrame,
  impliedVol,
  kernelsInfo,
  keyLevels,
  loadKernels,
  parseOptionSymbol,
  sessionBounds,
  statFrame,
  strikeWindow,
  type ChainSnapshot,
  type KernelEngine,
  type MinuteBars,
  type Resolution,
} from "../../lib/index";
import type { SimulatedMarket } from "../../lib/market";
import { simulatedMarketAt } from "../_helpers/simulated-market";

/** The pinned clock: Wednesday 2024-03-06, 16:30 EST (after the close). */
export const WORKLOAD_NOW_MS = Date.parse("2024-03-06T21:30:00Z");
/** The session the workload reads. */
export const WORKLOAD_DATE = "2024-03-06";
export const WORKLOAD_SEED = 42;

/** Typed arrays become plain arrays (and stay exact), recursively; everything else is copied as is. */
function plain(x: unknown): unknown {
  if (ArrayBuffer.isView(x) && !(x instanceof DataView)) return Array.from(x as unknown as ArrayLike<number>);
  if (Array.isArray(x)) return x.map(plain);
  if (x && typeof x === "object") return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, plain(v)]));
  return x;
}

/** Contracts of the first `nExp` expirations with the `n` strikes nearest spot (both rights). */
function nearMoney(c: ChainSnapshot, nExp: number, n: number): number[] {
  const rows: number[] = [];
  for (let i = 0; i < c.right.length; i++) if (c.expIndex[i] < nExp) rows.push(i);
  const dist = (i: number) => Math.abs(c.strikes[c.strikeIndex[i]] - c.spot);
  rows.sort((a, b) => c.expIndex[a] - c.expIndex[b] || dist(a) - dist(b) || a - b);
  const out: number[] = [];
  for (let e = 0; e < nExp; e++) out.push(...rows.filter((i) => c.expIndex[i] === e).slice(0, 2 * n));
  return out;
}

function bars(b: MinuteBars | ReturnType<typeof aggregateBars>) {
  return plain({ t: b.t, o: b.o, h: b.h, l: b.l, c: b.c, v: b.v, bv: b.bv, sv: b.sv, uv: b.uv });
}

/** Market data the workload reads: made by the simulator (in either runtime), or sent over as JSON. */
export interface WorkloadInputs {
  /** SPXW at 14:00 ET, the full board. */
  chain: ChainSnapshot;
  /** SPXW five minutes earlier (velocity), the first five expirations and 60 strikes only. */
  earlierChain: ChainSnapshot;
  /** SPY at 14:00 ET, the full board. */
  spyChain: ChainSnapshot;
  /** SPXW at a handful of the session's minutes, the default window only (daily statistics). */
  frameChains: ChainSnapshot[];
  /** SPY one-minute bars, extended hours, from 2024-03-01 to the clock's now. */
  minutes: MinuteBars;
}

/** The minutes of the session whose frames feed `dailyStats`. */
const FRAME_TIMES = ["09:30", "09:31", "10:15", "11:45", "13:00", "14:30", "15:30", "15:59"];

/** The simulated market of the workload (seed 42, pinned clock). */
function workloadMarket(): SimulatedMarket {
  return simulatedMarketAt(WORKLOAD_SEED, WORKLOAD_NOW_MS);
}

/**
 * The workload's market data, from the simulator.
 *
 * @example const inputs = await workloadInputs(workloadMarket());
 */
async function workloadInputs(market: SimulatedMarket): Promise<WorkloadInputs> {
  const atMs = etInstant(WORKLOAD_DATE, "14:00");
  const window = (maxStrikes: number) => ({ maxExpirations: 5, strikeWindow: (k: Float64Array, spot: number) => strikeWindow(k, spot, maxStrikes) });
  return {
    chain: (await market.chain("SPXW", atMs))!,
    earlierChain: market.chainWindowSync("SPXW", atMs - 5 * 60_000, window(60))!,
    spyChain: (await market.chain("SPY", atMs))!,
    frameChains: FRAME_TIMES.map((hm) => market.chainWindowSync("SPXW", etInstant(WORKLOAD_DATE, hm), window(92))!),
    minutes: await market.minuteBars("SPY", sessionBounds("2024-03-01").openMs, WORKLOAD_NOW_MS, { extended: true }),
  };
}

const CHAIN_COLUMNS = {
  strikes: Float64Array,
  strikeIndex: Int32Array,
  expIndex: Int32Array,
  right: Uint8Array,
  oi: Float64Array,
  bid: Float64Array,
  ask: Float64Array,
  last: Float64Array,
  iv: Float64Array,
  volume: Float64Array,
} as const;
const BAR_COLUMNS = ["t", "o", "h", "l", "c", "v", "bv", "sv", "uv"] as const;

/**
 * Typed arrays back from the plain arrays of {@link plain} (JSON keeps every double exactly).
 *
 * @example const inputs = reviveInputs(JSON.parse(JSON.stringify(plain(await workloadInputs(m)))));
 */
export function reviveInputs(wire: unknown): WorkloadInputs {
  const w = wire as Record<string, Record<string, unknown>>;
  const chain = (c: Record<string, unknown>): ChainSnapshot => {
    const out: Record<string, unknown> = { ...c };
    for (const [k, T] of Object.entries(CHAIN_COLUMNS)) out[k] = T.from(c[k] as number[]);
    return out as unknown as ChainSnapshot;
  };
  const minutes: Record<string, unknown> = { ...w.minutes };
  for (const k of BAR_COLUMNS) minutes[k] = Float64Array.from(w.minutes[k] as number[]);
  return {
    chain: chain(w.chain),
    earlierChain: chain(w.earlierChain),
    spyChain: chain(w.spyChain),
    frameChains: (w.frameChains as unknown as Record<string, unknown>[]).map(chain),
    minutes: minutes as unknown as MinuteBars,
  };
}

/** What {@link computeWorkload} returns: `exact` is arithmetic and WASM only; `jsMath` also uses V8's Math.*. */
export interface WorkloadNumbers {
  exact: Record<string, unknown>;
  jsMath: Record<string, unknown>;
}

/**
 * Runs exposureGrid, heatmapFrame (live, with velocity), classifyNodes, keyLevels (with the
 * zero-gamma profile), dailyStats, impliedVol, parseOptionSymbol, addTradingDays, sessionBounds
 * and aggregateBars on the inputs, with the given kernel engine.
 *
 * @example const { exact } = computeWorkload(inputs, await loadKernels());
 */
export function computeWorkload(inputs: WorkloadInputs, engine: KernelEngine): WorkloadNumbers {
  const { chain, earlierChain, spyChain, frameChains, minutes } = inputs;
  const date = WORKLOAD_DATE;

  const gamma = exposureGrid(chain, { metric: "gamma", maxStrikes: 60, layout: "matrix" }, engine);
  const vanna = exposureGrid(chain, { metric: "vanna", maxStrikes: 60, maxExpirations: 8 }, engine);
  const earlierFrame = heatmapFrame(exposureGrid(earlierChain, { metric: "gamma", maxStrikes: 60 }, engine));
  const frame = heatmapFrame(gamma, { live: true, earlier: earlierFrame });
  const nodeTypes = classifyNodes(
    frame.strikes.map((c) => ({ strike: c.strike, value: c.value })),
    frame.spot,
  );
  const levels = keyLevels(chain, {}, engine);
  const spyLevels = keyLevels(spyChain, { maxStrikes: 40 }, engine);
  const frames = frameChains.map((c) => statFrame(exposureGrid(c, {}, engine)));
  const stats = dailyStats(frames, { date, nowMs: WORKLOAD_NOW_MS });

  // Implied vol of near-the-money contracts of the first three expirations: the model value the
  // board's IV prices (quotes sit on the tick grid around it) solved back to the IV, and the quote
  // that straddles it (docs/methodology.md#tick-grid).
  const vols = nearMoney(chain, 3, 6).map((i) => {
    const e = chain.expIndex[i];
    const contract = {
      spot: chain.spot,
      strike: chain.strikes[chain.strikeIndex[i]],
      tYears: Math.max(chain.expirySettleMs[e] - chain.asOfMs, 60_000) / (365 * 86_400_000),
      rate: chain.rate,
      dividendYield: chain.dividendYield,
      right: (chain.right[i] === 1 ? "C" : "P") as "C" | "P",
    };
    const model = bsmPrice({ ...contract, vol: chain.iv[i] });
    const r = impliedVol({ ...contract, price: model });
    return { row: i, iv: chain.iv[i], solved: r, model, bid: chain.bid[i], ask: chain.ask[i] };
  });

  const symbols = ["SPXW__240306C05100000", "SPXW  240315P04900500", "AAPL240621C00195000", "NVDA__250117P00000500"].map(parseOptionSymbol);
  const tradingDays = [-300, -20, -5, -1, 0, 1, 5, 20, 300].map((n) => addTradingDays(date, n));
  const sessions = ["2023-03-28", "2023-11-06", "2023-11-24", "2024-03-11", "2024-07-03", "2024-12-24", date].map((d) => ({
    d,
    regular: sessionBounds(d),
    extended: sessionBounds(d, { extended: true }),
  }));
  const resolutions: Resolution[] = ["1", "5", "60", "240", "D", "W"];
  const aggregated = Object.fromEntries(resolutions.map((r) => [r, bars(aggregateBars(minutes, r, { extended: r !== "D" && r !== "W" }))]));
  const aggregatedRegular = bars(aggregateBars(minutes, "30"));

  const exact = plain({
    chain: { asOfMs: chain.asOfMs, spot: chain.spot, contracts: chain.right.length, expirations: chain.expirations },
    gamma,
    vanna,
    frame,
    nodeTypes,
    levels,
    spyLevels,
    stats,
    symbols,
    tradingDays,
    sessions,
    aggregated,
    aggregatedRegular,
  }) as Record<string, unknown>;
  return { exact, jsMath: plain({ vols }) as Record<string, unknown> };
}

/** Which engine each step reported, plus loader state. */
interface WorkloadEnv {
  wasmInstantiatedBefore: boolean;
  wasmInstantiatedAfter: boolean;
  loadedEngine: string;
  gridEngine: string;
  keyLevelsEngine: string;
  webAssembly: boolean;
  hasBuffer: boolean;
}

/** Result of {@link positioningWorkload}. */
export interface WorkloadResult {
  env: WorkloadEnv;
  /** The inputs this runtime's simulator made, as plain arrays. */
  inputs: unknown;
  numbers: WorkloadNumbers;
}

/**
 * The whole workload in this runtime: load the kernels (WASM by default), simulate, compute.
 *
 * @example const { env, numbers } = await positioningWorkload();
 */
export async function positioningWorkload(): Promise<WorkloadResult> {
  const wasmInstantiatedBefore = kernelsInfo().wasmInstantiated;
  const engine: KernelEngine = await loadKernels();
  const inputs = await workloadInputs(workloadMarket());
  const numbers = computeWorkload(inputs, engine);
  const env: WorkloadEnv = {
    wasmInstantiatedBefore,
    wasmInstantiatedAfter: kernelsInfo().wasmInstantiated,
    loadedEngine: engine.name,
    gridEngine: (numbers.exact.gamma as { meta: { engine: string } }).meta.engine,
    keyLevelsEngine: (numbers.exact.levels as { meta: { engine: string } }).meta.engine,
    webAssembly: kernelsInfo().webAssembly,
    hasBuffer: typeof (globalThis as { Buffer?: unknown }).Buffer !== "undefined",
  };
  return { env, inputs: plain(inputs), numbers };
}

/**
 * {@link computeWorkload} on inputs made elsewhere (Node's, sent as JSON), with the WASM engine.
 *
 * @example await computeOnWire(JSON.parse(json));
 * @public imported by the page script positioning.browser.test.ts bundles from a string, which knip cannot see.
 */
export async function computeOnWire(wire: unknown): Promise<WorkloadNumbers & { engine: string }> {
  const engine = await loadKernels();
  return { engine: engine.name, ...computeWorkload(reviveInputs(wire), engine) };
}
