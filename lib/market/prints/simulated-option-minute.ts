/**
 * One minute of simulated option prints for one option root, from a board and the minute's spot.
 * Pure: the same `(seed, root, minuteMs, board, spot)` gives the same prints, in any process.
 * @see docs/methodology.md#option-prints
 */
import { normCdf } from "../../math/normal";
import type { IsoDate } from "../market-data";
import { chainIndex, nearestIndex, type PrintChainView } from "./_chain-index";
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
export const SWEEP_BUY_SHARE = 0.6;

/** Inputs of `optionPrintsForMinute`. */
export interface OptionMinuteInput {
  seed: number;
  /** Option root the prints belong to (`SPXW`); only the board's expirations of this root are used. */
  root: string;
  /** Start of the minute, ms (a regular-session minute). */
  minuteMs: number;
  /** Regular session of the minute, ms (`[openMs, closeMs)`). */
  session: { openMs: number; closeMs: number };
  /** A board at or shortly before the minute (quotes are shifted by delta to `spotUsd`). */
  chain: PrintChainView;
  /** Underlying price during the minute, USD. */
  spotUsd: number;
  /**
   * The underlying's price at the session's open, USD: sides lean with the move since
   * (docs/methodology.md#sides-follow-the-day). Without it sides do not lean.
   */
  sessionOpenUsd?: number;
  profile: OptionPrintProfile;
}

interface Draft {
  offNs: number;
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

/** Expirations of a root with their draw weights at the minute. @see docs/methodology.md#contract-choice */
function expiryWeights(
  chain: PrintChainView,
  exps: readonly number[],
  minuteMs: number,
  zeroDteShare: number,
): { exps: number[]; weights: Float64Array; total: number } {
  const live: number[] = [];
  for (const e of exps) if (chain.expirySettleMs[e] > minuteMs) live.push(e);
  const weights = new Float64Array(live.length);
  let other = 0;
  let zeroIdx = -1;
  for (let j = 0; j < live.length; j++) {
    const e = live[j];
    if (chain.expirations[e] === chain.sessionDate) {
      zeroIdx = j;
      continue;
    }
    const dteDays = Math.max(0.5, (chain.expirySettleMs[e] - minuteMs) / DAY_MS);
    const w = Math.pow(1 + dteDays / 5, -1.3) * (isMonthly(chain.expirations[e]) ? 1.6 : 1);
    weights[j] = w;
    other += w;
  }
  let total = other;
  if (zeroIdx >= 0) {
    // The same-day expiration takes `zeroDteShare` of orders (all of them when it is the only one).
    const w = other > 0 ? (other * zeroDteShare) / (1 - zeroDteShare) : 1;
    weights[zeroIdx] = w;
    total += w;
  }
  return { exps: live, weights, total };
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
 * Simulated option prints of one root in one minute, sorted by time.
 * @example
 * const prints = optionPrintsForMinute({ seed: 7, root: "SPXW", minuteMs, session, chain, spotUsd: 5210.4,
 *   profile: optionPrintProfile("SPXW", "index") });
 * @see docs/methodology.md#option-prints
 */
export function optionPrintsForMinute(input: OptionMinuteInput): OptionPrint[] {
  const drafts = minuteDrafts(input);
  if (drafts.length === 0) return [];
  const { root, minuteMs, chain, spotUsd } = input;
  const index = chainIndex(chain);
  const minuteIndex = Math.floor(minuteMs / MINUTE_MS);
  const underlyingPrice = cents(spotUsd);
  const out: OptionPrint[] = new Array(drafts.length);
  for (let k = 0; k < drafts.length; k++) {
    const d = drafts[k];
    const tsMs = minuteMs + Math.floor(d.offNs / 1e6);
    const e = chain.expIndex[d.row];
    const iv = chain.iv[d.row];
    out[k] = {
      id: `${root}-${minuteIndex}-${k}`,
      tsMs,
      tsNs: composeTsNs(tsMs, d.offNs % 1e6),
      symbol: index.symbolOf(d.row),
      root,
      underlying: chain.underlying,
      expiry: chain.expirations[e],
      strike: chain.strikes[chain.strikeIndex[d.row]],
      right: chain.right[d.row] === 1 ? "C" : "P",
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

/**
 * The sizes of `optionPrintsForMinute(input)`, print by print, without making the records:
 * `add(row, size)` with `row` the print's row of `input.chain`. What the next session's open
 * interest reads (docs/methodology.md#open-interest-carry-from-the-tape).
 */
export function optionPrintSizesForMinute(input: OptionMinuteInput, add: (row: number, size: number) => void): void {
  for (const d of minuteDrafts(input)) add(d.row, d.size);
}

/** The minute's prints as drafts (board row, price, size, venue, condition, NBBO), in time order. */
function minuteDrafts(input: OptionMinuteInput): Draft[] {
  const { seed, root, minuteMs, session, chain, spotUsd, profile } = input;
  if (minuteMs < session.openMs || minuteMs >= session.closeMs) return [];
  const index = chainIndex(chain);
  const rootExps = index.expirationsByRoot.get(root);
  if (!rootExps) return [];
  const { exps, weights, total } = expiryWeights(chain, rootExps, minuteMs, profile.zeroDteShare);
  if (exps.length === 0 || !(total > 0)) return [];

  const minuteIndex = Math.floor(minuteMs / MINUTE_MS);
  const rng = createRng(hashText(`${seed}|${root}|options`), minuteIndex);
  const x = (minuteMs + MINUTE_MS / 2 - session.openMs) / (session.closeMs - session.openMs);
  // Per-minute rate of a full 390-minute session, so early closes simply have fewer minutes.
  const lambda = (profile.ordersPerDay / 390) * uCurve(x);
  const nOrders = rng.poisson(lambda);
  if (nOrders === 0) return [];

  const exWeights = profile.exchanges.map((e) => e[1]);
  const exTotal = exWeights.reduce((a, b) => a + b, 0);
  const pickExchange = (): OptionExchange => profile.exchanges[rng.pick(exWeights, exTotal)][0];
  const dS = spotUsd - chain.spot;
  const tickRule = optionTickRule(root);
  const tilt = dayTilt(spotUsd, input.sessionOpenUsd, profile);
  /** The lean of a contract's buy side: bullish for calls, bearish for puts. */
  const leanOf = (row: number) => (chain.right[row] === 1 ? tilt : -tilt);

  const quoteOf = (row: number): Quote => {
    let bid = chain.bid[row];
    let ask = chain.ask[row];
    if (dS !== 0) {
      const e = chain.expIndex[row];
      const strike = chain.strikes[chain.strikeIndex[row]];
      const tYears = Math.max((chain.expirySettleMs[e] - minuteMs) / YEAR_MS, MINUTE_MS / YEAR_MS);
      const vol = chain.iv[row] > 0 ? chain.iv[row] : profile.ivRef;
      const sd = vol * Math.sqrt(tYears);
      const callDelta = normCdf((Math.log(chain.spot / strike) + 0.5 * sd * sd) / sd);
      const delta = chain.right[row] === 1 ? callDelta : callDelta - 1;
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

  /** Draws a contract row: expiration by weight, right, then a strike around spot. */
  const pickRow = (): number => {
    const e = exps[rng.pick(weights, total)];
    const call = rng.next() < profile.callShare;
    const bucket = index.buckets[e][call ? 1 : 0];
    if (bucket.rows.length === 0) return -1;
    const dteDays = Math.max(1, (chain.expirySettleMs[e] - minuteMs) / DAY_MS);
    const scale = Math.min(0.35, profile.ivRef * Math.sqrt(dteDays / 365));
    const distance = -Math.log(1 - rng.next()) * scale;
    // Most flow is out of the money: calls above spot, puts below.
    const otm = rng.next() < 0.8;
    const sign = call === otm ? 1 : -1;
    const target = spotUsd * Math.exp(sign * distance);
    return bucket.rows[nearestIndex(bucket.strikes, target)];
  };

  const drafts: Draft[] = [];
  const emitSingle = (offNs: number, row: number, condition: OptionCondition, sizeOverride?: number) => {
    const q = quoteOf(row);
    const mid = cents((q.bid + q.ask) / 2);
    const tick = tickOf(root, q.ask);
    const u = rng.next();
    // The day's lean moves probability between the ask and the bid; mid and the rest keep theirs.
    const pAsk = PLACEMENT_SHARES.ask + leanOf(row) * PLACEMENT_SHARES.ask;
    let price: number;
    if (u < pAsk || q.bid <= 0) price = q.ask;
    else if (u < PLACEMENT_SHARES.ask + PLACEMENT_SHARES.bid) price = q.bid;
    else if (u < 1 - PLACEMENT_SHARES.between - PLACEMENT_SHARES.outside) price = mid;
    else if (u < 1 - PLACEMENT_SHARES.outside) {
      // Strictly inside the spread and off the mid: a quarter of the way in from either side.
      price = cents(rng.next() < 0.5 ? q.bid + (q.ask - q.bid) * 0.25 : q.ask - (q.ask - q.bid) * 0.25);
      if (price <= q.bid || price >= q.ask) price = mid;
    } else price = rng.next() < 0.5 || q.bid - tick <= 0 ? cents(q.ask + tick) : cents(q.bid - tick);
    const size = sizeOverride ?? Math.min(2_000, Math.floor(rng.pareto(1, 1.3)));
    drafts.push({ offNs, row, price, size, exchange: pickExchange(), condition, bid: q.bid, ask: q.ask });
  };

  for (let k = 0; k < nOrders; k++) {
    const offNs = Math.floor(rng.next() * 59.99e9);
    // Orders go to contracts with a two-sided market: a contract drawn with a zero bid (worth
    // less than one tick) is drawn again once.
    let row = pickRow();
    if (row >= 0 && quoteOf(row).bid <= 0) row = pickRow();
    if (row < 0) continue;
    const u = rng.next();
    if (u < profile.sweepShare) emitSweep(rng, offNs, row);
    else if (u < profile.sweepShare + profile.multiLegShare) emitMultiLeg(rng, offNs, row);
    else if (u < profile.sweepShare + profile.multiLegShare + profile.blockShare) emitBlock(rng, offNs, row);
    else {
      const v = rng.next();
      const condition: OptionCondition = profile.proprietary && v < 0.03 ? "SLFT" : v >= 0.98 ? "SLAN" : "AUTO";
      emitSingle(offNs, row, condition);
    }
  }

  /**
   * A sweep, one side within ~5 ms: on multi-listed roots 3-6 exchanges, price walking one tick
   * per two fills; on single-listed roots 2-5 fills on the home exchange, one price level each.
   */
  function emitSweep(r: Rng, offNs: number, row: number): void {
    const q = quoteOf(row);
    const buy = r.next() < SWEEP_BUY_SHARE * (1 + leanOf(row)) || q.bid <= 0;
    const home = profile.exchanges.length === 1;
    const n = home ? r.int(2, 5) : r.int(3, 6);
    const venues: OptionExchange[] = [];
    if (home) for (let j = 0; j < n; j++) venues.push(profile.exchanges[0][0]);
    else {
      for (let tries = 0; venues.length < n && tries < 30; tries++) {
        const ex = pickExchange();
        if (!venues.includes(ex)) venues.push(ex);
      }
    }
    const totalSize = Math.min(5_000, Math.floor(r.pareto(20, 1.3)));
    const parts = venues.map(() => 0.3 + r.next());
    const partSum = parts.reduce((a, b) => a + b, 0);
    let t = offNs;
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
      const size = Math.max(1, Math.round((totalSize * parts[j]) / partSum));
      const condition: OptionCondition = r.next() < 0.9 ? "ISOI" : "SLAI";
      drafts.push({ offNs: t, row, price, size, exchange: venues[j], condition, bid, ask });
      t += r.int(20_000, 1_000_000);
    }
  }

  /** A multi-leg package: vertical, straddle, strangle, calendar or iron condor, one exchange. */
  function emitMultiLeg(r: Rng, offNs: number, row: number): void {
    const e = chain.expIndex[row];
    const right = chain.right[row];
    const bucket = index.buckets[e][right];
    const other = index.buckets[e][1 - right];
    const at = (b: { rows: Int32Array; strikes: Float64Array }, strike: number) =>
      b.rows.length ? b.rows[nearestIndex(b.strikes, strike)] : -1;
    const strike = chain.strikes[chain.strikeIndex[row]];
    const j = nearestIndex(bucket.strikes, strike);
    const width = r.int(1, 3);
    const legs: { row: number; ratio: number }[] = [{ row, ratio: 1 }];
    const u = r.next();
    if (u < 0.5) {
      const j2 = Math.min(bucket.rows.length - 1, Math.max(0, j + (right === 1 ? width : -width)));
      if (bucket.rows[j2] !== row) legs.push({ row: bucket.rows[j2], ratio: r.next() < 0.1 ? 2 : 1 });
    } else if (u < 0.65) {
      legs.push({ row: at(other, strike), ratio: 1 });
    } else if (u < 0.75) {
      const mirror = spotUsd * spotUsd / strike;
      legs.push({ row: at(other, mirror), ratio: 1 });
    } else if (u < 0.85) {
      const rootExps = index.expirationsByRoot.get(input.root) ?? [];
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
    if (unique.length < 2) {
      emitSingle(offNs, row, "AUTO");
      return;
    }
    const size = Math.min(2_000, Math.floor(r.pareto(2, 1.25)));
    const exchange = pickExchange();
    const v = r.next();
    const condition: OptionCondition = profile.proprietary
      ? v < 0.6 ? "MLET" : v < 0.75 ? "MLAT" : v < 0.9 ? "CBMO" : "MLFT"
      : v < 0.7 ? "MLET" : v < 0.88 ? "MLAT" : v < 0.94 ? "MLCT" : v < 0.98 ? "MESL" : "TLET";
    for (let k = 0; k < unique.length; k++) {
      const q = quoteOf(unique[k].row);
      // Legs are priced as a package, so each leg prints anywhere inside its own spread.
      const price = cents(q.bid + (q.ask - q.bid) * r.next());
      drafts.push({
        offNs: offNs + k * 100,
        row: unique[k].row,
        price: Math.max(price, 0.01),
        size: size * unique[k].ratio,
        exchange,
        condition,
        bid: q.bid,
        ask: q.ask,
      });
    }
  }

  /** A large block, usually crossed or auctioned near the mid. */
  function emitBlock(r: Rng, offNs: number, row: number): void {
    const v = r.next();
    const condition: OptionCondition = v < 0.35 ? "SLCN" : v < 0.6 ? "SLAN" : profile.proprietary && v < 0.7 ? "SLFT" : "AUTO";
    emitSingle(offNs, row, condition, Math.min(25_000, Math.floor(r.pareto(500, 1.6))));
  }

  drafts.sort((a, b) => a.offNs - b.offNs);
  return drafts;
}
