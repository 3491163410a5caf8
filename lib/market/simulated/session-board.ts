/**
 * What a chain keeps fixed through a session (computed once per root and session, memoized):
 * expirations, the strike grid around the previous close and the open, open interest as of the session's
 * start, each contract's volume for the day and its intraday timing, and the surface's
 * day-level inputs.
 * @see docs/methodology.md#open-interest-and-volume
 */
import { optionRoot } from "../../symbols";
import type { SymbolSpec } from "../universe";
import { simCalendar } from "./_calendar";
import { hashText, key, normal, uniform } from "./_hash";
import { EARN_AMC, EARN_BMO } from "./daily-path";
import type { SimEngine } from "./engine";
import { listedExpirations, type Expiration } from "./expirations";
import { volumeWeights } from "./intraday-shapes";
import { lnOiAnchor, oiExpiryShape, oiRegime, oiShapeWeight } from "./open-interest";
import { OI, SIM_RATE, VOLUME } from "./params";
import { sessionStrikes } from "./strike-grid";
import type { VolState } from "./vol-state";

const MINUTE_MS = 60_000;
const YEAR_MS = 365 * 86_400_000;
const DAY_MS = 86_400_000;

/** The fixed part of one root's board for one session. */
export interface SessionBoard {
  symbol: string;
  underlying: string;
  root: string;
  sessionDate: string;
  d: number;
  regOpenMs: number;
  regCloseMs: number;
  nReg: number;
  spec: SymbolSpec;
  ownerTicker: string;
  ratio: number;
  rate: number;
  dividendYield: number;
  /** Previous close; the grid covers it and the session's open. */
  refSpot: number;
  /** Regular open of the session; the grid and the day's volume are built around it too. */
  openSpot: number;
  /** The level open interest was built around (EWMA of past closes). @see docs/methodology.md#open-interest-and-volume */
  oiAnchor: number;
  expirations: Expiration[];
  /** Row offset of each expiration (length nExp + 1); rows sorted by expiry, strike, put then call. */
  expStart: Int32Array;
  n: number;
  strike: Float64Array;
  lnStrike: Float64Array;
  right: Uint8Array;
  expIndex: Int32Array;
  /**
   * The shape of the session's open interest; the boards the simulator serves add the previous
   * session's net opening volume to it (`open-interest-carry.ts`). @see docs/methodology.md#open-interest-carry-from-the-tape
   */
  oi: Float64Array;
  dailyVolume: Float64Array;
  /** Level (0..WARP_LEVELS-1) of the exponent p of the contract's cumulative volume curve U(m)^p. */
  warp: Uint8Array;
  /** Where the last trade sits inside the spread, in (-0.45, 0.45). */
  lastPos: Float64Array;
  /** The owner's implied-vol state (short/long level, skew, scheduled events). @see docs/methodology.md#implied-volatility-state */
  volState: VolState;
  /** ln of the cumulative share of the day's option volume done by minute boundary m (nReg + 1). */
  lnCumVolume: Float64Array;
  /** Strike union and per-row strike index for boards whose first live expiration is `first`. */
  strikeUnion: Map<number, { strikes: Float64Array; strikeIndex: Int32Array }>;
}

/** Whether `x` is a whole multiple of `step` (strikes are exact to 1e-3). */
function isMultiple(x: number, step: number): boolean {
  const r = x / step;
  return Math.abs(r - Math.round(r)) < 1e-9;
}

/** Roundness multiplier of a strike against the underlying's order of magnitude `unit`. */
function roundness(strike: number, unit: number, a: number, b: number, c: number): number {
  if (isMultiple(strike, unit / 10)) return a;
  if (isMultiple(strike, unit / 20)) return b;
  if (isMultiple(strike, unit / 40)) return c;
  return 1;
}

/**
 * The part of a session's board that lists contracts: expirations, the strike grid and the rows
 * (strike, right, expiration), without open interest, volume or quotes. What the option order
 * stream draws on and what the next session's carry merges against; `buildSessionBoard` extends
 * it, so a board and its grid list the same rows. @see docs/methodology.md#option-prints
 */
export type SessionGrid = Pick<
  SessionBoard,
  | "symbol" | "underlying" | "root" | "sessionDate" | "d" | "regOpenMs" | "regCloseMs" | "nReg" | "spec" | "ownerTicker"
  | "ratio" | "refSpot" | "openSpot" | "expirations" | "expStart" | "n" | "strike" | "lnStrike" | "right" | "expIndex" | "strikeUnion"
>;

/** Builds the grid of `spec`'s first option root for session index `d`. */
export function buildSessionGrid(engine: SimEngine, spec: SymbolSpec, d: number): SessionGrid {
  const cal = simCalendar();
  const sessionDate = cal.days[d];
  const root = spec.optionRoots[0];
  const owner = engine.owner(spec);
  const ratio = engine.ratio(spec);
  const daily = engine.dailyPath(owner.ticker);
  const refSpot = (d > 0 ? daily.close[d - 1] : daily.refPrice) * ratio;
  const openSpot = daily.open[d] * ratio;
  const regOpenMs = cal.regOpen[d];
  const regCloseMs = cal.regClose[d];
  const nReg = Math.round((regCloseMs - regOpenMs) / MINUTE_MS);
  const expirations = listedExpirations(root, sessionDate);
  const nExp = expirations.length;
  const grids: Float64Array[] = [];
  let n = 0;
  for (const e of expirations) {
    const t = Math.max(e.settleMs - regOpenMs, MINUTE_MS) / YEAR_MS;
    const g = sessionStrikes(refSpot, openSpot, owner.vol, t, spec.type);
    grids.push(g);
    n += 2 * g.length;
  }
  const expStart = new Int32Array(nExp + 1);
  const strike = new Float64Array(n);
  const lnStrike = new Float64Array(n);
  const right = new Uint8Array(n);
  const expIndex = new Int32Array(n);
  let row = 0;
  for (let e = 0; e < nExp; e++) {
    expStart[e] = row;
    for (const K of grids[e]) {
      const lnK = Math.log(K);
      for (let rt = 0; rt < 2; rt++) {
        strike[row] = K;
        lnStrike[row] = lnK;
        right[row] = rt; // 0 put, 1 call
        expIndex[row] = e;
        row++;
      }
    }
  }
  expStart[nExp] = row;
  return {
    symbol: spec.ticker, underlying: spec.underlying, root, sessionDate, d, regOpenMs, regCloseMs, nReg, spec,
    ownerTicker: owner.ticker, ratio, refSpot, openSpot, expirations, expStart, n, strike, lnStrike, right, expIndex,
    strikeUnion: new Map(),
  };
}

/** Builds the board of `spec`'s first option root for session index `d` (its grid, extended). */
export function buildSessionBoard(engine: SimEngine, spec: SymbolSpec, d: number, grid = buildSessionGrid(engine, spec, d)): SessionBoard {
  const { sessionDate, root, ratio, refSpot, openSpot, regOpenMs, nReg, expirations, expStart, n, strike, lnStrike } = grid;
  const rootInfo = optionRoot(root);
  const owner = engine.owner(spec);
  const daily = engine.dailyPath(owner.ticker);
  const lnAnchor = lnOiAnchor(daily.close, daily.refPrice, d) + Math.log(ratio);
  // Indices and ETFs carry the index-style put skew and put-heavy OI; single names a smile.
  const isIndexLike = spec.type !== "stock";
  const seed = engine.seed;
  const rootId = hashText(root);
  const nExp = expirations.length;
  const oiW = new Float64Array(n);
  const volW = new Float64Array(n);
  const warp = new Uint8Array(n);
  const lastPos = new Float64Array(n);
  const dayKey = key(seed, rootId, d, 0x5e55);
  const regime = oiRegime(lnAnchor, isIndexLike, daily.hTotal[d], daily.longRunVar);
  const putRoundPower = isIndexLike ? OI.putRoundPower : 1;
  const unit = Math.pow(10, Math.floor(Math.log10(refSpot)));
  const [roundA, roundB, roundC] = OI.roundMultipliers;
  const oiNoiseSd = OI.noiseSd;
  const volNoiseSd = VOLUME.noiseSd;
  const volWidthRatio = VOLUME.widthRatio;
  const lnOpen = Math.log(openSpot);
  const volPutTilt = isIndexLike ? VOLUME.putTiltIndex : 1;
  const volCallTilt = isIndexLike ? 1 : VOLUME.callTiltStock;
  let oiSum = 0;
  let volSum = 0;
  for (let e = 0; e < nExp; e++) {
    const exp = expirations[e];
    const t = Math.max(exp.settleMs - regOpenMs, MINUTE_MS) / YEAR_MS;
    const tDays = t * 365;
    const width = Math.min(OI.maxWidth, Math.max(OI.minWidth, OI.widthInSd * owner.vol * Math.sqrt(Math.max(t, 1 / 365))));
    const shape = oiExpiryShape(width, regime);
    const expMult = exp.quarterly ? OI.quarterly : exp.monthly ? OI.monthly : 1;
    const timeW = Math.min(1, (tDays + 3) / OI.buildUpDays) / (1 + tDays / OI.decayDays);
    const zeroDte = exp.expiry === sessionDate;
    const expVolW = zeroDte && rootInfo.cycle === "daily" ? -1 : (exp.monthly ? 1.5 : 1) / (1 + tDays / 7);
    const contractKey = key(seed, rootId, Math.round(Date.parse(`${exp.expiry}T00:00:00Z`) / DAY_MS), 0x0c0c);
    for (let row = expStart[e]; row < expStart[e + 1]; row += 2) {
      const K = strike[row];
      const lnK = lnStrike[row];
      // Open interest around the anchor (where it was built); the day's volume around the open.
      const m = lnK - lnAnchor;
      const mv = lnK - lnOpen;
      const vw = volWidthRatio * width;
      const vbell = Math.exp(-0.5 * (mv / vw) * (mv / vw)) + 0.01 * OI.tail;
      const round = roundness(K, unit, roundA, roundB, roundC);
      const strikeKey = Math.round(K * 1000);
      for (let rt = 0; rt < 2; rt++) {
        const i = row + rt;
        // Volume leans to out-of-the-money contracts at the open (ITM 0.4) and to index puts.
        const sideW = ((rt === 0 ? mv <= 0 : mv >= 0) ? 1 : OI.itmFactor) * (rt === 0 ? volPutTilt : volCallTilt);
        const noise = Math.exp(oiNoiseSd * normal(contractKey, strikeKey * 2 + rt) - 0.5 * oiNoiseSd * oiNoiseSd);
        const roundW = rt === 0 ? Math.pow(round, putRoundPower) : round;
        const w = oiShapeWeight(m, rt, shape) * roundW * expMult * timeW * noise;
        oiW[i] = w;
        oiSum += w;
        const vnoise = Math.exp(volNoiseSd * normal(dayKey, i) - 0.5 * volNoiseSd * volNoiseSd);
        volW[i] = vbell * sideW * Math.sqrt(round) * vnoise * (expVolW < 0 ? 1 : expVolW);
        if (expVolW < 0) volW[i] = -volW[i]; // marked 0DTE, normalised separately below
        warp[i] = Math.min(VOLUME.warpLevels - 1, Math.floor(VOLUME.warpLevels * uniform(dayKey, 1_000_000 + i)));
        lastPos[i] = 0.9 * (uniform(dayKey, 2_000_000 + i) - 0.5);
      }
    }
  }

  // Open interest: the chain's total spread over the weights.
  const oiTotal = spec.optionAdv * OI.daysOfVolume;
  const oi = new Float64Array(n);
  for (let i = 0; i < n; i++) oi[i] = Math.round((oiTotal * oiW[i]) / oiSum);

  // Daily volume: the day's total for the root (vol state, noise, earnings), 0DTE share apart.
  const hRatio = daily.hTotal[d] / daily.longRunVar;
  const earnDay = daily.earn[d] === EARN_BMO || (d > 0 && daily.earn[d - 1] === EARN_AMC);
  const dayTotal =
    spec.optionAdv *
    Math.min(Math.max(Math.sqrt(hRatio), 0.6), 2.5) *
    Math.exp(0.3 * normal(dayKey, 3_000_000) - 0.045) *
    (earnDay ? 2.5 : 1);
  let zeroSum = 0;
  for (let i = 0; i < n; i++) if (volW[i] < 0) zeroSum -= volW[i];
  for (let i = 0; i < n; i++) if (volW[i] > 0) volSum += volW[i];
  const zeroShare = zeroSum > 0 ? (spec.type === "index" ? VOLUME.zeroDteShareDaily : VOLUME.nearestShare) : 0;
  const dailyVolume = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const w = volW[i];
    dailyVolume[i] = Math.round(w < 0 ? (dayTotal * zeroShare * -w) / zeroSum : (dayTotal * (1 - zeroShare) * w) / volSum);
  }

  // Cumulative intraday volume share at each minute boundary (U-shape with noise).
  const vw = volumeWeights(nReg);
  const cum = new Float64Array(nReg + 1);
  for (let j = 0; j < nReg; j++) cum[j + 1] = cum[j] + vw[j] * Math.exp(0.3 * normal(dayKey, 4_000_000 + j));
  const lnCumVolume = new Float64Array(nReg + 1);
  for (let j = 0; j <= nReg; j++) lnCumVolume[j] = Math.log(cum[j] / cum[nReg]);
  lnCumVolume[nReg] = 0;

  const board: SessionBoard = {
    ...grid,
    rate: SIM_RATE,
    dividendYield: spec.dividendYield,
    oiAnchor: Math.exp(lnAnchor),
    oi,
    dailyVolume,
    warp,
    lastPos,
    volState: engine.volState(owner.ticker),
    lnCumVolume,
  };
  return board;
}

/** Sorted unique strikes of the rows from expiration `first` on, and each row's index into them. */
export function strikeUnionFrom(board: SessionGrid, first: number): { strikes: Float64Array; strikeIndex: Int32Array } {
  let u = board.strikeUnion.get(first);
  if (u) return u;
  const start = board.expStart[first];
  const rows = board.n - start;
  const uniq = [...new Set(board.strike.subarray(start))].sort((a, b) => a - b);
  const strikes = Float64Array.from(uniq);
  const pos = new Map<number, number>();
  strikes.forEach((k, i) => pos.set(k, i));
  const strikeIndex = new Int32Array(rows);
  for (let i = 0; i < rows; i++) strikeIndex[i] = pos.get(board.strike[start + i])!;
  u = { strikes, strikeIndex };
  board.strikeUnion.set(first, u);
  return u;
}
