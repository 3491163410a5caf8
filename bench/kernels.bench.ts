// Kernels suite: W1 exposure, W2 implied vol, W3 spot profile of a 20,000-contract SPX-like chain,
// WASM engine vs JS engine vs npm peers, measured in one run, with the issue's targets as PASS/FAIL.
import { Bench } from "tinybench";
import { jsKernels, kernelsInfo, loadKernels, type ExposureResult, type ImpliedVolInput, type ImpliedVolResult } from "../lib/kernels";
import { bsmPrice } from "../lib/math";
import { peers } from "./_peers";
import { spotLevels, spxChain } from "./_spx-chain";
import type { Suite, SuiteReport } from "./suites";

interface Row {
  workload: string;
  engine: string;
  msPerChain: number;
  note?: string;
}

/** Median latency (ms) of a tinybench task. */
function p50(bench: Bench, name: string): number {
  const r = bench.getTask(name)?.result;
  if (!r || !("latency" in r)) throw new Error(`${name}: ${r && "error" in r ? String(r.error) : "no result"}`);
  return r.latency.p50;
}

/** W2 inputs: each contract priced by BSM at its smile vol (q = 0, so peers without q see the same problem). */
function ivInputs(c: ReturnType<typeof spxChain>): { input: ImpliedVolInput; trueVol: Float64Array } {
  const n = c.strike.length;
  const prices = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    prices[i] = bsmPrice({ spot: c.spot, strike: c.strike[i], tYears: c.tYears[i], vol: c.iv[i], rate: c.rate, dividendYield: 0, right: c.right[i] === 1 ? "C" : "P" });
  }
  return { input: { prices, spot: c.spot, strike: c.strike, tYears: c.tYears, right: c.right, rate: c.rate, dividendYield: 0 }, trueVol: c.iv };
}

/** Rows where the vol is identifiable: out of the money (all time value) with a price >= 1e-100. */
function accuracyRows(x: ImpliedVolInput): number[] {
  const rows: number[] = [];
  for (let i = 0; i < x.prices.length; i++) {
    const fwd = x.spot * Math.exp((x.rate ?? 0) * x.tYears[i]);
    const otm = x.right[i] === 1 ? x.strike[i] >= fwd : x.strike[i] < fwd;
    if (otm && x.prices[i] >= 1e-100) rows.push(i);
  }
  return rows;
}

function maxVolError(vols: Float64Array, trueVol: Float64Array, rows: number[]): { max: number; failures: number } {
  let max = 0;
  let failures = 0;
  for (const i of rows) {
    const v = vols[i];
    if (!(v > 0)) failures++;
    else max = Math.max(max, Math.abs(v - trueVol[i]));
  }
  return { max, failures };
}

export const kernelsSuite: Suite = {
  name: "kernels",
  async run(): Promise<SuiteReport> {
    const wasm = await loadKernels({ engine: "wasm" });
    const chain = spxChain();
    chain.dividendYield = 0; // several peers have no dividend yield: same inputs for everyone
    const n = chain.strike.length;
    const params = { spot: chain.spot, rate: chain.rate, dividendYield: 0, nStrikes: chain.nStrikes, nExp: chain.nExp };
    const spots = spotLevels(chain.spot, 100, 0.1);
    const { input: ivInput, trueVol } = ivInputs(chain);
    const outW: ExposureResult = wasm.exposure(chain, params);
    const outJ: ExposureResult = jsKernels.exposure(chain, params);
    const ivW: ImpliedVolResult = wasm.impliedVols(ivInput);
    const ivJ: ImpliedVolResult = jsKernels.impliedVols(ivInput);
    const peerGrid = new Float64Array(chain.nStrikes * chain.nExp);
    const peerVanna = new Float64Array(chain.nStrikes * chain.nExp);
    // Peers' implied vols take up to milliseconds each: they run on every 20th price and are scaled up.
    const stride = 20;
    const subRows = Array.from({ length: Math.ceil(n / stride) }, (_, j) => j * stride);
    const peerIvInput: ImpliedVolInput = {
      ...ivInput,
      prices: Float64Array.from(subRows, (i) => ivInput.prices[i]),
      strike: Float64Array.from(subRows, (i) => ivInput.strike[i]),
      tYears: Float64Array.from(subRows, (i) => ivInput.tYears[i]),
      right: Uint8Array.from(subRows, (i) => ivInput.right[i]),
    };
    const subTrueVol = Float64Array.from(subRows, (i) => trueVol[i]);
    const peerVols = new Float64Array(subRows.length);

    const fast = new Bench({ name: "kernels (fast tasks)", time: 1500, warmupTime: 300 });
    fast.add("W1 wasm", () => void wasm.exposure(chain, params, outW));
    fast.add("W1 js", () => void jsKernels.exposure(chain, params, outJ));
    fast.add("W2 wasm", () => void wasm.impliedVols(ivInput, ivW));
    fast.add("W2 js", () => void jsKernels.impliedVols(ivInput, ivJ));
    fast.add("W3 wasm", () => void wasm.profile(chain, params, spots, "gamma"));
    fast.add("W3 js", () => void jsKernels.profile(chain, params, spots, "gamma"));
    for (const p of peers) {
      if (p.exposure)
        fast.add(`W1 ${p.name}`, () => {
          peerGrid.fill(0);
          peerVanna.fill(0);
          p.exposure?.(chain, peerGrid, peerVanna);
        });
    }
    // Peers are 10-1000x slower: fewer, longer samples.
    const slow = new Bench({ name: "kernels (peers)", time: 1500, iterations: 3, warmupTime: 0, warmupIterations: 1 });
    for (const p of peers) {
      if (p.impliedVols) slow.add(`W2 ${p.name}`, () => p.impliedVols?.(peerIvInput, peerVols));
      if (p.gammaTotalAt)
        slow.add(`W3 ${p.name}`, () => {
          for (let j = 0; j < spots.length; j++) p.gammaTotalAt?.(chain, spots[j]);
        });
    }
    await fast.run();
    await slow.run();

    const rows: Row[] = [];
    const time = (name: string) => (fast.getTask(name) ? p50(fast, name) : p50(slow, name) * (name.startsWith("W2") ? n / subRows.length : 1));
    for (const w of ["W1", "W2", "W3"]) {
      rows.push({ workload: w, engine: "wasm", msPerChain: time(`${w} wasm`) });
      rows.push({ workload: w, engine: "js", msPerChain: time(`${w} js`) });
      for (const p of peers) {
        const task = `${w} ${p.name}`;
        if (fast.getTask(task) || slow.getTask(task)) rows.push({ workload: w, engine: p.name, msPerChain: time(task), note: p.note });
      }
    }
    const table = rows.map((r) => {
      const js = rows.find((x) => x.workload === r.workload && x.engine === "js")!.msPerChain;
      const peerTimes = rows.filter((x) => x.workload === r.workload && x.engine !== "js" && x.engine !== "wasm").map((x) => x.msPerChain);
      const fastestPeer = Math.min(...peerTimes);
      const perContract = r.workload === "W3" ? n * spots.length : n;
      return {
        workload: r.workload,
        engine: r.engine,
        "ns/contract": +((r.msPerChain * 1e6) / perContract).toFixed((r.msPerChain * 1e6) / perContract < 10 ? 2 : 1),
        "ms/chain": +r.msPerChain.toFixed(3),
        "vs js": `${(js / r.msPerChain).toFixed(2)}x`,
        "vs fastest peer": peerTimes.length ? `${(fastestPeer / r.msPerChain).toFixed(2)}x` : "n/a",
      };
    });

    // Accuracy of W2 (same rows for every engine), far-OTM extras, iterations.
    const accRows = accuracyRows(ivInput);
    const wErr = maxVolError(ivW.vols, trueVol, accRows);
    const jErr = maxVolError(ivJ.vols, trueVol, accRows);
    // Work per solved IV: Householder steps, and price evaluations (normalised Black function or
    // its complement, initial guess included), which both engines count identically.
    let steps = 0;
    let solved = 0;
    let evaluations = 0;
    let maxEvaluations = 0;
    let evaluationMismatches = 0;
    const evW = ivW.evaluations ?? new Int32Array(n);
    const evJ = ivJ.evaluations ?? new Int32Array(n);
    for (let i = 0; i < n; i++) {
      if (evW[i] !== evJ[i]) evaluationMismatches++;
      if (ivW.iterations[i] >= 0) {
        steps += ivW.iterations[i];
        evaluations += evW[i];
        maxEvaluations = Math.max(maxEvaluations, evW[i]);
        solved++;
      }
    }
    const meanSteps = steps / solved;
    const meanEvaluations = evaluations / solved;
    // Rows with no vol to find: priced below 1e-100, or in the money with a time value under a
    // few ulps of max(forward, strike) (the price is its intrinsic value to machine precision).
    let unidentifiable = 0;
    let identifiableFailures = 0;
    for (let i = 0; i < n; i++) {
      const df = Math.exp(-chain.rate * chain.tYears[i]);
      const fwd = chain.spot / df;
      const intrinsic = df * Math.max((ivInput.right[i] === 1 ? 1 : -1) * (fwd - chain.strike[i]), 0);
      const price = ivInput.prices[i];
      if (!(price >= 1e-100) || price - intrinsic <= 8 * Number.EPSILON * Math.max(fwd, chain.strike[i])) unidentifiable++;
      else if (!(ivW.vols[i] > 0)) identifiableFailures++;
    }
    // Far-OTM prices from 1e-10 down to 1e-100: solve, reprice, compare.
    const far = {
      prices: new Float64Array(10),
      spot: 5800,
      rate: 0.043,
      dividendYield: 0,
      strike: new Float64Array(10),
      tYears: new Float64Array(10),
      right: new Uint8Array(10),
    };
    for (let j = 0; j < 10; j++) {
      far.prices[j] = 10 ** (-10 - 10 * j);
      far.strike[j] = 5800 * (1.3 + 0.2 * j);
      far.tYears[j] = 0.1;
      far.right[j] = 1;
    }
    const farW = wasm.impliedVols(far);
    let farWorst = 0;
    let farFail = 0;
    for (let j = 0; j < 10; j++) {
      const v = farW.vols[j];
      if (!(v > 0)) {
        farFail++;
        continue;
      }
      const back = bsmPrice({ spot: 5800, strike: far.strike[j], tYears: 0.1, vol: v, rate: 0.043, dividendYield: 0, right: "C" });
      farWorst = Math.max(farWorst, Math.abs(back - far.prices[j]) / far.prices[j]);
    }
    const peerIvErrors = peers
      .filter((p) => p.impliedVols)
      .map((p) => {
        p.impliedVols?.(peerIvInput, peerVols);
        const e = maxVolError(peerVols, subTrueVol, accuracyRows(peerIvInput));
        return `${p.name}: W2 max vol error ${e.max.toExponential(2)}, ${e.failures} failures (on every ${stride}th price; time scaled to the chain)`;
      });

    const w1w = time("W1 wasm");
    const w1j = time("W1 js");
    const w1Peer = Math.min(...peers.filter((p) => p.exposure).map((p) => time(`W1 ${p.name}`)));
    const w2w = time("W2 wasm");
    const w3w = time("W3 wasm");
    const info = kernelsInfo();
    const checks = [
      { name: "W1 wasm >= 1.9x js engine", pass: w1j / w1w >= 1.9, detail: `${(w1j / w1w).toFixed(2)}x` },
      { name: "W1 wasm >= 6x fastest npm peer", pass: w1Peer / w1w >= 6, detail: `${(w1Peer / w1w).toFixed(2)}x` },
      {
        name: "W2 max vol error <= 1e-12 (OTM rows, price >= 1e-100)",
        pass: wErr.max <= 1e-12 && jErr.max <= 1e-12,
        detail: `wasm ${wErr.max.toExponential(2)}, js ${jErr.max.toExponential(2)} over ${accRows.length} rows`,
      },
      {
        name: "W2 no failures (rows with a vol to find, and far-OTM prices 1e-10..1e-100)",
        pass: identifiableFailures === 0 && wErr.failures === 0 && farFail === 0,
        detail: `${identifiableFailures} failures; ${ivW.failures} NaN, all among ${unidentifiable} rows priced < 1e-100 or with time value < 8 ulp of max(F, K); far-OTM reprice error ${farWorst.toExponential(2)}`,
      },
      {
        name: "W2 <= 3 price evaluations per IV on average",
        pass: meanEvaluations <= 3 && evaluationMismatches === 0,
        detail: `price evaluations per IV (mean) ${meanEvaluations.toFixed(3)}, max ${maxEvaluations}; refinement steps per IV (mean) ${meanSteps.toFixed(3)}; over ${solved} solved IVs, wasm and js counts ${evaluationMismatches === 0 ? "identical" : `differ on ${evaluationMismatches} rows`}`,
      },
      { name: "W2 >= 1.4M implied vols per second", pass: n / (w2w / 1000) >= 1.4e6, detail: `${(n / (w2w / 1000) / 1e6).toFixed(2)}M/s` },
      { name: "W3 100-level profile <= 10 ms", pass: w3w <= 10, detail: `${w3w.toFixed(2)} ms` },
      { name: "wasm <= 64 KiB", pass: info.wasmByteLength <= 65536, detail: `${info.wasmByteLength} bytes` },
    ];
    const notes = [
      `chain: ${n} contracts (${chain.nExp} expirations x ${chain.nStrikes} strikes x C/P), spot ${chain.spot}, r ${chain.rate}, q 0; W3 = ${spots.length} spot levels over +-10%`,
      "times are tinybench medians (p50); W3 counts ns per (contract x spot level)",
      ...peers.map((p) => `${p.name}: ${p.note}`),
      ...peerIvErrors,
    ];
    return { table, checks, notes };
  },
};
