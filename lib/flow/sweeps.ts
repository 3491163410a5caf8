/**
 * Sweep grouping: one order split across exchanges within milliseconds, same contract, same side.
 * @see docs/methodology.md#flow-sweeps
 */
import { finishSteps } from "../finish-steps";
import type { OptionPrint } from "../market/prints/schemas";
import { isCrossPrint, isMultiLegPrint, isSweepPrint } from "../market/prints/conditions";
import { SWEEP_WINDOW } from "./params";
import { premiumUsd } from "./trade-facts";
import { SIDE_AGGRESSION, TRADE_SIDES, sideCode, type TradeSide } from "./trade-side";

/** Where a sweep's first fill printed in the spread (the reference's `spreadPosition`). */
export type SpreadPosition = "AT_ASK" | "ABOVE_MID" | "AT_MID" | "BELOW_MID" | "AT_BID" | "UNKNOWN";

/** One logical sweep. */
export interface SweepGroup {
  /** Index of the group in the result (0-based, in order of first fill). */
  id: number;
  symbol: string;
  underlying: string;
  expiry: string;
  strike: number;
  right: "C" | "P";
  /** +1 buyer-initiated (ask side), -1 seller-initiated (bid side). */
  sideSign: 1 | -1;
  /** Indices of the member prints in the input, in time order. */
  printIndices: number[];
  firstTsMs: number;
  firstTsNs: string;
  lastTsMs: number;
  /** `lastTsMs - firstTsMs`. */
  executionTimeMs: number;
  totalContracts: number;
  totalPremiumUsd: number;
  /** Size-weighted average price, USD per share. */
  vwapUsd: number;
  /** Distinct exchanges in order of first appearance. */
  exchanges: string[];
  exchangeCount: number;
  /** Side label of the first fill. */
  firstSide: TradeSide;
  spreadPosition: SpreadPosition;
  /** Any member carries an intermarket-sweep condition. */
  hasIsoCondition: boolean;
}

/** Result of {@link groupSweeps}. */
export interface SweepGrouping {
  groups: SweepGroup[];
  /** Per input print: the sweep group id, or -1. */
  groupOf: Int32Array;
}

const POSITION_OF_SIDE: Readonly<Record<TradeSide, SpreadPosition>> = {
  AA: "AT_ASK",
  A: "AT_ASK",
  BA: "ABOVE_MID",
  M: "AT_MID",
  AB: "BELOW_MID",
  B: "AT_BID",
  BB: "AT_BID",
  N: "UNKNOWN",
};

/**
 * Groups prints (in time order) into logical sweeps. A candidate group collects prints of one
 * contract with the same aggression sign (ask side or bid side), each within `maxGapMs` of the
 * previous member and `maxSpanMs` of the first; multi-leg legs, crosses and mid or no-NBBO prints
 * never join. A candidate is a sweep when it touched at least two exchanges or any member carries
 * an intermarket-sweep condition.
 * @example
 * const { groups, groupOf } = groupSweeps(prints);
 * @see docs/methodology.md#flow-sweeps
 */
export function groupSweeps(prints: readonly OptionPrint[], window: { maxGapMs: number; maxSpanMs: number } = SWEEP_WINDOW): SweepGrouping {
  return finishSteps(groupSweepsSteps(prints, window, Number.POSITIVE_INFINITY));
}

/**
 * `groupSweeps` pausing after every `chunk` prints (a large root's session is ~100,000 prints, tens
 * of ms in all), so a caller on an event loop can run other work between the pieces. Same groups.
 * @example const it = groupSweepsSteps(prints, SWEEP_WINDOW, 10_000); let r = it.next(); while (!r.done) r = it.next();
 * @see docs/methodology.md#flow-sweeps
 */
export function* groupSweepsSteps(prints: readonly OptionPrint[], window: { maxGapMs: number; maxSpanMs: number }, chunk: number): Generator<void, SweepGrouping, void> {
  interface Candidate {
    members: number[];
    sign: 1 | -1;
    firstTsMs: number;
    lastTsMs: number;
  }
  const open = new Map<string, Candidate>();
  const candidates: Candidate[] = [];
  for (let i = 0; i < prints.length; i++) {
    if (i > 0 && i % chunk === 0) yield;
    const p = prints[i];
    if (isMultiLegPrint(p) || isCrossPrint(p)) continue;
    const a = SIDE_AGGRESSION[sideCode(p.price, p.nbboBid, p.nbboAsk)];
    if (a === 0) continue;
    const sign: 1 | -1 = a > 0 ? 1 : -1;
    const key = `${p.symbol}|${sign}`;
    const c = open.get(key);
    if (c && p.tsMs - c.lastTsMs <= window.maxGapMs && p.tsMs - c.firstTsMs <= window.maxSpanMs) {
      c.members.push(i);
      c.lastTsMs = p.tsMs;
    } else {
      const fresh: Candidate = { members: [i], sign, firstTsMs: p.tsMs, lastTsMs: p.tsMs };
      open.set(key, fresh);
      candidates.push(fresh);
    }
  }
  const groupOf = new Int32Array(prints.length).fill(-1);
  const groups: SweepGroup[] = [];
  for (let k = 0; k < candidates.length; k++) {
    if (k > 0 && k % chunk === 0) yield;
    const c = candidates[k];
    const exchanges: string[] = [];
    let iso = false;
    for (const i of c.members) {
      if (!exchanges.includes(prints[i].exchange)) exchanges.push(prints[i].exchange);
      if (isSweepPrint(prints[i])) iso = true;
    }
    if (exchanges.length < 2 && !iso) continue;
    const first = prints[c.members[0]];
    let contracts = 0;
    let premium = 0;
    let notional = 0;
    for (const i of c.members) {
      contracts += prints[i].size;
      premium += premiumUsd(prints[i].price, prints[i].size);
      notional += prints[i].price * prints[i].size;
    }
    const firstSide = TRADE_SIDES[sideCode(first.price, first.nbboBid, first.nbboAsk)];
    const id = groups.length;
    for (const i of c.members) groupOf[i] = id;
    groups.push({
      id,
      symbol: first.symbol,
      underlying: first.underlying,
      expiry: first.expiry,
      strike: first.strike,
      right: first.right,
      sideSign: c.sign,
      printIndices: c.members,
      firstTsMs: c.firstTsMs,
      firstTsNs: first.tsNs,
      lastTsMs: c.lastTsMs,
      executionTimeMs: c.lastTsMs - c.firstTsMs,
      totalContracts: contracts,
      totalPremiumUsd: premium,
      vwapUsd: notional / contracts,
      exchanges,
      exchangeCount: exchanges.length,
      firstSide,
      spreadPosition: POSITION_OF_SIDE[firstSide],
      hasIsoCondition: iso,
    });
  }
  return { groups, groupOf };
}
