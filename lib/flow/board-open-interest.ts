/**
 * Open interest by contract symbol from a board: what scoring and the screener read.
 * @see docs/methodology.md#flow-score
 */
import type { ChainSnapshot } from "../market/market-data";
import { formatOptionSymbol } from "../symbols";

/**
 * Open interest (contracts, as of the session's start) of every contract on a board, keyed by
 * the URL-safe OPRA symbol that prints carry.
 * @example
 * openInterestBySymbol(board).get("SPXW__240315C05200000"); // 1234
 * @see docs/methodology.md#flow-score
 */
export function openInterestBySymbol(board: ChainSnapshot): Map<string, number> {
  const out = new Map<string, number>();
  // A symbol is its expiration's part (root, date), the right, then its strike's 8 digits: each
  // part formatted once per expiration and per strike, not per row (a board has up to 20,000 rows).
  const strikeDigits = new Array<string | undefined>(board.strikes.length);
  const expiryParts = board.expirations.map((expiry, e) => {
    const sample = formatOptionSymbol({ root: board.expiryRoot[e], expiry, strike: 1, right: "C" });
    return sample.slice(0, sample.length - STRIKE_AND_RIGHT);
  });
  for (let i = 0; i < board.right.length; i++) {
    const e = board.expIndex[i];
    const k = board.strikeIndex[i];
    // The strike's digits do not depend on the root: format with the row's own root once per strike.
    let digits = strikeDigits[k];
    if (digits === undefined) {
      digits = formatOptionSymbol({ root: board.expiryRoot[e], expiry: board.expirations[e], strike: board.strikes[k], right: "C" }).slice(-8);
      strikeDigits[k] = digits;
    }
    out.set(`${expiryParts[e]}${board.right[i] === 1 ? "C" : "P"}${digits}`, board.oi[i]);
  }
  return out;
}

/** Characters after an OPRA symbol's date: the right (1) and the strike in thousandths (8). */
const STRIKE_AND_RIGHT = 9;
