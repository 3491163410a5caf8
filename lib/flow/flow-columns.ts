/**
 * The columnar (structure-of-arrays) Flow Score batch: the same results as `scoreFlow`, over
 * typed-array columns, fast enough to score a full SPXW session in milliseconds.
 * @see docs/methodology.md#flow-score-batch-path
 */
import type { OptionPrint } from "../market/prints/schemas";
import { CROSS_CONDITIONS, MULTI_LEG_CONDITIONS, OPTION_EXCHANGES, SWEEP_CONDITIONS, type OptionCondition } from "../market/prints/conditions";
import { etEpochDayOf } from "../time/et-time";
import { finishSteps } from "../finish-steps";
import { DTE_CONVICTION, FLOW_SCORE_PARAMS, MONEYNESS_CONVICTION, SWEEP_WINDOW } from "./params";
import { DEFAULT_FLOW_SCORE_WEIGHTS, type FlowScoreWeights } from "./score-weights";
import { roundHalfAway, sizeComponent } from "./flow-score";
import { dteCode, moneynessCode, DTE_CATEGORIES, MONEYNESS_CATEGORIES } from "./trade-facts";
import { SIDE_AGGRESSION, sideCode } from "./trade-side";

/** Bits of `FlowColumns.flags`. */
export const FLOW_FLAGS = { sweepCondition: 1, multiLeg: 2, cross: 4 } as const;

/** Prints as columns, one row per print (time order), plus per-contract columns. */
export interface FlowColumns {
  n: number;
  tsMs: Float64Array;
  /** Contract index into `symbols` / `contractOi`. */
  contract: Int32Array;
  /** 1 call, 0 put. */
  right: Uint8Array;
  priceUsd: Float64Array;
  size: Float64Array;
  bidUsd: Float64Array;
  askUsd: Float64Array;
  strike: Float64Array;
  underlyingPrice: Float64Array;
  /** Calendar days to expiry from the print's ET session date (>= 0). */
  dte: Int32Array;
  /** {@link FLOW_FLAGS} bits. */
  flags: Uint8Array;
  /** Index into `OPTION_EXCHANGES` (at most 31 exchanges: a bit mask per sweep). */
  exchange: Uint8Array;
  /** Contract symbols, by contract index. */
  symbols: string[];
  /** Open interest at the session's start by contract index; NaN when unknown. */
  contractOi: Float64Array;
}

/** Output columns of {@link scoreFlowColumns}, one row per print. */
export interface FlowScoreColumns {
  /** Side code (index into `TRADE_SIDES`). */
  side: Uint8Array;
  aggression: Float64Array;
  premiumUsd: Float64Array;
  moneynessPct: Float64Array;
  /** Index into `MONEYNESS_CATEGORIES`. */
  moneyness: Uint8Array;
  /** Index into `DTE_CATEGORIES`. */
  dteCategory: Uint8Array;
  /** Sweep id (same numbering as `groupSweeps`) or -1. */
  sweepGroup: Int32Array;
  dailyVolume: Float64Array;
  /** NaN where `scoreFlow` has null. */
  volOiRatio: Float64Array;
  sizeRatio: Float64Array;
  repeatCount: Int32Array;
  size: Float64Array;
  sweep: Float64Array;
  moneynessC: Float64Array;
  dteC: Float64Array;
  volOi: Float64Array;
  repeat: Float64Array;
  baseDirection: Float64Array;
  conviction: Float64Array;
  convictionMultiplier: Float64Array;
  flowScore: Int8Array;
  flowBonus: Uint8Array;
}

const DAY_MS = 86_400_000;
const EXCHANGE_INDEX = new Map<string, number>(OPTION_EXCHANGES.map((e, i) => [e, i]));
const MONEYNESS_TABLE = Float64Array.from(MONEYNESS_CATEGORIES, (m) => MONEYNESS_CONVICTION[m]);
const DTE_TABLE = Float64Array.from(DTE_CATEGORIES, (d) => DTE_CONVICTION[d]);

/** A columns build in progress (pieces of prints filled in order). */
interface ColumnsBuild {
  c: FlowColumns;
  index: Map<string, number>;
  expiryDay: Map<string, number>;
  flagsOfCondition: Map<string, number>;
  lastMinute: number;
  lastDay: number;
}

/** Rows `from` to `to` of the columns, from their prints. */
function fillColumns(prints: readonly OptionPrint[], b: ColumnsBuild, from: number, to: number): void {
  const { c, index, expiryDay, flagsOfCondition } = b;
  // The ET day changes at most once a session: remember it per UTC minute.
  let lastMinute = b.lastMinute;
  let lastDay = b.lastDay;
  for (let i = from; i < to; i++) {
    const p = prints[i];
    let k = index.get(p.symbol);
    if (k === undefined) {
      k = c.symbols.length;
      index.set(p.symbol, k);
      c.symbols.push(p.symbol);
    }
    let ed = expiryDay.get(p.expiry);
    if (ed === undefined) {
      ed = Math.round(Date.parse(`${p.expiry}T00:00:00Z`) / DAY_MS);
      expiryDay.set(p.expiry, ed);
    }
    const minute = Math.floor(p.tsMs / 60_000);
    if (minute !== lastMinute) {
      lastMinute = minute;
      lastDay = etEpochDayOf(p.tsMs);
    }
    const d = ed - lastDay;
    let flags = 0;
    for (const cond of p.conditions) {
      let f = flagsOfCondition.get(cond);
      if (f === undefined) {
        f =
          (SWEEP_CONDITIONS.has(cond as OptionCondition) ? FLOW_FLAGS.sweepCondition : 0) |
          (MULTI_LEG_CONDITIONS.has(cond as OptionCondition) ? FLOW_FLAGS.multiLeg : 0) |
          (CROSS_CONDITIONS.has(cond as OptionCondition) ? FLOW_FLAGS.cross : 0);
        flagsOfCondition.set(cond, f);
      }
      flags |= f;
    }
    c.tsMs[i] = p.tsMs;
    c.contract[i] = k;
    c.right[i] = p.right === "C" ? 1 : 0;
    c.priceUsd[i] = p.price;
    c.size[i] = p.size;
    c.bidUsd[i] = p.nbboBid;
    c.askUsd[i] = p.nbboAsk;
    c.strike[i] = p.strike;
    c.underlyingPrice[i] = p.underlyingPrice;
    // biome-ignore lint/complexity/useMathMinMax: a NaN day count gives 0 here; Math.max would keep NaN
    c.dte[i] = d > 0 ? d : 0;
    c.flags[i] = flags;
    c.exchange[i] = EXCHANGE_INDEX.get(p.exchange) ?? 0;
  }
  b.lastMinute = lastMinute;
  b.lastDay = lastDay;
}

/**
 * {@link flowColumns} as steps: pauses after each `printsPerPiece` prints (an event loop runs
 * other work between them: `runStepsOnLoop`), returns the same columns.
 * @example const cols = finishSteps(flowColumnsSteps(prints, oi, 10_000));
 */
export function* flowColumnsSteps(prints: readonly OptionPrint[], openInterest: ReadonlyMap<string, number>, printsPerPiece: number): Generator<void, FlowColumns, void> {
  const n = prints.length;
  const c: FlowColumns = {
    n,
    tsMs: new Float64Array(n),
    contract: new Int32Array(n),
    right: new Uint8Array(n),
    priceUsd: new Float64Array(n),
    size: new Float64Array(n),
    bidUsd: new Float64Array(n),
    askUsd: new Float64Array(n),
    strike: new Float64Array(n),
    underlyingPrice: new Float64Array(n),
    dte: new Int32Array(n),
    flags: new Uint8Array(n),
    exchange: new Uint8Array(n),
    symbols: [],
    contractOi: new Float64Array(0),
  };
  const b: ColumnsBuild = { c, index: new Map(), expiryDay: new Map(), flagsOfCondition: new Map(), lastMinute: Number.NaN, lastDay: 0 };
  for (let from = 0; from < n; from += printsPerPiece) {
    if (from > 0) yield;
    fillColumns(prints, b, from, Math.min(n, from + printsPerPiece));
  }
  c.contractOi = new Float64Array(c.symbols.length);
  for (let k = 0; k < c.symbols.length; k++) {
    const oi = openInterest.get(c.symbols[k]);
    c.contractOi[k] = oi !== undefined && Number.isFinite(oi) && oi >= 0 ? oi : Number.NaN;
  }
  return c;
}

/**
 * Builds the columns of a batch from prints (time order) and open interest by symbol.
 * @example
 * const cols = flowColumns(prints, new Map([["SPY__240322C00510000", 1200]]));
 * @see docs/methodology.md#flow-score-batch-path
 */
export function flowColumns(prints: readonly OptionPrint[], openInterest: ReadonlyMap<string, number>): FlowColumns {
  return finishSteps(flowColumnsSteps(prints, openInterest, Number.POSITIVE_INFINITY));
}

/** Allocates output columns for `n` prints. */
export function allocateFlowScoreColumns(n: number): FlowScoreColumns {
  return {
    side: new Uint8Array(n),
    aggression: new Float64Array(n),
    premiumUsd: new Float64Array(n),
    moneynessPct: new Float64Array(n),
    moneyness: new Uint8Array(n),
    dteCategory: new Uint8Array(n),
    sweepGroup: new Int32Array(n),
    dailyVolume: new Float64Array(n),
    volOiRatio: new Float64Array(n),
    sizeRatio: new Float64Array(n),
    repeatCount: new Int32Array(n),
    size: new Float64Array(n),
    sweep: new Float64Array(n),
    moneynessC: new Float64Array(n),
    dteC: new Float64Array(n),
    volOi: new Float64Array(n),
    repeat: new Float64Array(n),
    baseDirection: new Float64Array(n),
    conviction: new Float64Array(n),
    convictionMultiplier: new Float64Array(n),
    flowScore: new Int8Array(n),
    flowBonus: new Uint8Array(n),
  };
}

function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** A scoring in progress: its input, output and the state each pass carries from print to print. */
interface ScoreRun {
  cols: FlowColumns;
  out: FlowScoreColumns;
  weights: FlowScoreWeights;
  norm: number;
  // Pass 1: per (contract, side sign) key, the open sweep candidate and its first and last times.
  lastTs: Float64Array;
  firstTs: Float64Array;
  openCand: Int32Array;
  candMask: Int32Array;
  candIso: Uint8Array;
  nCand: number;
  // Pass 2: the sweep of each candidate, running contract volume, the ring of order times per key.
  sweepOfCand: Int32Array;
  volume: Float64Array;
  ring: Float64Array;
  ringHead: Int32Array;
  ringLen: Int32Array;
  lastGroup: Int32Array;
}

/** Pass 1 over prints `from` to `to`: side, aggression, sweep candidates. */
function scoreSides(run: ScoreRun, from: number, to: number): void {
  const { tsMs, contract, priceUsd, bidUsd, askUsd, flags, exchange } = run.cols;
  const { side, aggression, sweepGroup } = run.out;
  const { lastTs, firstTs, openCand, candMask, candIso } = run;
  let nCand = run.nCand;
  const noJoin = FLOW_FLAGS.multiLeg | FLOW_FLAGS.cross;
  for (let i = from; i < to; i++) {
    const s = sideCode(priceUsd[i], bidUsd[i], askUsd[i]);
    side[i] = s;
    const f = flags[i];
    const a = (f & FLOW_FLAGS.cross) !== 0 ? 0 : SIDE_AGGRESSION[s];
    aggression[i] = a;
    sweepGroup[i] = -1;
    if (a === 0 || (f & noJoin) !== 0) continue;
    const key = contract[i] * 2 + (a > 0 ? 1 : 0);
    const t = tsMs[i];
    let cand = openCand[key];
    if (cand >= 0 && t - lastTs[key] <= SWEEP_WINDOW.maxGapMs && t - firstTs[key] <= SWEEP_WINDOW.maxSpanMs) {
      lastTs[key] = t;
    } else {
      cand = nCand++;
      openCand[key] = cand;
      firstTs[key] = t;
      lastTs[key] = t;
    }
    candMask[cand] |= 1 << exchange[i];
    if ((f & FLOW_FLAGS.sweepCondition) !== 0) candIso[cand] = 1;
    sweepGroup[i] = cand; // candidate for now; mapped to a sweep id below
  }
  run.nCand = nCand;
}

/** Pass 2 over prints `from` to `to`: components and scores. */
function scoreComponents(run: ScoreRun, from: number, to: number): void {
  const P = FLOW_SCORE_PARAMS;
  const w = run.weights;
  const { out, sweepOfCand, volume, ring, ringHead, ringLen, lastGroup, norm } = run;
  const { tsMs, contract, right, priceUsd, size, strike, underlyingPrice, dte, flags, contractOi } = run.cols;
  const { aggression, sweepGroup } = out;
  const R = P.repeatSaturation + 1;
  for (let i = from; i < to; i++) {
    const cand = sweepGroup[i];
    const g = cand >= 0 ? sweepOfCand[cand] : -1;
    sweepGroup[i] = g;
    const k = contract[i];
    const t = tsMs[i];
    const premium = priceUsd[i] * size[i] * 100;
    out.premiumUsd[i] = premium;
    const S = underlyingPrice[i];
    const mPct = right[i] === 1 ? (100 * (strike[i] - S)) / S : (100 * (S - strike[i])) / S;
    out.moneynessPct[i] = mPct;
    const mc = moneynessCode(mPct);
    out.moneyness[i] = mc;
    const dc = dteCode(dte[i]);
    out.dteCategory[i] = dc;

    const vol = volume[k] + size[i];
    volume[k] = vol;
    out.dailyVolume[i] = vol;
    const oi = contractOi[k];
    let volOi: number;
    if (Number.isNaN(oi)) {
      out.volOiRatio[i] = Number.NaN;
      volOi = 0;
    } else if (oi > 0) {
      out.volOiRatio[i] = vol / oi;
      volOi = Math.min(1, vol / oi / P.volOiSaturation);
    } else {
      out.volOiRatio[i] = Number.NaN;
      volOi = 1;
    }

    const a = aggression[i];
    let repeatCount = 0;
    if (a !== 0) {
      const key = k * 2 + (a > 0 ? 1 : 0);
      const cutoff = t - P.repeatWindowMs;
      const base = key * R;
      const len = ringLen[key];
      const head = ringHead[key]; // next write position
      let count = 0;
      for (let j = 1; j <= len; j++) {
        const slot = (head - j + R) % R;
        if (ring[base + slot] < cutoff) break;
        count++;
      }
      const continuation = g >= 0 && g === lastGroup[key];
      repeatCount = Math.min(P.repeatSaturation, count - (continuation ? 1 : 0));
      if (!continuation) {
        ring[base + head] = t;
        ringHead[key] = (head + 1) % R;
        if (len < R) ringLen[key] = len + 1;
        lastGroup[key] = g;
      }
    }
    out.repeatCount[i] = repeatCount;

    const sizeRatio = norm > 0 ? premium / norm : 1;
    out.sizeRatio[i] = sizeRatio;
    const cSize = sizeComponent(sizeRatio);
    const cSweep = g >= 0 ? 1 : 0;
    const cMon = MONEYNESS_TABLE[mc];
    const cDte = DTE_TABLE[dc];
    const cRep = repeatCount / P.repeatSaturation;
    out.size[i] = cSize;
    out.sweep[i] = cSweep;
    out.moneynessC[i] = cMon;
    out.dteC[i] = cDte;
    out.volOi[i] = volOi;
    out.repeat[i] = cRep;
    const conviction = w.size * cSize + w.sweep * cSweep + w.moneyness * cMon + w.dte * cDte + w.volOi * volOi + w.repeat * cRep;
    const multiplier = P.convictionFloor + (1 - P.convictionFloor) * conviction;
    const multiLeg = (flags[i] & FLOW_FLAGS.multiLeg) !== 0;
    const baseDirection = 100 * a * (right[i] === 1 ? 1 : -1) * (multiLeg ? P.multiLegDirectionFactor : 1) + 0;
    out.baseDirection[i] = baseDirection;
    out.conviction[i] = conviction;
    out.convictionMultiplier[i] = multiplier;
    out.flowScore[i] = Math.max(-100, Math.min(100, roundHalfAway(baseDirection * multiplier)));
    out.flowBonus[i] = Math.max(0, Math.min(100, roundHalfAway(100 * conviction)));
  }
}

/**
 * {@link scoreFlowColumns} as steps: pauses after each `printsPerPiece` prints of each pass (an
 * event loop runs other work between them: `runStepsOnLoop`), returns the same scores.
 * @example const s = finishSteps(scoreFlowColumnsSteps(cols, { normPremiumUsd: 3_000 }, 10_000));
 */
export function* scoreFlowColumnsSteps(
  cols: FlowColumns,
  context: { normPremiumUsd: number; weights?: FlowScoreWeights },
  printsPerPiece: number,
  out: FlowScoreColumns = allocateFlowScoreColumns(cols.n),
): Generator<void, FlowScoreColumns, void> {
  const n = cols.n;
  const nKeys = cols.symbols.length * 2;
  const run: ScoreRun = {
    cols,
    out,
    weights: context.weights ?? DEFAULT_FLOW_SCORE_WEIGHTS,
    norm: context.normPremiumUsd,
    lastTs: new Float64Array(nKeys),
    firstTs: new Float64Array(nKeys),
    openCand: new Int32Array(nKeys).fill(-1),
    candMask: new Int32Array(n),
    candIso: new Uint8Array(n),
    nCand: 0,
    sweepOfCand: new Int32Array(0), // known once pass 1 has seen every print
    volume: new Float64Array(cols.symbols.length),
    ring: new Float64Array(nKeys * (FLOW_SCORE_PARAMS.repeatSaturation + 1)),
    ringHead: new Int32Array(nKeys),
    ringLen: new Int32Array(nKeys),
    lastGroup: new Int32Array(nKeys).fill(-1),
  };
  for (let from = 0; from < n; from += printsPerPiece) {
    if (from > 0) yield;
    scoreSides(run, from, Math.min(n, from + printsPerPiece));
  }
  const { candMask, candIso, nCand } = run;
  const sweepOfCand = new Int32Array(nCand);
  let nSweeps = 0;
  for (let k = 0; k < nCand; k++) sweepOfCand[k] = candIso[k] !== 0 || popcount(candMask[k]) >= 2 ? nSweeps++ : -1;
  run.sweepOfCand = sweepOfCand;
  for (let from = 0; from < n; from += printsPerPiece) {
    if (n > printsPerPiece) yield;
    scoreComponents(run, from, Math.min(n, from + printsPerPiece));
  }
  return out;
}

/**
 * Scores a batch in two passes over typed arrays: (1) side, aggression and sweep candidates per
 * (contract, side sign); (2) components and scores, with running contract volume and a ring of
 * the last order times per (contract, side sign) for the repeat component. Results equal
 * `scoreFlow` on the same prints, field for field.
 * @param out reuse columns of a previous call (length >= `cols.n`) to avoid allocation
 * @example
 * const s = scoreFlowColumns(flowColumns(prints, oi), { normPremiumUsd: 3_000 });
 * s.flowScore[0]; // -100..100
 * @see docs/methodology.md#flow-score-batch-path
 */
export function scoreFlowColumns(
  cols: FlowColumns,
  context: { normPremiumUsd: number; weights?: FlowScoreWeights },
  out: FlowScoreColumns = allocateFlowScoreColumns(cols.n),
): FlowScoreColumns {
  return finishSteps(scoreFlowColumnsSteps(cols, context, Number.POSITIVE_INFINITY, out));
}
