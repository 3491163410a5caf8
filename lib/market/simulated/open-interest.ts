/**
 * The shape of a chain's open interest across strikes and rights: where positions were opened
 * (an anchor that lags spot), which side holds what (index hedging puts further out of the
 * money, overwritten calls near and above it), and how the volatility regime tilts it.
 * @see docs/methodology.md#open-interest-and-volume
 */
import { OI } from "./params";

/** Per-session inputs of the OI shape of one chain. */
export interface OiRegime {
  /** ln of the level positions were opened around (EWMA of past closes). */
  lnAnchor: number;
  /** Index/ETF chain (hedging-put shape) or single name. */
  indexLike: boolean;
  /** sqrt(conditional / long-run daily variance), clamped: > 1 in a high-vol regime. */
  volRatio: number;
}

/**
 * ln of the OI anchor for session `d`: an exponentially weighted mean of the log closes of the
 * sessions before `d` (half-life `OI.anchorHalfLifeSessions`, `OI.anchorLookback` sessions, the
 * reference price standing in before the first session). Open interest was built while spot
 * was there, so after a selloff the anchor sits above spot.
 * @example
 * Math.exp(lnOiAnchor(Float64Array.of(100, 100), 100, 2)); // 100 (to rounding)
 */
export function lnOiAnchor(close: Float64Array, refPrice: number, d: number): number {
  const decay = Math.pow(0.5, 1 / OI.anchorHalfLifeSessions);
  let wSum = 0;
  let sum = 0;
  let w = 1;
  for (let j = 1; j <= OI.anchorLookback; j++) {
    const k = d - j;
    sum += w * Math.log(k >= 0 ? close[k] : refPrice);
    wSum += w;
    w *= decay;
  }
  return sum / wSum;
}

/**
 * The regime of a session: anchor (ln, family ratio included) and vol ratio `sqrt(h_total / v)`.
 * @example
 * oiRegime(Math.log(4000), true, 2e-4, 1e-4).volRatio; // sqrt(2)
 * @see docs/methodology.md#open-interest-and-volume
 */
export function oiRegime(lnAnchor: number, indexLike: boolean, hTotal: number, longRunVar: number): OiRegime {
  const volRatio = Math.min(Math.max(Math.sqrt(hTotal / longRunVar), OI.volRatioMin), OI.volRatioMax);
  return { lnAnchor, indexLike, volRatio };
}

/** Per-expiration part of the shape: widths and centres in log-moneyness from the anchor. */
export interface OiExpiryShape {
  /** Call bell centre and width. */
  callMu: number;
  callW: number;
  /** Put bell centre and width. */
  putMu: number;
  putW: number;
  /** Mass of the put bell relative to the call bell. */
  putMass: number;
  /** Put bell width further out of the money than its centre (a split normal: long protection tail). */
  putFarW: number;
  /** Width of the far tails (exponential in |m|). */
  tailW: number;
  /** Weight of in-the-money contracts (against the anchor): of the bell, of the far tail. */
  itmBell: number;
  itmTail: number;
  /** Peak of a second put bell at the anchor (width `callW`): near-the-money trading puts. */
  putNear: number;
}

/**
 * Shape of one expiration with OI width `w` (clamped `sigma sqrt(T)`).
 * @example
 * oiExpiryShape(0.05, { lnAnchor: 0, indexLike: true, volRatio: 1 }).putMu < -0.03; // true
 * @see docs/methodology.md#open-interest-and-volume
 */
export function oiExpiryShape(w: number, regime: OiRegime): OiExpiryShape {
  if (!regime.indexLike)
    return { callMu: 0, callW: w, putMu: 0, putW: w, putMass: OI.stockPutMass, putFarW: w, tailW: 3 * w, itmBell: OI.itmFactor, itmTail: OI.itmFactor, putNear: 0 };
  const v = regime.volRatio;
  // Hedgers buy protection some way out of the money; in stress they buy it closer and more of it.
  const putDist = Math.min(OI.putDistanceMax, OI.putDistanceBase + OI.putDistanceInWidth * w) / Math.pow(v, OI.putDistanceVolPower);
  return {
    callMu: OI.callCentreInWidth * w,
    callW: OI.callWidthRatio * w,
    putMu: -putDist,
    putW: OI.putWidthRatio * w,
    putMass: OI.indexPutMass * Math.pow(v, OI.putMassVolPower),
    // Far out-of-the-money protection: many contracts, little gamma near spot.
    putFarW: Math.min(OI.putFarWidthRatio * OI.putWidthRatio * w, OI.putFarWidthMax),
    tailW: 3 * w,
    // The off-centre bells already thin the in-the-money side; no cut at the anchor. Far in the
    // money (the tails) there are few contracts: old positions rolled or closed.
    itmBell: 1,
    itmTail: OI.itmFactor,
    putNear: OI.putNearMass,
  };
}

/**
 * Un-normalised OI weight of one contract before round-strike, expiry-type, time and noise
 * factors: a bell per right around its centre plus far tails, times the in-the-money factor
 * (index puts: plus a near-the-money bell).
 * `m = ln(K / anchor)`; `right` 0 put, 1 call.
 * @example
 * const s = oiExpiryShape(0.025, { lnAnchor: 0, indexLike: true, volRatio: 1 });
 * oiShapeWeight(0.01, 1, s) > oiShapeWeight(0.01, 0, s); // true: calls outweigh puts at the money
 * @see docs/methodology.md#open-interest-and-volume
 */
export function oiShapeWeight(m: number, right: number, s: OiExpiryShape): number {
  const mu = right === 0 ? s.putMu : s.callMu;
  const w = right === 1 ? s.callW : m < mu ? s.putFarW : s.putW;
  const z = (m - mu) / w;
  const itm = right === 0 ? m > 0 : m < 0;
  const bell = Math.exp(-0.5 * z * z) * (itm ? s.itmBell : 1);
  const tail = OI.tail * Math.exp(-Math.abs(m) / s.tailW) * (itm ? s.itmTail : 1);
  if (right === 1) return bell + tail;
  const zn = m / s.callW;
  return (bell + tail) * s.putMass + s.putNear * Math.exp(-0.5 * zn * zn);
}
