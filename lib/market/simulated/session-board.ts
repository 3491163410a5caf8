/**
 * What a chain keeps fixed through a session (computed once per root and session, memoized):
 * expirations, the strike grid around the previous close and the open, open interest as of the session's
 * start, where each contract's last trade sits in its spread, and the surface's day-level inputs.
 * Volume is not planned here: boards read it from the option tape (tape-volume.ts).
 * @see docs/methodology.md#open-interest-and-volume
 */
import type { SymbolSpec } from "../universe";
import { simCalendar } from "./_calendar";
import { hashText, key, normal, uniform } from "./_hash";
import type { SimEngine } from "./engine";
import type { Expiration } from "./expirations";
import { lnOiAnchor, oiExpiryShape, oiRegime, oiShapeWeight } from "./open-interest";
import { OI, SIM_RATE } from "./params";
import { sessionStrikesView, unionOfRuns } from "./strike-grid";
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
  /** Regular open of the session; the grid is built around it too. */
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
  /** Where the last trade sits inside the spread, in (-0.45, 0.45). */
  lastPos: Float64Array;
  /** The owner's implied-vol state (short/long level, skew, scheduled events). @see docs/methodology.md#implied-volatility-state */
  volState: VolState;
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
  | "symbol"
  | "underlying"
  | "root"
  | "sessionDate"
  | "d"
  | "regOpenMs"
  | "regCloseMs"
  | "nReg"
  | "spec"
  | "ownerTicker"
  | "ratio"
  | "refSpot"
  | "openSpot"
  | "expirations"
  | "expStart"
  | "n"
  | "strike"
  | "lnStrike"
  | "right"
  | "expIndex"
  | "strikeUnion"
>;

/**
 * Builds the grid of `spec`'s first option root for session index `d`. With `untilMs`, only its
 * head: the expirations up to the first that settles at or after `untilMs` (all when none does).
 * Expirations are listed by settlement, so a head's rows are the full grid's first rows, each
 * identical (strike, right, row index), at the cost of the expirations it keeps.
 * @see docs/methodology.md#daily-readings
 */
export function buildSessionGrid(engine: SimEngine, spec: SymbolSpec, d: number, untilMs = Number.POSITIVE_INFINITY): SessionGrid {
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
  const listed = engine.expirations(root, sessionDate);
  const through = listed.findIndex((e) => e.settleMs >= untilMs);
  const expirations = listed.slice(0, through < 0 ? listed.length : through + 1);
  const nExp = expirations.length;
  const grids: Float64Array[] = [];
  let n = 0;
  for (const e of expirations) {
    const t = Math.max(e.settleMs - regOpenMs, MINUTE_MS) / YEAR_MS;
    const g = sessionStrikesView(refSpot, openSpot, owner.vol, t, spec.type);
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
    const g = grids[e];
    for (let j = 0; j < g.length; j++) {
      const K = g[j];
      const lnK = Math.log(K);
      // Rows 0 put, 1 call (`right` starts at 0).
      strike[row] = K;
      strike[row + 1] = K;
      lnStrike[row] = lnK;
      lnStrike[row + 1] = lnK;
      right[row + 1] = 1;
      expIndex[row] = e;
      expIndex[row + 1] = e;
      row += 2;
    }
  }
  expStart[nExp] = row;
  return {
    symbol: spec.ticker,
    underlying: spec.underlying,
    root,
    sessionDate,
    d,
    regOpenMs,
    regCloseMs,
    nReg,
    spec,
    ownerTicker: owner.ticker,
    ratio,
    refSpot,
    openSpot,
    expirations,
    expStart,
    n,
    strike,
    lnStrike,
    right,
    expIndex,
    strikeUnion: new Map(),
  };
}

/**
 * Builds the board of `spec`'s first option root for session index `d` (its grid, extended).
 * Its open interest is computed on first read: readers of quotes alone (IV, spreads, the strikes
 * of a window) never pay for it (a normal draw and the shape weight of every row, most of a
 * board's cost).
 */
export function buildSessionBoard(engine: SimEngine, spec: SymbolSpec, d: number, grid = buildSessionGrid(engine, spec, d)): SessionBoard {
  const { root, ratio, n } = grid;
  const owner = engine.owner(spec);
  const daily = engine.dailyPath(owner.ticker);
  const lnAnchor = lnOiAnchor(daily.close, daily.refPrice, d) + Math.log(ratio);
  const rootId = hashText(root);
  const lastPos = new Float64Array(n);
  const dayKey = key(engine.seed, rootId, d, 0x5e55);
  for (let i = 0; i < n; i++) lastPos[i] = 0.9 * (uniform(dayKey, 2_000_000 + i) - 0.5);
  let oi: Float64Array | undefined;
  const board = {
    ...grid,
    rate: SIM_RATE,
    dividendYield: spec.dividendYield,
    oiAnchor: Math.exp(lnAnchor),
    lastPos,
    volState: engine.volState(owner.ticker),
  } as SessionBoard;
  Object.defineProperty(board, "oi", {
    enumerable: true,
    get: () => (oi ??= openInterestShape(engine, spec, d, grid, lnAnchor)),
  });
  return board;
}

/** The open interest shape of a session's board (before the previous session's carry). @see docs/methodology.md#open-interest-and-volume */
function openInterestShape(engine: SimEngine, spec: SymbolSpec, d: number, grid: SessionGrid, lnAnchor: number): Float64Array {
  const { root, refSpot, regOpenMs, expirations, expStart, n, strike, lnStrike } = grid;
  const owner = engine.owner(spec);
  const daily = engine.dailyPath(owner.ticker);
  // Indices and ETFs carry the index-style put skew and put-heavy OI; single names a smile.
  const isIndexLike = spec.type !== "stock";
  const seed = engine.seed;
  const rootId = hashText(root);
  const nExp = expirations.length;
  const oiW = new Float64Array(n);
  const regime = oiRegime(lnAnchor, isIndexLike, daily.hTotal[d], daily.longRunVar);
  const putRoundPower = isIndexLike ? OI.putRoundPower : 1;
  const unit = Math.pow(10, Math.floor(Math.log10(refSpot)));
  const [roundA, roundB, roundC] = OI.roundMultipliers;
  const oiNoiseSd = OI.noiseSd;
  let oiSum = 0;
  for (let e = 0; e < nExp; e++) {
    const exp = expirations[e];
    const t = Math.max(exp.settleMs - regOpenMs, MINUTE_MS) / YEAR_MS;
    const tDays = t * 365;
    const width = Math.min(OI.maxWidth, Math.max(OI.minWidth, OI.widthInSd * owner.vol * Math.sqrt(Math.max(t, 1 / 365))));
    const shape = oiExpiryShape(width, regime);
    const expMult = exp.quarterly ? OI.quarterly : exp.monthly ? OI.monthly : 1;
    const timeW = Math.min(1, (tDays + 3) / OI.buildUpDays) / (1 + tDays / OI.decayDays);
    const contractKey = key(seed, rootId, Math.round(Date.parse(`${exp.expiry}T00:00:00Z`) / DAY_MS), 0x0c0c);
    for (let row = expStart[e]; row < expStart[e + 1]; row += 2) {
      const K = strike[row];
      const lnK = lnStrike[row];
      // Open interest around the anchor (where it was built).
      const m = lnK - lnAnchor;
      const round = roundness(K, unit, roundA, roundB, roundC);
      const strikeKey = Math.round(K * 1000);
      for (let rt = 0; rt < 2; rt++) {
        const i = row + rt;
        const noise = Math.exp(oiNoiseSd * normal(contractKey, strikeKey * 2 + rt) - 0.5 * oiNoiseSd * oiNoiseSd);
        const roundW = rt === 0 ? Math.pow(round, putRoundPower) : round;
        const w = oiShapeWeight(m, rt, shape) * roundW * expMult * timeW * noise;
        oiW[i] = w;
        oiSum += w;
      }
    }
  }

  // Open interest: the chain's total spread over the weights.
  const oiTotal = spec.optionAdv * OI.daysOfVolume;
  const oi = new Float64Array(n);
  for (let i = 0; i < n; i++) oi[i] = Math.round((oiTotal * oiW[i]) / oiSum);
  return oi;
}

/** Sorted unique strikes of the rows from expiration `first` on, and each row's index into them. */
export function strikeUnionFrom(board: SessionGrid, first: number): { strikes: Float64Array; strikeIndex: Int32Array } {
  let u = board.strikeUnion.get(first);
  if (u) return u;
  const { strike, expStart } = board;
  const start = expStart[first];
  const rows = board.n - start;
  // Rows come in (put, call) pairs of one strike, ascending within an expiration: every other row
  // of an expiration is one ascending run of its strikes. @see docs/methodology.md#strikes
  const strikes = unionOfRuns(strike, expStart.subarray(first), 2);
  const strikeIndex = new Int32Array(rows);
  for (let e = first; e + 1 < expStart.length; e++) {
    // Strikes ascend within an expiration: one pointer walks the union per expiration.
    let j = 0;
    for (let i = expStart[e]; i < expStart[e + 1]; i++) {
      while (strikes[j] < strike[i]) j++;
      strikeIndex[i - start] = j;
    }
  }
  u = { strikes, strikeIndex };
  board.strikeUnion.set(first, u);
  return u;
}
