import type { ChainSnapshot } from "../market/market-data";
import { optionRoot, type Settlement } from "../symbols";

/**
 * How a board settles: `AM` when every expiration's root is AM-settled (SPX, NDX, RUT monthlies:
 * their contracts settle at 09:30 ET), else `PM`. An unparseable root counts as PM (the equity
 * default of `optionRoot`).
 *
 * @example boardSettlement(await market.chain("SPX", t)) // "AM"
 * @see docs/methodology.md#svx-on-am-settled-roots
 */
export function boardSettlement(chain: Pick<ChainSnapshot, "expiryRoot">): Settlement {
  if (chain.expiryRoot.length === 0) return "PM";
  for (const root of chain.expiryRoot) {
    try {
      if (optionRoot(root).settlement !== "AM") return "PM";
    } catch {
      return "PM";
    }
  }
  return "AM";
}
