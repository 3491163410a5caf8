// Which symbols the volatility module covers: every option root of the market's universe, each
// read on its own board (spec "What the service does", item 5: index options are served per
// root). AM-settled monthly roots (SPX, NDX, RUT) are covered too: their terms run to the 09:30 ET
// settlement (docs/methodology.md#svx-on-am-settled-roots); the S&P complex stays keyed on SPXW.
import type { MarketData, SymbolInfo } from "../../../lib/market/market-data";

/** One covered symbol: the name requested and the universe entry behind it. */
interface CoveredSymbol {
  symbol: string;
  info: SymbolInfo;
}

/** The covered symbols, read once per app. */
export interface Coverage {
  /** Every covered symbol by name, in universe order. */
  all(): Promise<Map<string, CoveredSymbol>>;
  /** Every name the universe knows (covered or not). */
  known(): Promise<Set<string>>;
}

/** Coverage over a market's universe, optionally limited to the names in `only`. */
export function createCoverage(market: MarketData, only?: readonly string[]): Coverage {
  const allowed = only ? new Set(only) : null;
  let read: Promise<{ covered: Map<string, CoveredSymbol>; known: Set<string> }> | null = null;
  const load = () => {
    read ??= market.universe().then((infos) => {
      const covered = new Map<string, CoveredSymbol>();
      const known = new Set<string>();
      for (const info of infos) {
        const names = [...info.optionRoots];
        if (!names.includes(info.ticker)) names.push(info.ticker);
        for (const name of names) {
          known.add(name);
          // A ticker that is not itself a root (SPX with roots SPXW, SPX) is read through its roots.
          const root = info.optionRoots.includes(name) ? name : null;
          if (root && (!allowed || allowed.has(name)) && !covered.has(name)) covered.set(name, { symbol: name, info });
        }
      }
      return { covered, known };
    });
    read.catch(() => {
      read = null;
    });
    return read;
  };
  return {
    all: async () => (await load()).covered,
    known: async () => (await load()).known,
  };
}
