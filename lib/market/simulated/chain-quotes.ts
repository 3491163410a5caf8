/**
 * Quotes a session board at one minute: spot, the surface level moved by spot, SSVI implied
 * vols, Black-Scholes-Merton mids (inlined, with the library's `normCdf`), spreads around the
 * mid and last trade (the market reads volume from the option tape, tape-volume.ts).
 * @see docs/methodology.md#quotes-and-spreads
 */
import { normCdf } from "../../math/normal";
import type { ChainSnapshot, PrintGrid } from "../market-data";
import { strikeUnionFrom, type SessionBoard, type SessionGrid } from "./session-board";
import { SPREAD, SURFACE } from "./params";
import { optionTickRule, type TickRule } from "../tick-size";
import { eventVarianceBetween, surfaceLevel } from "./vol-state";

const MINUTE_MS = 60_000;
const YEAR_MS = 365 * 86_400_000;

/** What one minute's quotes share across the board: spot, surface level, spread rule. */
interface MinuteContext {
  asOfMs: number;
  r: number;
  q: number;
  vShort: number;
  vLong: number;
  rho: number;
  eta: number;
  oneMinusRho2: number;
  tau: number;
  gamma: number;
  /** Scheduled-event variance of each expiration still to come at asOfMs. */
  eventVar: Float64Array;
  spread: { base: number; relative: number; vegaPerPoint: number };
  tick: TickRule;
  lnSpot: number;
}

/** Output columns of a quote, written at `o` for board row `row`. */
interface QuoteColumns {
  /** Only `iv` and `expIndex` are written; bid, ask and last stay NaN. */
  ivOnly: boolean;
  bid: Float64Array;
  ask: Float64Array;
  last: Float64Array;
  iv: Float64Array;
  expIndex: Int32Array;
}

/** Spread class of a board. @see docs/methodology.md#quotes-and-spreads */
function spreadClass(board: SessionBoard): MinuteContext["spread"] {
  if (board.spec.type === "index") return board.refSpot >= 1000 ? SPREAD.index : SPREAD.topEtf;
  if (board.spec.type === "etf") return ["SPY", "QQQ", "IWM"].includes(board.root) ? SPREAD.topEtf : SPREAD.etf;
  return SPREAD.stock;
}

/** The minute's context; with `onlyExps`, scheduled-event variance of those expirations only (the rest 0). */
function minuteContext(board: SessionBoard, asOfMs: number, spot: number, onlyExps?: readonly number[]): MinuteContext {
  const frac = Math.min(Math.max((asOfMs - board.regOpenMs) / (board.regCloseMs - board.regOpenMs), 0), 1);
  const lvl = surfaceLevel(board.volState, board.d, frac, Math.log(spot / board.refSpot));
  const rho = lvl.rho;
  const eventVar = new Float64Array(board.expirations.length);
  if (onlyExps) for (const e of onlyExps) eventVar[e] = eventVarianceBetween(board.volState, asOfMs, board.expirations[e].settleMs);
  else for (let e = 0; e < eventVar.length; e++) eventVar[e] = eventVarianceBetween(board.volState, asOfMs, board.expirations[e].settleMs);
  return {
    asOfMs,
    r: board.rate,
    q: board.dividendYield,
    vShort: lvl.vShort,
    vLong: lvl.vLong,
    rho,
    eta: lvl.eta,
    oneMinusRho2: 1 - rho * rho,
    tau: SURFACE.tauYears,
    gamma: SURFACE.gamma,
    eventVar,
    spread: spreadClass(board),
    tick: optionTickRule(board.root),
    lnSpot: Math.log(spot),
  };
}

/**
 * Quotes the (put, call) row pairs `[rowFrom, rowTo)` of expiration `e` into `out`, board row
 * `row` at `row - rowFrom + oFrom`; `col` is the expiration's column in the snapshot.
 */
function quoteRows(board: SessionBoard, c: MinuteContext, e: number, col: number, rowFrom: number, rowTo: number, oFrom: number, out: QuoteColumns): void {
  if (out.ivOnly) {
    quoteIvRows(board, c, e, col, rowFrom, rowTo, oFrom, out);
    return;
  }
  const { r, q, vShort, vLong, rho, eta, oneMinusRho2, tau, gamma, spread, tick, lnSpot } = c;
  const { bid, ask, last, iv, expIndex } = out;
  const tYears = Math.max(board.expirations[e].settleMs - c.asOfMs, MINUTE_MS) / YEAR_MS;
  const theta = vLong * tYears + (vShort - vLong) * tau * (1 - Math.exp(-tYears / tau)) + c.eventVar[e];
  const phi = eta / (Math.pow(theta, gamma) * Math.pow(1 + theta, 1 - gamma));
  const lnF = lnSpot + (r - q) * tYears;
  const fwd = Math.exp(lnF);
  const df = Math.exp(-r * tYears);
  const halfTheta = 0.5 * theta;
  const invT = 1 / tYears;
  const vegaScale = 0.01 * fwd * df * Math.sqrt(tYears) * 0.3989422804014327 * spread.vegaPerPoint;
  const vegaCut = vegaScale > 0.0005 ? 2 * Math.log(vegaScale / 0.0005) : 0;
  const sBase = spread.base;
  const sRel = spread.relative;
  const tb = tick.belowCents;
  const ta = tick.aboveCents;
  const { lastPos, strike, lnStrike } = board;
  // Rows come in (put, call) pairs per strike: price both from one d1/d2.
  for (let i = rowFrom; i < rowTo; i += 2) {
    const K = strike[i];
    const k = lnStrike[i] - lnF;
    const pk = phi * k;
    const w = halfTheta * (1 + rho * pk + Math.sqrt((pk + rho) * (pk + rho) + oneMinusRho2));
    const sw = Math.sqrt(w);
    const d1 = -k / sw + 0.5 * sw;
    const d2 = d1 - sw;
    // One normCdf per d: the small tail exactly, its complement by subtraction (no lost digits).
    let n1: number, n1c: number, n2: number, n2c: number;
    if (d1 >= 0) {
      n1c = normCdf(-d1);
      n1 = 1 - n1c;
    } else {
      n1 = normCdf(d1);
      n1c = 1 - n1;
    }
    if (d2 >= 0) {
      n2c = normCdf(-d2);
      n2 = 1 - n2c;
    } else {
      n2 = normCdf(d2);
      n2c = 1 - n2;
    }
    const call = df * (fwd * n1 - K * n2);
    const put = df * (K * n2c - fwd * n1c);
    const vol = Math.sqrt(w * invT);
    // The vega term of the width; skipped where it is below 0.05 cent (far from the money).
    const d1sq = d1 * d1;
    const vegaPart = d1sq < vegaCut ? vegaScale * Math.exp(-0.5 * d1sq) : 0;
    // Spread width by product and moneyness, at least one tick; quotes on the tick grid
    // around the model value (bid <= value <= ask), a zero bid below one tick. In whole cents.
    // Model value and half-width now (put row, then call row); placed on the tick grid in the
    // pass below.
    const o = i - rowFrom + oFrom;
    bid[o] = put;
    ask[o] = 0.5 * (sBase + sRel * put + vegaPart);
    iv[o] = vol;
    expIndex[o] = col;
    bid[o + 1] = call;
    ask[o + 1] = 0.5 * (sBase + sRel * call + vegaPart);
    iv[o + 1] = vol;
    expIndex[o + 1] = col;
  }
  toTickGrid(bid, ask, last, lastPos, rowFrom, rowTo, oFrom, tb, ta);
}

/**
 * Places quotes on the tick grid (docs/methodology.md#quotes-and-spreads): on entry `bid` holds the
 * model value and `ask` the half-width (USD) of rows `[rowFrom, rowTo)` at `oFrom`; on exit bid,
 * ask and last are grid prices with bid <= value <= ask, a zero bid below half a width, at least
 * one tick wide, the last trade a grid price inside the quote.
 */
function toTickGrid(
  bid: Float64Array,
  ask: Float64Array,
  last: Float64Array,
  lastPos: Float64Array,
  rowFrom: number,
  rowTo: number,
  oFrom: number,
  tb: number,
  ta: number,
): void {
  const ib = 1 / tb;
  const ia = 1 / ta;
  const hb = 0.5 * tb;
  const ha = 0.5 * ta;
  for (let row = rowFrom; row < rowTo; row++) {
    const o = row - rowFrom + oFrom;
    const pc = bid[o] * 100;
    // Tick by the value's level (a nickel-grid bid below $3 is a valid penny price too).
    const big = pc >= 300;
    const u = big ? ta : tb;
    const iu = big ? ia : ib;
    const halfC = Math.max(big ? ha : hb, 100 * ask[o]);
    // Bid: the grid price nearest value - half (0 below half a tick; cents are positive
    // integers well below 2^31, so (v + 0.5) | 0 rounds); ask: whole ticks above it.
    const x = pc - halfC;
    let bc = x > 0 ? ((x * iu + 0.5) | 0) * u : 0;
    if (bc > pc) bc -= u;
    let n = ((bc > 0 ? 2 * halfC : pc + halfC) * iu + 0.5) | 0;
    if (n < 1) n = 1;
    let ac = bc + n * u;
    if (ac < pc) {
      ac += u;
      n++;
    }
    // An ask that crossed $3 from a penny value moves up to the nickel grid.
    if (ac > 300 && !big) ac = Math.ceil(ac * ia - 1e-9) * ta;
    // The last trade: a grid price inside the quote.
    const lc = Math.min(bc + (((0.5 + lastPos[row]) * n + 0.5) | 0) * u, ac);
    bid[o] = bc / 100;
    ask[o] = ac / 100;
    last[o] = lc / 100;
  }
}

/**
 * `quoteRows` for `iv` and `expIndex` only: the same expressions up to the vol, without prices
 * (no normCdf), so every iv is identical to the full quote's.
 */
function quoteIvRows(board: SessionBoard, c: MinuteContext, e: number, col: number, rowFrom: number, rowTo: number, oFrom: number, out: QuoteColumns): void {
  const { r, q, vShort, vLong, rho, eta, oneMinusRho2, tau, gamma, lnSpot } = c;
  const { iv, expIndex } = out;
  const tYears = Math.max(board.expirations[e].settleMs - c.asOfMs, MINUTE_MS) / YEAR_MS;
  const theta = vLong * tYears + (vShort - vLong) * tau * (1 - Math.exp(-tYears / tau)) + c.eventVar[e];
  const phi = eta / (Math.pow(theta, gamma) * Math.pow(1 + theta, 1 - gamma));
  const lnF = lnSpot + (r - q) * tYears;
  const halfTheta = 0.5 * theta;
  const invT = 1 / tYears;
  for (let i = rowFrom; i < rowTo; i += 2) {
    const k = board.lnStrike[i] - lnF;
    const pk = phi * k;
    const w = halfTheta * (1 + rho * pk + Math.sqrt((pk + rho) * (pk + rho) + oneMinusRho2));
    const vol = Math.sqrt(w * invT);
    const o = i - rowFrom + oFrom;
    iv[o] = vol;
    iv[o + 1] = vol;
    expIndex[o] = col;
    expIndex[o + 1] = col;
  }
}

function newColumns(n: number, ivOnly = false): QuoteColumns {
  if (ivOnly) {
    const nan = () => new Float64Array(n).fill(Number.NaN);
    return { ivOnly, bid: nan(), ask: nan(), last: nan(), iv: new Float64Array(n), expIndex: new Int32Array(n) };
  }
  return {
    ivOnly,
    bid: new Float64Array(n),
    ask: new Float64Array(n),
    last: new Float64Array(n),
    iv: new Float64Array(n),
    expIndex: new Int32Array(n),
  };
}

/** Index of the first unsettled expiration at `asOfMs`. */
function firstLive(board: SessionGrid, asOfMs: number): number {
  const exps = board.expirations;
  let first = 0;
  while (first < exps.length && exps[first].settleMs <= asOfMs) first++;
  return first;
}

/**
 * The snapshot of quoted rows (full board or window): the board's fields from expiration `first`
 * on, the union of strikes from there, and the rows' own columns.
 */
function snapshotOf(
  board: SessionBoard,
  c: MinuteContext,
  spot: number,
  first: number,
  strikes: Float64Array,
  rows: { strikeIndex: Int32Array; right: Uint8Array; oi: () => Float64Array },
  out: QuoteColumns,
  owned = false,
): ChainSnapshot {
  const exps = board.expirations.slice(first);
  const snap: ChainSnapshot = {
    symbol: board.symbol,
    underlying: board.underlying,
    asOfMs: c.asOfMs,
    sessionDate: board.sessionDate,
    spot,
    rate: c.r,
    dividendYield: c.q,
    simulated: true,
    expirations: exps.map((x) => x.expiry),
    expirySettleMs: exps.map((x) => x.settleMs),
    expiryRoot: exps.map(() => board.root),
    strikes: owned ? strikes : strikes.slice(),
    strikeIndex: rows.strikeIndex,
    expIndex: out.expIndex,
    right: rows.right,
    oi: EMPTY_OI,
    bid: out.bid,
    ask: out.ask,
    last: out.last,
    iv: out.iv,
    volume: EMPTY_OI,
  };
  // Not quoted: the market reads volume from the option tape (tape-volume.ts) on first use; NaN
  // until then, made on first read (the market's boards replace it unread).
  let volume: Float64Array | undefined;
  Object.defineProperty(snap, "volume", {
    enumerable: true,
    configurable: true,
    get: () => (volume ??= new Float64Array(rows.right.length).fill(Number.NaN)),
    set: (v: Float64Array) => {
      volume = v;
    },
  });
  // The board's open interest on first read (and kept; assignable): quotes alone never compute it.
  let oi: Float64Array | undefined;
  Object.defineProperty(snap, "oi", {
    enumerable: true,
    configurable: true,
    get: () => (oi ??= rows.oi()),
    set: (v: Float64Array) => {
      oi = v;
    },
  });
  return snap;
}

const EMPTY_OI = new Float64Array(0);

/**
 * The board at `asOfMs` (a minute boundary in [open, close]) with underlying `spot` and the
 * session's regular open `_openSpot` (not read by the quotes). Expirations settled at or before `asOfMs` are left out.
 * `owned`: the board is the caller's alone (built for this snapshot, not memoised), so the
 * snapshot takes its strike columns without copies.
 */
export function quoteBoard(board: SessionBoard, asOfMs: number, spot: number, _openSpot: number, owned = false): ChainSnapshot {
  const exps = board.expirations;
  const first = firstLive(board, asOfMs);
  const start = board.expStart[first];
  const n = board.n - start;
  const { strikes, strikeIndex } = strikeUnionFrom(board, first);
  const out = newColumns(n);
  const c = minuteContext(board, asOfMs, spot);
  for (let e = first; e < exps.length; e++) {
    quoteRows(board, c, e, e - first, board.expStart[e], board.expStart[e + 1], board.expStart[e] - start, out);
  }
  const rows = owned
    ? { strikeIndex, right: board.right.subarray(start), oi: () => board.oi.subarray(start) }
    : { strikeIndex: strikeIndex.slice(), right: board.right.slice(start), oi: () => board.oi.slice(start) };
  return snapshotOf(board, c, spot, first, strikes, rows, out, owned);
}

const grids = new WeakMap<SessionGrid, Map<number, PrintGrid>>();

/**
 * The contract structure `quoteBoard(board, asOfMs, ...)` lists (same rows and expirations; strikes
 * given per row rather than as the sorted union), without quoting anything: what the option order stream draws on. Memoised per board.
 * @see docs/methodology.md#option-prints
 */
export function boardGrid(board: SessionGrid, asOfMs: number): PrintGrid {
  const first = firstLive(board, asOfMs);
  let byFirst = grids.get(board);
  if (!byFirst) {
    byFirst = new Map();
    grids.set(board, byFirst);
  }
  let grid = byFirst.get(first);
  if (!grid) {
    const start = board.expStart[first];
    const exps = board.expirations.slice(first);
    const expIndex = new Int32Array(board.n - start);
    for (let i = 0; i < expIndex.length; i++) expIndex[i] = board.expIndex[start + i] - first;
    // Strikes per row (strikeIndex the identity): the order stream needs no sorted union.
    const strikes = board.strike.subarray(start);
    const strikeIndex = Int32Array.from(expIndex, (_, i) => i);
    grid = {
      underlying: board.underlying,
      sessionDate: board.sessionDate,
      expirations: exps.map((x) => x.expiry),
      expirySettleMs: exps.map((x) => x.settleMs),
      expiryRoot: exps.map(() => board.root),
      strikes,
      strikeIndex,
      expIndex,
      right: board.right.subarray(start),
    };
    byFirst.set(first, grid);
  }
  return grid;
}

/** Which part of a board a windowed quote keeps. */
export interface ChainWindowSelect {
  /** The nearest this many unsettled expirations, or all. */
  maxExpirations: number | "all";
  /**
   * The strike rows kept, as a half-open range `[lo, hi)` into the snapshot's ascending unique
   * strikes, given spot (for example `lib/positioning`'s `strikeWindow` with `maxStrikes`).
   */
  strikeWindow: (strikes: Float64Array, spot: number) => { lo: number; hi: number };
  /**
   * Also price the contracts (bid, ask, last; the market adds volume from the tape). Default false: those columns are NaN and
   * only `iv` is computed (exposure needs strike, expiry, right, OI and IV only).
   */
  prices?: boolean;
}

/** First row in `[from, to)` whose strike is >= `k` (rows are sorted by strike within an expiration, in pairs). */
export function lowerBound(strike: Float64Array, from: number, to: number, k: number): number {
  let a = from;
  let b = to;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (strike[mid] < k) a = mid + 1;
    else b = mid;
  }
  return a;
}

/**
 * `quoteBoard` restricted to the contracts of the nearest `maxExpirations` expirations whose
 * strike lies in the strike window: the same snapshot fields (`strikes` is still the full union,
 * so strike indices and the window agree with the full board), with only those contracts, in the
 * full board's order and with identical strike, right, OI, expiry and IV (and, with `prices`,
 * identical bid, ask and last; without, those are NaN; volume is NaN either way). A positioning grid of the same
 * window computed from it is identical to one computed from the full board, at a fraction of the
 * cost. @see docs/operations.md#daily-statistics-performance
 */
export function quoteBoardWindow(board: SessionBoard, asOfMs: number, spot: number, _openSpot: number, select: ChainWindowSelect): ChainSnapshot {
  const exps = board.expirations;
  const first = firstLive(board, asOfMs);
  const start = board.expStart[first];
  const { strikes, strikeIndex } = strikeUnionFrom(board, first);
  const lastExp = select.maxExpirations === "all" ? exps.length : Math.min(exps.length, first + Math.max(0, Math.floor(select.maxExpirations)));
  const { lo, hi } = strikes.length > 0 ? select.strikeWindow(strikes, spot) : { lo: 0, hi: 0 };
  const ranges: number[] = [];
  let n = 0;
  if (hi > lo) {
    const kLo = strikes[lo];
    const kHi = strikes[hi - 1];
    for (let e = first; e < lastExp; e++) {
      const from = lowerBound(board.strike, board.expStart[e], board.expStart[e + 1], kLo);
      let to = lowerBound(board.strike, from, board.expStart[e + 1], kHi);
      while (to < board.expStart[e + 1] && board.strike[to] === kHi) to++;
      ranges.push(e, from, to);
      n += to - from;
    }
  }
  const out = newColumns(n, select.prices !== true);
  const c = minuteContext(board, asOfMs, spot);
  const right = new Uint8Array(n);
  const rowStrikeIndex = new Int32Array(n);
  let o = 0;
  for (let j = 0; j < ranges.length; j += 3) {
    const e = ranges[j];
    const from = ranges[j + 1];
    const to = ranges[j + 2];
    quoteRows(board, c, e, e - first, from, to, o, out);
    right.set(board.right.subarray(from, to), o);
    rowStrikeIndex.set(strikeIndex.subarray(from - start, to - start), o);
    o += to - from;
  }
  const oi = () => {
    const col = new Float64Array(n);
    for (let j = 0, at = 0; j < ranges.length; j += 3) {
      col.set(board.oi.subarray(ranges[j + 1], ranges[j + 2]), at);
      at += ranges[j + 2] - ranges[j + 1];
    }
    return col;
  };
  return snapshotOf(board, c, spot, first, strikes, { strikeIndex: rowStrikeIndex, right, oi }, out);
}

/**
 * Bid and ask of a few board rows at `asOfMs` (a minute boundary in [open, close]), identical to
 * `quoteBoard`'s for those rows: the same quote expressions over each row's (put, call) pair, with
 * the minute's surface computed for their expirations only. A row whose expiration has settled by
 * `asOfMs` (or -1) gets NaN. Cheap enough to follow a handful of contracts through a session.
 */
export function quoteBoardRows(board: SessionBoard, asOfMs: number, spot: number, rows: readonly number[], bid: Float64Array, ask: Float64Array): void {
  // Per live expiration, one quote over the pairs spanning its rows (a tilt's call and put are
  // neighbouring pairs): the expiration's surface terms once for both.
  const span = new Map<number, { lo: number; hi: number }>();
  for (const r of rows) {
    const e = r >= 0 ? board.expIndex[r] : -1;
    if (e < 0 || board.expirations[e].settleMs <= asOfMs) continue;
    const pair = r - ((r - board.expStart[e]) & 1);
    const s = span.get(e);
    if (s) {
      s.lo = Math.min(s.lo, pair);
      s.hi = Math.max(s.hi, pair + 2);
    } else span.set(e, { lo: pair, hi: pair + 2 });
  }
  const c = minuteContext(board, asOfMs, spot, [...span.keys()]);
  let width = 0;
  for (const s of span.values()) width = Math.max(width, s.hi - s.lo);
  const out = newColumns(width);
  const quoted = new Map<number, { lo: number; bid: Float64Array; ask: Float64Array }>();
  for (const [e, s] of span) {
    quoteRows(board, c, e, 0, s.lo, s.hi, 0, out);
    quoted.set(e, { lo: s.lo, bid: out.bid.slice(0, s.hi - s.lo), ask: out.ask.slice(0, s.hi - s.lo) });
  }
  for (let j = 0; j < rows.length; j++) {
    const r = rows[j];
    const q = r >= 0 ? quoted.get(board.expIndex[r]) : undefined;
    bid[j] = q ? q.bid[r - q.lo] : Number.NaN;
    ask[j] = q ? q.ask[r - q.lo] : Number.NaN;
  }
}

/** Board row of a contract (expiry, strike, right 1 call / 0 put), or -1 when not listed. */
export function boardRowOf(board: SessionBoard, expiration: string, strike: number, right: 0 | 1): number {
  const e = board.expirations.findIndex((x) => x.expiry === expiration);
  if (e < 0) return -1;
  const from = lowerBound(board.strike, board.expStart[e], board.expStart[e + 1], strike);
  if (from >= board.expStart[e + 1] || Math.abs(board.strike[from] - strike) > 1e-9) return -1;
  return from + right;
}
