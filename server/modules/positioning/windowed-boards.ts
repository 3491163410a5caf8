import type { ChainOptions, ChainSnapshot, MarketData } from "../../../lib/market/market-data";
import type { ChainWindowSelect } from "../../../lib/market/simulated";
import { strikeWindow, type ExposureGridOptionsInput } from "../../../lib/positioning";

type WindowedChain = (symbol: string, atMs: number, select: ChainWindowSelect, options?: ChainOptions) => ChainSnapshot | null;

/**
 * The market's windowed board source, when it has one (the simulator's `chainWindowSync`) and the
 * options select a plain nearest-N window: only the window's contracts are generated, with the
 * values the full board gives them, so the grid is identical at a fraction of the cost.
 */
export function windowedSource(
  market: MarketData,
  options: ExposureGridOptionsInput,
  chainOptions: ChainOptions = {},
): ((symbol: string, atMs: number) => ChainSnapshot | null) | null {
  const fn = (market as MarketData & { chainWindowSync?: WindowedChain }).chainWindowSync;
  if (typeof fn !== "function" || options.expirations !== undefined) return null;
  const maxStrikes = options.maxStrikes;
  const maxExpirations = options.maxExpirations;
  if (typeof maxStrikes !== "number" && maxStrikes !== "all") return null;
  if (typeof maxExpirations !== "number" && maxExpirations !== "all") return null;
  const select: ChainWindowSelect = { maxExpirations, strikeWindow: (strikes, spot) => strikeWindow(strikes, spot, maxStrikes) };
  return (symbol, atMs) => fn.call(market, symbol, atMs, select, chainOptions);
}
