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
  for (let i = 0; i < board.right.length; i++) {
    const e = board.expIndex[i];
    const symbol = formatOptionSymbol({
      root: board.expiryRoot[e],
      expiry: board.expirations[e],
      strike: board.strikes[board.strikeIndex[i]],
      right: board.right[i] === 1 ? "C" : "P",
    });
    out.set(symbol, board.oi[i]);
  }
  return out;
}
