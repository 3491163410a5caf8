/**
 * Intraday open interest from the tape (`oi=flow`): an estimate of each contract's open interest
 * during the session, from the morning's exchange open interest plus the day's prints, each print
 * split into opening and closing volume by its days to expiry, its distance from spot, its side
 * against the NBBO and its size. It is an estimate: the tape does not say who opened or closed.
 * @see docs/methodology.md#flow-open-interest
 */
import { SIDE_AGGRESSION, sideCode } from "../flow/trade-side";
import type { ChainSnapshot, OptionPrint } from "../market/market-data";
import { isCrossPrint } from "../market/prints/conditions";

/** Parameters of the estimate. @see docs/methodology.md#flow-open-interest */
export const FLOW_OI = Object.freeze({
  /** Opening share: base, plus up to `openingFar` with the distance from spot (full at `farSd` sds), plus up to `openingNew` with days to expiry (full at `newDays`). */
  openingBase: 0.25,
  openingFar: 0.15,
  farSd: 2,
  openingNew: 0.1,
  newDays: 60,
  /** Closing share: base, plus `closingNearExpiry x exp(-days / nearExpiryDays)`. */
  closingBase: 0.15,
  closingNearExpiry: 0.3,
  nearExpiryDays: 7,
  /** How far a print's side moves its shares: a buyer-initiated print opens `x (1 + tilt a)` and closes `x (1 - tilt a)`. */
  sideTilt: 0.25,
  /** Volatility for the distance when a print carries no IV (decimal). */
  fallbackIv: 0.2,
});

const DAY_MS = 86_400_000;

/** What the estimate reads of a print (an `OptionPrint` has all of it). */
export type FlowOiPrint = Pick<
  OptionPrint,
  "symbol" | "expiry" | "strike" | "right" | "size" | "price" | "nbboBid" | "nbboAsk" | "conditions" | "underlyingPrice" | "iv"
>;

/** Shares of a print's size: opening on both sides, closing on both sides. */
export interface FlowOiShares {
  opening: number;
  closing: number;
}

/**
 * Base shares of a print `dteDays` calendar days before its expiry, its strike `distanceSd`
 * standard deviations from spot, tilted by its aggression `a` (-1 seller-initiated .. +1
 * buyer-initiated; 0 mid, no NBBO or a pre-negotiated cross).
 * @example
 * flowOiShares(90, 3, 0); // { opening: 0.5, closing: 0.15 + 0.3 * Math.exp(-90 / 7) }
 * @see docs/methodology.md#flow-open-interest
 */
export function flowOiShares(dteDays: number, distanceSd: number, aggression: number): FlowOiShares {
  const P = FLOW_OI;
  const d = Math.max(0, dteDays);
  const opening = P.openingBase + P.openingFar * Math.min(1, distanceSd / P.farSd) + P.openingNew * Math.min(1, d / P.newDays);
  const closing = P.closingBase + P.closingNearExpiry * Math.exp(-d / P.nearExpiryDays);
  const t = P.sideTilt * aggression;
  return { opening: opening * (1 + t), closing: closing * (1 - t) };
}

/**
 * Change of open interest from one print on a contract holding `current` (>= 0) contracts:
 * `size x (opening - closing)` of its shares, never closing more than is open (the result is at
 * least `-current`).
 * @example
 * printOiChange(100, flowOiShares(0, 0, -1), 10); // -10: a closing sell cannot close more than is open
 * @see docs/methodology.md#flow-open-interest
 */
export function printOiChange(size: number, shares: FlowOiShares, current: number): number {
  return Math.max(-current, size * (shares.opening - shares.closing)) + 0; // + 0: no negative zero
}

/** Days from the session date to an expiry (calendar days, ET dates). */
function dteOf(sessionDate: string, expiry: string): number {
  return (Date.parse(`${expiry}T00:00:00Z`) - Date.parse(`${sessionDate}T00:00:00Z`)) / DAY_MS;
}

/** One contract's running estimate. */
interface ContractOi {
  expiry: string;
  strike: number;
  right: 0 | 1;
  dteDays: number;
  /** Open interest now (fractional while accumulating). */
  oi: number;
}

/** The estimate's result: every contract that printed, with its estimated open interest (whole contracts). */
export interface FlowOiEstimate {
  sessionDate: string;
  /** Prints with `tsMs < uptoMs` are counted. */
  uptoMs: number;
  expiry: string[];
  strike: number[];
  /** 1 call, 0 put. */
  right: number[];
  oi: number[];
  /** Prints counted. */
  prints: number;
}

/**
 * The session's running estimate for one symbol: start from the morning's exchange open interest
 * (`openingOi`, by URL-safe contract symbol; a contract missing from it starts at 0), add prints
 * in time order, read the estimate at any point. Pure and incremental: adding prints in two
 * batches gives what one batch gives.
 * @example
 * const est = new FlowOiEstimator("2024-03-05", openInterestBySymbol(openBoard));
 * est.add(prints); est.result(uptoMs);
 * @see docs/methodology.md#flow-open-interest
 */
export class FlowOiEstimator {
  private readonly contracts = new Map<string, ContractOi>();
  private count = 0;

  constructor(
    readonly sessionDate: string,
    private readonly openingOi: ReadonlyMap<string, number>,
  ) {}

  /** Count `prints` (time order, all on or after the last batch). */
  add(prints: readonly FlowOiPrint[]): void {
    for (const p of prints) {
      let c = this.contracts.get(p.symbol);
      if (!c) {
        c = {
          expiry: p.expiry,
          strike: p.strike,
          right: p.right === "C" ? 1 : 0,
          dteDays: dteOf(this.sessionDate, p.expiry),
          oi: Math.max(0, this.openingOi.get(p.symbol) ?? 0),
        };
        this.contracts.set(p.symbol, c);
      }
      const iv = p.iv !== null && p.iv > 0 ? p.iv : FLOW_OI.fallbackIv;
      const distanceSd = p.underlyingPrice > 0 ? Math.abs(Math.log(p.strike / p.underlyingPrice)) / (iv * Math.sqrt(Math.max(c.dteDays, 1) / 365)) : 0;
      const aggression = isCrossPrint(p) ? 0 : SIDE_AGGRESSION[sideCode(p.price, p.nbboBid, p.nbboAsk)];
      c.oi += printOiChange(p.size, flowOiShares(c.dteDays, distanceSd, aggression), c.oi);
      this.count++;
    }
  }

  /** The estimate so far, rounded to whole contracts (`uptoMs`: the end of the prints counted). */
  result(uptoMs: number): FlowOiEstimate {
    const out: FlowOiEstimate = { sessionDate: this.sessionDate, uptoMs, expiry: [], strike: [], right: [], oi: [], prints: this.count };
    for (const c of this.contracts.values()) {
      out.expiry.push(c.expiry);
      out.strike.push(c.strike);
      out.right.push(c.right);
      out.oi.push(Math.max(0, Math.round(c.oi)));
    }
    return out;
  }
}

/**
 * `chain` with the estimate's open interest on every contract that printed (the others keep the
 * exchange's). A board of another session than the estimate's is returned as it is.
 * @example const flowChain = withFlowOpenInterest(chain, estimate);
 * @see docs/methodology.md#flow-open-interest
 */
export function withFlowOpenInterest(chain: ChainSnapshot, estimate: FlowOiEstimate): ChainSnapshot {
  if (estimate.sessionDate !== chain.sessionDate || estimate.oi.length === 0) return chain;
  const nExp = chain.expirations.length;
  const nStrikes = chain.strikes.length;
  // Row of each (expiration, strike, right) cell: the board lists each at most once.
  const rowOf = new Int32Array(nExp * nStrikes * 2).fill(-1);
  for (let i = 0; i < chain.right.length; i++) rowOf[(chain.expIndex[i] * nStrikes + chain.strikeIndex[i]) * 2 + chain.right[i]] = i;
  const expIndex = new Map(chain.expirations.map((x, e) => [x, e]));
  const oi = Float64Array.from(chain.oi);
  for (let j = 0; j < estimate.oi.length; j++) {
    const e = expIndex.get(estimate.expiry[j]);
    if (e === undefined) continue;
    const k = strikeIndexOf(chain.strikes, estimate.strike[j]);
    if (k < 0) continue;
    const row = rowOf[(e * nStrikes + k) * 2 + estimate.right[j]];
    if (row >= 0) oi[row] = estimate.oi[j];
  }
  // Every other column is shared, not copied; lazy columns (the simulator's `volume`) stay lazy.
  const props = Object.getOwnPropertyDescriptors(chain);
  props.oi = { value: oi, enumerable: true, writable: true, configurable: true };
  return Object.defineProperties({}, props) as ChainSnapshot;
}

/** Index of `strike` in the sorted `strikes`, or -1. */
function strikeIndexOf(strikes: Float64Array, strike: number): number {
  let lo = 0;
  let hi = strikes.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const k = strikes[mid];
    if (Math.abs(k - strike) < 1e-9) return mid;
    if (k < strike) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
