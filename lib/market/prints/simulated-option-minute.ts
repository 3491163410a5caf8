/**
 * One minute of simulated option prints for one option root: an order stream drawn on the session's
 * contract grid and the minute's spot (which contract, how many, when), then each fill priced on a
 * board's quotes. Pure: the same `(seed, root, minuteMs, grid, board, spot)` gives the same prints,
 * in any process, and the sizes never depend on the board's quotes.
 * @see docs/methodology.md#option-prints
 */
import { normCdf } from "../../math/normal";
import type { IsoDate } from "../market-data";
import { chainIndex, nearestIndex, type ChainIndex, type PrintChainView, type PrintGridView } from "./_chain-index";
import { createRng, hashText, type Rng } from "./_rng";
import type { OptionCondition, OptionExchange } from "./conditions";
import { uCurve } from "./intraday-curve";
import { DIRECTION_TILT_MAX, type OptionPrintProfile } from "./print-profile";
import type { OptionPrint } from "./schemas";
import { composeTsNs } from "./ts-ns";
import { optionTickRule, roundToTick, tickAt } from "../tick-size";

const MINUTE_MS = 60_000;
const YEAR_MS = 365 * 86_400_000;
const DAY_MS = 86_400_000;

/** Shares of single-print placement against the NBBO (cumulative thresholds). */
export const PLACEMENT_SHARES = { ask: 0.35, bid: 0.35, mid: 0.22, between: 0.04, outside: 0.04 } as const;

/** Share of sweeps that buy at the ask on a flat day (sweeps are mostly urgent buyers). */
const SWEEP_BUY_SHARE = 0.6;

/** Inputs of the order stream (`optionPrintSizesForMinute`): cheap state only, no quotes. */
export interface OrderMinuteInput {
  seed: number;
  /** Option root the prints belong to (`SPXW`); only the grid's expirations of this root are used. */
  root: string;
  /** Start of the minute, ms (a regular-session minute). */
  minuteMs: number;
  /** Regular session of the minute, ms (`[openMs, closeMs)`). */
  session: { openMs: number; closeMs: number };
  /**
   * The contracts orders are drawn on: the session's grid (the same view for every minute of the
   * session, so a minute's orders never depend on which board was quoted when).
   */
  grid: PrintGridView;
  /** Underlying price during the minute, USD. */
  spotUsd: number;
  profile: OptionPrintProfile;
}

/** Inputs of `optionPrintsForMinute`: the order stream's, plus the quotes its prints are priced on. */
export interface OptionMinuteInput extends Omit<OrderMinuteInput, "grid"> {
  /**
   * A board at or shortly before the minute (quotes are shifted by delta to `spotUsd`); a grid
   * row is priced on this board's row of the same contract.
   */
  chain: PrintChainView;
  /** The order stream's grid; `chain` itself when omitted. */
  grid?: PrintGridView;
  /**
   * The underlying's price at the session's open, USD: sides lean with the move since
   * (docs/methodology.md#sides-follow-the-day). Without it sides do not lean.
   */
  sessionOpenUsd?: number;
}

/** Kinds of orders. @see docs/methodology.md#order-types */
const SINGLE = 0;
/** A single print whose condition is `AUTO` (a multi-leg draw that found no second leg). */
const SINGLE_AUTO = 1;
const SWEEP = 2;
const MULTI_LEG = 3;
const BLOCK = 4;

/** Where the order stream goes: each fill (grid row, size), then its order (time, kind). */
interface OrderSink {
  fill(row: number, size: number): void;
  order(offNs: number, kind: number): void;
}

/** One order of the order stream: its fills' grid rows and sizes (a sweep repeats its row). */
interface Order {
  offNs: number;
  kind: number;
  rows: number[];
  sizes: number[];
}

interface Draft {
  offNs: number;
  /** Grid row (the contract) and the pricing board's row of it. */
  row: number;
  price: number;
  size: number;
  exchange: OptionExchange;
  condition: OptionCondition;
  bid: number;
  ask: number;
}

interface Quote {
  bid: number;
  ask: number;
}

const cents = (x: number): number => Math.round(x * 100) / 100;

/** Minimum price increment of a root at a price level, used for walks and outside prints (USD). @see docs/methodology.md#tick-grid */
function tickOf(root: string, price: number): number {
  return tickAt(optionTickRule(root), price);
}

/** What a root's order stream reuses every minute of a session: its expirations on the grid. */
interface RootGrid {
  index: ChainIndex;
  /** The root's expirations (grid indices), their settlement, and a weight multiplier (monthlies). */
  exps: number[];
  settleMs: Float64Array;
  mult: Float64Array;
  /** Position in `exps` of the session's own expiration, or -1. */
  zero: number;
  /** Scratch: the minute's draw weights (zero for settled expirations). */
  weights: Float64Array;
}

const rootGrids = new WeakMap<object, Map<string, RootGrid | null>>();

function rootGridOf(grid: PrintGridView, root: string): RootGrid | null {
  let byRoot = rootGrids.get(grid);
  if (!byRoot) {
    byRoot = new Map();
    rootGrids.set(grid, byRoot);
  }
  let rg = byRoot.get(root);
  if (rg === undefined) {
    const index = chainIndex(grid);
    const exps = index.expirationsByRoot.get(root);
    rg = exps
      ? {
          index,
          exps,
          settleMs: Float64Array.from(exps, (e) => grid.expirySettleMs[e]),
          mult: Float64Array.from(exps, (e) => (isMonthly(grid.expirations[e]) ? 1.6 : 1)),
          zero: exps.findIndex((e) => grid.expirations[e] === grid.sessionDate),
          weights: new Float64Array(exps.length),
        }
      : null;
    byRoot.set(root, rg);
  }
  return rg;
}

/**
 * Fills `rg.weights` with the expirations' draw weights at the minute (settled ones weigh zero)
 * and returns their total. @see docs/methodology.md#contract-choice
 */
function expiryWeights(rg: RootGrid, minuteMs: number, zeroDteShare: number): number {
  const { settleMs, mult, weights, zero } = rg;
  let other = 0;
  for (let j = 0; j < weights.length; j++) {
    if (!(settleMs[j] > minuteMs) || j === zero) {
      weights[j] = 0;
      continue;
    }
    const dteDays = Math.max(0.5, (settleMs[j] - minuteMs) / DAY_MS);
    const w = Math.pow(1 + dteDays / 5, -1.3) * mult[j];
    weights[j] = w;
    other += w;
  }
  let total = other;
  if (zero >= 0 && settleMs[zero] > minuteMs) {
    // The same-day expiration takes `zeroDteShare` of orders (all of them when it is the only one).
    const w = other > 0 ? (other * zeroDteShare) / (1 - zeroDteShare) : 1;
    weights[zero] = w;
    total += w;
  }
  return total;
}

/** Third Friday of its month (standard monthly expiration). */
function isMonthly(date: IsoDate): boolean {
  const day = Number(date.slice(8, 10));
  if (day < 15 || day > 21) return false;
  const dow = new Date(`${date}T12:00:00Z`).getUTCDay();
  return dow === 5;
}

/**
 * The day's lean toward bullish sides (calls bought, puts sold), in [-DIRECTION_TILT_MAX,
 * DIRECTION_TILT_MAX]: `directionTilt` per daily standard deviation (`ivRef / sqrt(252)`) of the
 * move since the open. @see docs/methodology.md#sides-follow-the-day
 */
export function dayTilt(spotUsd: number, sessionOpenUsd: number | undefined, profile: OptionPrintProfile): number {
  if (!(sessionOpenUsd! > 0) || !(spotUsd > 0)) return 0;
  const z = Math.log(spotUsd / sessionOpenUsd!) / (profile.ivRef / Math.sqrt(252));
  return Math.max(-DIRECTION_TILT_MAX, Math.min(DIRECTION_TILT_MAX, profile.directionTilt * z));
}

/**
 * Whether a contract is worth less than one tick at the profile's reference vol (Black-Scholes,
 * no carry, at the minute's spot): the order stream's cheap stand-in for a zero bid, so that the
 * choice of contract never reads a quote. @see docs/methodology.md#contract-choice
 */
function underOneTick(minuteMs: number, spotUsd: number, profile: OptionPrintProfile, tick: number): boolean {
  // The contract `pickRow` just drew (its strike, settlement and right, as the grid lists them).
  const { strike, settleMs, call: isCall } = picked;
  const tYears = Math.max((settleMs - minuteMs) / YEAR_MS, MINUTE_MS / YEAR_MS);
  const sd = profile.ivRef * Math.sqrt(tYears);
  const d1 = (Math.log(spotUsd / strike) + 0.5 * sd * sd) / sd;
  const call = spotUsd * normCdf(d1) - strike * normCdf(d1 - sd);
  const value = isCall ? call : call - spotUsd + strike;
  return value < tick;
}

/**
 * The minute's orders: which contracts (grid rows), how many contracts, when. Reads only cheap
 * state (the grid, the minute's spot, the profile) and its own random stream, never a quote, so
 * the sizes of a day's prints cost no board. @see docs/methodology.md#option-prints
 */
function minuteOrders(input: OrderMinuteInput, sink: OrderSink): void {
  const { seed, root, minuteMs, session, grid, spotUsd, profile } = input;
  if (minuteMs < session.openMs || minuteMs >= session.closeMs || !(spotUsd > 0)) return;
  const rg = rootGridOf(grid, root);
  if (!rg) return;
  const total = expiryWeights(rg, minuteMs, profile.zeroDteShare);
  if (!(total > 0)) return;
  const index = rg.index;

  const minuteIndex = Math.floor(minuteMs / MINUTE_MS);
  const rng = createRng(ordersKey(seed, root), minuteIndex);
  const x = (minuteMs + MINUTE_MS / 2 - session.openMs) / (session.closeMs - session.openMs);
  // Per-minute rate of a full 390-minute session, so early closes simply have fewer minutes.
  const lambda = (profile.ordersPerDay / 390) * uCurve(x);
  const nOrders = rng.poisson(lambda);
  if (nOrders === 0) return;
  const minTick = tickAt(optionTickRule(root), 0);

  const { fill, order } = sink;
  for (let k = 0; k < nOrders; k++) {
    const offNs = Math.floor(rng.next() * 59.99e9);
    // Orders go to contracts with a two-sided market: a contract drawn worth less than one tick
    // is drawn again once.
    let row = pickRow(rng, rg, total, minuteMs, spotUsd, profile);
    if (row >= 0 && underOneTick(minuteMs, spotUsd, profile, minTick)) row = pickRow(rng, rg, total, minuteMs, spotUsd, profile);
    if (row < 0) continue;
    const u = rng.next();
    if (u < profile.sweepShare) {
      // A sweep: 2-5 fills on the home exchange of a single-listed root, 3-6 exchanges otherwise.
      const n = profile.exchanges.length === 1 ? rng.int(2, 5) : rng.int(3, Math.min(6, profile.exchanges.length));
      const totalSize = Math.min(5_000, Math.floor(rng.pareto(20, 1.3)));
      const parts: number[] = [];
      let partSum = 0;
      for (let j = 0; j < n; j++) partSum += parts[j] = 0.3 + rng.next();
      for (let j = 0; j < n; j++) fill(row, Math.max(1, Math.round((totalSize * parts[j]) / partSum)));
      order(offNs, SWEEP);
    } else if (u < profile.sweepShare + profile.multiLegShare) {
      const legs = multiLegRows(rng, index, grid, root, row, spotUsd);
      if (legs.rows.length < 2) {
        fill(row, Math.min(2_000, Math.floor(rng.pareto(1, 1.3))));
        order(offNs, SINGLE_AUTO);
      } else {
        const size = Math.min(2_000, Math.floor(rng.pareto(2, 1.25)));
        for (let j = 0; j < legs.rows.length; j++) fill(legs.rows[j], size * legs.ratios[j]);
        order(offNs, MULTI_LEG);
      }
    } else if (u < profile.sweepShare + profile.multiLegShare + profile.blockShare) {
      fill(row, Math.min(25_000, Math.floor(rng.pareto(500, 1.6))));
      order(offNs, BLOCK);
    } else {
      fill(row, Math.min(2_000, Math.floor(rng.pareto(1, 1.3))));
      order(offNs, SINGLE);
    }
  }
}

/** The contract the last `pickRow` drew: its strike, settlement (ms) and right (read by `underOneTick`). */
const picked = { strike: 0, settleMs: 0, call: false };

/** Draws a contract row: expiration by weight, right, then a strike around spot. @see docs/methodology.md#contract-choice */
function pickRow(rng: Rng, rg: RootGrid, total: number, minuteMs: number, spotUsd: number, profile: OptionPrintProfile): number {
  const j = rng.pick(rg.weights, total);
  const call = rng.next() < profile.callShare;
  const bucket = rg.index.buckets[rg.exps[j]][call ? 1 : 0];
  if (bucket.rows.length === 0) return -1;
  const dteDays = Math.max(1, (rg.settleMs[j] - minuteMs) / DAY_MS);
  const scale = Math.min(0.35, profile.ivRef * Math.sqrt(dteDays / 365));
  const distance = -Math.log(1 - rng.next()) * scale;
  // Most flow is out of the money: calls above spot, puts below.
  const otm = rng.next() < 0.8;
  const sign = call === otm ? 1 : -1;
  const at = nearestIndex(bucket.strikes, spotUsd * Math.exp(sign * distance));
  picked.strike = bucket.strikes[at];
  picked.settleMs = rg.settleMs[j];
  picked.call = call;
  return bucket.rows[at];
}

/** Stream keys of the roots' order streams by seed (a hash of `${seed}|${root}|orders`, made once rather than every minute). */
const ordersKeys = new Map<number, Map<string, number>>();
function ordersKey(seed: number, root: string): number {
  let bySeed = ordersKeys.get(seed);
  if (!bySeed) {
    bySeed = new Map();
    ordersKeys.set(seed, bySeed);
  }
  let k = bySeed.get(root);
  if (k === undefined) {
    k = hashText(`${seed}|${root}|orders`);
    bySeed.set(root, k);
  }
  return k;
}

/** The sizes path needs no order boundaries. */
function ignoreOrder(): void {}

/** The legs of a multi-leg package: vertical, straddle, strangle, calendar or iron condor (distinct rows). */
function multiLegRows(r: Rng, index: ChainIndex, grid: PrintGridView, root: string, row: number, spotUsd: number): { rows: number[]; ratios: number[] } {
  const e = grid.expIndex[row];
  const right = grid.right[row];
  const bucket = index.buckets[e][right];
  const other = index.buckets[e][1 - right];
  const at = (b: { rows: Int32Array; strikes: Float64Array }, strike: number) => (b.rows.length ? b.rows[nearestIndex(b.strikes, strike)] : -1);
  const strike = grid.strikes[grid.strikeIndex[row]];
  const j = nearestIndex(bucket.strikes, strike);
  const width = r.int(1, 3);
  const legs: { row: number; ratio: number }[] = [{ row, ratio: 1 }];
  const u = r.next();
  if (u < 0.5) {
    const j2 = Math.min(bucket.rows.length - 1, Math.max(0, j + (right === 1 ? width : -width)));
    const ratio = r.next() < 0.1 ? 2 : 1;
    if (bucket.rows[j2] !== row) legs.push({ row: bucket.rows[j2], ratio });
  } else if (u < 0.65) {
    legs.push({ row: at(other, strike), ratio: 1 });
  } else if (u < 0.75) {
    legs.push({ row: at(other, (spotUsd * spotUsd) / strike), ratio: 1 });
  } else if (u < 0.85) {
    const rootExps = index.expirationsByRoot.get(root) ?? [];
    const nextExp = rootExps[rootExps.indexOf(e) + 1];
    if (nextExp !== undefined) legs.push({ row: at(index.buckets[nextExp][right], strike), ratio: 1 });
  } else {
    const calls = index.buckets[e][1];
    const puts = index.buckets[e][0];
    const off = Math.abs(Math.log(strike / spotUsd));
    const up = at(calls, spotUsd * Math.exp(off));
    const dn = at(puts, spotUsd * Math.exp(-off));
    const upJ = nearestIndex(calls.strikes, spotUsd * Math.exp(off));
    const dnJ = nearestIndex(puts.strikes, spotUsd * Math.exp(-off));
    legs.length = 0;
    if (up >= 0 && dn >= 0) {
      legs.push({ row: dn, ratio: 1 }, { row: up, ratio: 1 });
      const upWing = calls.rows[Math.min(calls.rows.length - 1, upJ + width)];
      const dnWing = puts.rows[Math.max(0, dnJ - width)];
      if (upWing !== up) legs.push({ row: upWing, ratio: 1 });
      if (dnWing !== dn) legs.push({ row: dnWing, ratio: 1 });
    }
  }
  const unique = legs.filter((l, i) => l.row >= 0 && legs.findIndex((m) => m.row === l.row) === i);
  return { rows: unique.map((l) => l.row), ratios: unique.map((l) => l.ratio) };
}

/**
 * The sizes of `optionPrintsForMinute` on the same grid, fill by fill, without quotes or records:
 * `add(row, size)` with `row` the print's grid row. What the next session's open interest reads
 * (docs/methodology.md#open-interest-carry-from-the-tape).
 */
export function optionPrintSizesForMinute(input: OrderMinuteInput, add: (row: number, size: number) => void): void {
  minuteOrders(input, { fill: add, order: ignoreOrder });
}

/** The pricing board's row of each grid row, found on first use (-1: the board does not list it). */
function rowMapper(grid: PrintGridView, chain: PrintChainView): (row: number) => number {
  if (grid === chain) return (row) => row;
  // Boards of one session list the grid's rows from their first live expiration on: an offset.
  const offset = grid.right.length - chain.right.length;
  const same = (g: number, c: number) =>
    c >= 0 &&
    c < chain.right.length &&
    chain.right[c] === grid.right[g] &&
    chain.strikes[chain.strikeIndex[c]] === grid.strikes[grid.strikeIndex[g]] &&
    chain.expirations[chain.expIndex[c]] === grid.expirations[grid.expIndex[g]];
  return (row) => {
    if (same(row, row - offset)) return row - offset;
    const e = chain.expirations.indexOf(grid.expirations[grid.expIndex[row]]);
    if (e < 0) return -1;
    const bucket = chainIndex(chain).buckets[e][grid.right[row]];
    const c = bucket.rows.length ? bucket.rows[nearestIndex(bucket.strikes, grid.strikes[grid.strikeIndex[row]])] : -1;
    return same(row, c) ? c : -1;
  };
}

/**
 * Simulated option prints of one root in one minute, sorted by time: the order stream's fills,
 * each priced against the board's quote by a second random stream (side, price, venue,
 * condition, the sweep's timing).
 * @example
 * const prints = optionPrintsForMinute({ seed: 7, root: "SPXW", minuteMs, session, chain, spotUsd: 5210.4,
 *   profile: optionPrintProfile("SPXW", "index") });
 * @see docs/methodology.md#option-prints
 */
export function optionPrintsForMinute(input: OptionMinuteInput): OptionPrint[] {
  const grid = input.grid ?? input.chain;
  const orders: Order[] = [];
  let rows: number[] = [];
  let sizes: number[] = [];
  minuteOrders(
    { ...input, grid },
    {
      fill: (row, size) => {
        rows.push(row);
        sizes.push(size);
      },
      order: (offNs, kind) => {
        orders.push({ offNs, kind, rows, sizes });
        rows = [];
        sizes = [];
      },
    },
  );
  if (orders.length === 0) return [];
  const drafts = priceOrders(input, grid, orders);
  const { root, minuteMs, chain, spotUsd } = input;
  const index = chainIndex(grid);
  const minuteIndex = Math.floor(minuteMs / MINUTE_MS);
  const underlyingPrice = cents(spotUsd);
  const out: OptionPrint[] = new Array(drafts.length);
  for (let k = 0; k < drafts.length; k++) {
    const d = drafts[k];
    const tsMs = minuteMs + Math.floor(d.offNs / 1e6);
    const iv = d.chainRow >= 0 ? chain.iv[d.chainRow] : Number.NaN;
    out[k] = {
      id: `${root}-${minuteIndex}-${k}`,
      tsMs,
      tsNs: composeTsNs(tsMs, d.offNs % 1e6),
      symbol: index.symbolOf(d.row),
      root,
      underlying: grid.underlying,
      expiry: grid.expirations[grid.expIndex[d.row]],
      strike: grid.strikes[grid.strikeIndex[d.row]],
      right: grid.right[d.row] === 1 ? "C" : "P",
      price: d.price,
      size: d.size,
      exchange: d.exchange,
      nbboBid: d.bid,
      nbboAsk: Math.max(d.ask, d.bid),
      conditions: [d.condition],
      underlyingPrice,
      iv: iv > 0 ? Math.round(iv * 1e4) / 1e4 : null,
    };
  }
  return out;
}

/** The orders' fills as priced drafts (NBBO, price, venue, condition), in time order. */
function priceOrders(input: OptionMinuteInput, grid: PrintGridView, orders: Order[]): (Draft & { chainRow: number })[] {
  const { seed, root, minuteMs, chain, spotUsd, profile } = input;
  const rng = createRng(hashText(`${seed}|${root}|records`), Math.floor(minuteMs / MINUTE_MS));
  const exWeights = profile.exchanges.map((e) => e[1]);
  const exTotal = exWeights.reduce((a, b) => a + b, 0);
  const pickExchange = (): OptionExchange => profile.exchanges[rng.pick(exWeights, exTotal)][0];
  const dS = spotUsd - chain.spot;
  const tickRule = optionTickRule(root);
  const tilt = dayTilt(spotUsd, input.sessionOpenUsd, profile);
  const chainRowOf = rowMapper(grid, chain);
  /** The lean of a contract's buy side: bullish for calls, bearish for puts. */
  const leanOf = (row: number) => (grid.right[row] === 1 ? tilt : -tilt);

  const quoteOf = (c: number): Quote => {
    let bid = chain.bid[c];
    let ask = chain.ask[c];
    if (dS !== 0) {
      const e = chain.expIndex[c];
      const strike = chain.strikes[chain.strikeIndex[c]];
      const tYears = Math.max((chain.expirySettleMs[e] - minuteMs) / YEAR_MS, MINUTE_MS / YEAR_MS);
      const vol = chain.iv[c] > 0 ? chain.iv[c] : profile.ivRef;
      const sd = vol * Math.sqrt(tYears);
      const callDelta = normCdf((Math.log(chain.spot / strike) + 0.5 * sd * sd) / sd);
      const delta = chain.right[c] === 1 ? callDelta : callDelta - 1;
      // The quote moves with the underlying and stays on the tick grid (a zero bid below one tick).
      const half = (ask - bid) / 2;
      const mid = (bid + ask) / 2 + delta * dS;
      bid = roundToTick(tickRule, mid - half);
      ask = roundToTick(tickRule, mid + half);
      if (!(ask > bid)) ask = roundToTick(tickRule, bid + tickAt(tickRule, bid));
      return { bid, ask };
    }
    return { bid: cents(bid), ask: Math.max(cents(ask), cents(bid) + 0.01) };
  };

  const drafts: (Draft & { chainRow: number })[] = [];
  const priceSingle = (o: Order): void => {
    const row = o.rows[0];
    const c = chainRowOf(row);
    if (c < 0) return; // a contract the pricing board does not list (never on the simulator's boards)
    const v = rng.next();
    let condition: OptionCondition = "AUTO";
    if (o.kind === SINGLE) condition = profile.proprietary && v < 0.03 ? "SLFT" : v >= 0.98 ? "SLAN" : "AUTO";
    else if (o.kind === BLOCK) condition = v < 0.35 ? "SLCN" : v < 0.6 ? "SLAN" : profile.proprietary && v < 0.7 ? "SLFT" : "AUTO";
    const q = quoteOf(c);
    const mid = cents((q.bid + q.ask) / 2);
    const tick = tickOf(root, q.ask);
    const u = rng.next();
    const w = rng.next();
    // The day's lean moves probability between the ask and the bid; mid and the rest keep theirs.
    const pAsk = PLACEMENT_SHARES.ask + leanOf(row) * PLACEMENT_SHARES.ask;
    let price: number;
    if (u < pAsk || q.bid <= 0) price = q.ask;
    else if (u < PLACEMENT_SHARES.ask + PLACEMENT_SHARES.bid) price = q.bid;
    else if (u < 1 - PLACEMENT_SHARES.between - PLACEMENT_SHARES.outside) price = mid;
    else if (u < 1 - PLACEMENT_SHARES.outside) {
      // Strictly inside the spread and off the mid: a quarter of the way in from either side.
      price = cents(w < 0.5 ? q.bid + (q.ask - q.bid) * 0.25 : q.ask - (q.ask - q.bid) * 0.25);
      if (price <= q.bid || price >= q.ask) price = mid;
    } else price = w < 0.5 || q.bid - tick <= 0 ? cents(q.ask + tick) : cents(q.bid - tick);
    drafts.push({ offNs: o.offNs, row, chainRow: c, price, size: o.sizes[0], exchange: pickExchange(), condition, bid: q.bid, ask: q.ask });
  };

  /**
   * A sweep, one side within ~5 ms: on multi-listed roots distinct exchanges, price walking one
   * tick per two fills; on single-listed roots the home exchange, one price level per fill.
   */
  const priceSweep = (o: Order): void => {
    const row = o.rows[0];
    const c = chainRowOf(row);
    if (c < 0) return;
    const q = quoteOf(c);
    const buy = rng.next() < SWEEP_BUY_SHARE * (1 + leanOf(row)) || q.bid <= 0;
    const home = profile.exchanges.length === 1;
    const venues: OptionExchange[] = [];
    if (home) for (let j = 0; j < o.rows.length; j++) venues.push(profile.exchanges[0][0]);
    else {
      while (venues.length < o.rows.length) {
        const ex = pickExchange();
        if (!venues.includes(ex)) venues.push(ex);
      }
    }
    let t = o.offNs;
    let level = buy ? q.ask : q.bid;
    for (let j = 0; j < venues.length; j++) {
      // One exchange's book is swept level by level; across exchanges every other fill moves.
      // Each step is the tick at the level it leaves, so the walk stays on the grid across $3.
      if (j > 0 && (home || j % 2 === 0)) {
        level = buy ? cents(level + tickOf(root, level)) : cents(Math.max(0.01, level - tickOf(root, level - 0.005)));
      }
      const price = level;
      // The NBBO walks with the sweep: each fill takes the then-best price on its exchange.
      const bid = buy ? q.bid : price;
      const ask = buy ? price : q.ask;
      const condition: OptionCondition = rng.next() < 0.9 ? "ISOI" : "SLAI";
      drafts.push({ offNs: t, row, chainRow: c, price, size: o.sizes[j], exchange: venues[j], condition, bid, ask });
      t += rng.int(20_000, 1_000_000);
    }
  };

  /** A multi-leg package on one exchange: each leg prints anywhere inside its own spread. */
  const priceMultiLeg = (o: Order): void => {
    const exchange = pickExchange();
    const v = rng.next();
    const condition: OptionCondition = profile.proprietary
      ? v < 0.6
        ? "MLET"
        : v < 0.75
          ? "MLAT"
          : v < 0.9
            ? "CBMO"
            : "MLFT"
      : v < 0.7
        ? "MLET"
        : v < 0.88
          ? "MLAT"
          : v < 0.94
            ? "MLCT"
            : v < 0.98
              ? "MESL"
              : "TLET";
    for (let k = 0; k < o.rows.length; k++) {
      const u = rng.next();
      const c = chainRowOf(o.rows[k]);
      if (c < 0) continue;
      const q = quoteOf(c);
      const price = cents(q.bid + (q.ask - q.bid) * u);
      drafts.push({ offNs: o.offNs + k * 100, row: o.rows[k], chainRow: c, price: Math.max(price, 0.01), size: o.sizes[k], exchange, condition, bid: q.bid, ask: q.ask });
    }
  };

  for (const o of orders) {
    if (o.kind === SWEEP) priceSweep(o);
    else if (o.kind === MULTI_LEG) priceMultiLeg(o);
    else priceSingle(o);
  }
  drafts.sort((a, b) => a.offNs - b.offNs);
  return drafts;
}
