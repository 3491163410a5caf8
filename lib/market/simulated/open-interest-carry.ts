/**
 * Open interest that remembers yesterday's tape: a session's open interest is its shape plus the
 * net opening volume of the previous session's prints on the same contract. Pure functions; the
 * simulator supplies the previous session's per-contract volume from its tape memo.
 * @see docs/methodology.md#open-interest-carry-from-the-tape
 */
import { OI_CARRY } from "./params";
import type { SessionBoard, SessionGrid } from "./session-board";

const DAY_MS = 86_400_000;

/** Shares of one contract's session volume: opened on both sides, closed on both sides. */
export interface CarryShares {
  opening: number;
  closing: number;
}

/**
 * The shares of a contract's volume traded `dteDays` calendar days before its expiry, its strike
 * `distanceSd` standard deviations (`|ln(K / close)| / (sigma sqrt(max(days, 1) / 365))`) from
 * the session's close: far and long-dated contracts are opened, near-expiry ones closed.
 * @example
 * carryShares(60, 2); // { opening: 0.5, closing: 0.15 + 0.3 * Math.exp(-60 / 7) }
 * @see docs/methodology.md#open-interest-carry-from-the-tape
 */
export function carryShares(dteDays: number, distanceSd: number): CarryShares {
  const C = OI_CARRY;
  const opening = C.openingBase + C.openingFar * Math.min(1, distanceSd / C.farSd) + C.openingNew * Math.min(1, Math.max(0, dteDays) / C.newDays);
  const closing = C.closingBase + C.closingNearExpiry * Math.exp(-Math.max(0, dteDays) / C.nearExpiryDays);
  return { opening, closing };
}

/**
 * Change of open interest from `volume` contracts traded with `shares`: whole contracts, rounded
 * half away from zero (so the change is symmetric in the sign of the net share).
 * @example
 * oiChange(101, { opening: 0.4, closing: 0.2 }); // 20 (20.2)
 */
export function oiChange(volume: number, shares: CarryShares): number {
  const x = volume * (shares.opening - shares.closing);
  return (x < 0 ? -Math.round(-x) : Math.round(x)) + 0; // + 0: no negative zero
}

/**
 * The session's open interest of every row of `board`: its shape (`board.oi`) plus the change
 * from the previous session's volume on the same contract (`prevVolume`, per row of `prev`),
 * floored at zero. Contracts new to the board (a new expiration or strike) keep their shape;
 * expired ones are not on it. `vol` is the path owner's long-run volatility (decimal).
 * @example
 * const oi = carryOpenInterest(board, prevBoard, tapeVolumeByRow, 0.16);
 * @see docs/methodology.md#open-interest-carry-from-the-tape
 */
export function carryOpenInterest(board: SessionBoard, prev: SessionGrid, prevVolume: Float64Array, vol: number): Float64Array {
  const shape = board.oi; // computed on first read (session-board.ts): read once
  const out = Float64Array.from(shape);
  const prevExp = new Map(prev.expirations.map((x, e) => [x.expiry, e]));
  const tradedMs = Date.parse(`${prev.sessionDate}T00:00:00Z`);
  // The previous close (board.refSpot, in this board's units) is where the day's volume ended.
  const lnClose = Math.log(board.refSpot);
  for (let e = 0; e < board.expirations.length; e++) {
    const expiry = board.expirations[e].expiry;
    const pe = prevExp.get(expiry);
    if (pe === undefined) continue;
    const dteDays = (Date.parse(`${expiry}T00:00:00Z`) - tradedMs) / DAY_MS;
    const sdScale = vol * Math.sqrt(Math.max(dteDays, 1) / 365);
    // Both boards list an expiration's rows by (strike, put then call): one merge walk.
    let j = prev.expStart[pe];
    const jEnd = prev.expStart[pe + 1];
    for (let i = board.expStart[e]; i < board.expStart[e + 1] && j < jEnd; i++) {
      const k = board.strike[i];
      const r = board.right[i];
      while (j < jEnd && (prev.strike[j] < k || (prev.strike[j] === k && prev.right[j] < r))) j++;
      if (j >= jEnd || prev.strike[j] !== k || prev.right[j] !== r) continue;
      const v = prevVolume[j];
      if (v === 0) continue;
      const change = oiChange(v, carryShares(dteDays, Math.abs(board.lnStrike[i] - lnClose) / sdScale));
      out[i] = Math.max(0, shape[i] + change);
    }
  }
  return out;
}
