// Which symbols the volatility module covers: every option root and ticker of the market's
// universe whose chain has PM-settled dailies or weeklies. AM-settled monthly-only roots (SPX,
// NDX, RUT) are not covered: the S&P complex is keyed on SPXW, the Nasdaq-100 on NDXP
// (spec "What the service does", item 5).
import type { MarketData, SymbolInfo } from "../../../lib/market/market-data";
import { optionRoot } from "../../../lib/symbols";

/** One covered symbol: the name requested and the universe entry behind it. */
export interface CoveredSymbol {
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

/** True when `root` settles PM (an AM-settled root is monthly-only and not a vol symbol). */
function pmSettled(root: string): boolean {
  try {
    return optionRoot(root).settlement === "PM";
  } catch {
    return true;
  }
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
          if (root && pmSettled(root) && (!allowed || allowed.has(name)) && !covered.has(name)) covered.set(name, { symbol: name, info });
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
