import type { ChainOptions, ChainSnapshot, ChainWindow, MarketData } from "../../../lib/market/market-data";
import type { ChainWindowSelect } from "../../../lib/market/simulated";
import { strikeWindow, type ExposureGridOptionsInput } from "../../../lib/positioning";

type WindowedChain = (symbol: string, atMs: number, select: ChainWindowSelect, options?: ChainOptions) => ChainSnapshot | null;

/** The window of a plain nearest-N grid (no explicit expirations), or null. */
function gridWindow(options: ExposureGridOptionsInput): ChainWindow | null {
  if (options.expirations !== undefined) return null;
  const maxStrikes = options.maxStrikes;
  const maxExpirations = options.maxExpirations;
  if (typeof maxStrikes !== "number" && maxStrikes !== "all") return null;
  if (typeof maxExpirations !== "number" && maxExpirations !== "all") return null;
  return { maxExpirations, strikeWindow: (strikes, spot) => strikeWindow(strikes, spot, maxStrikes) };
}

/**
 * The market's windowed board source, when it has one (the simulator's `chainWindowSync`) and the
 * options select a plain nearest-N window: only the window's contracts are generated, with the
 * values the full board gives them, so the grid is identical at a fraction of the cost.
 */
function windowedSource(
  market: MarketData,
  options: ExposureGridOptionsInput,
  chainOptions: ChainOptions = {},
): ((symbol: string, atMs: number) => ChainSnapshot | null) | null {
  const fn = (market as MarketData & { chainWindowSync?: WindowedChain }).chainWindowSync;
  const select = typeof fn === "function" ? gridWindow(options) : null;
  if (!fn || !select) return null;
  return (symbol, atMs) => fn.call(market, symbol, atMs, select, chainOptions);
}

/**
 * The windowed board source the statistics replay, `/v1/historical/range` and the chart marks'
 * king samples read (docs/architecture.md#windowed-boards):
 * the simulator's `chainWindowSync`, else the market's optional `chainWindow` (the store of record
 * decodes only the window's rows), for a plain nearest-N window; null otherwise (read `chain`).
 */
export function windowedBoards(
  market: MarketData,
  options: ExposureGridOptionsInput,
  chainOptions: ChainOptions = {},
): ((symbol: string, atMs: number) => ChainSnapshot | null | Promise<ChainSnapshot | null>) | null {
  const sync = windowedSource(market, options, chainOptions);
  if (sync) return sync;
  const read = market.chainWindow?.bind(market);
  const window = read ? gridWindow(options) : null;
  if (!read || !window) return null;
  return (symbol, atMs) => read(symbol, atMs, window, chainOptions);
}
