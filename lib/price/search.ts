/**
 * Ranked symbol search for the datafeed's symbol picker (`/v1/search`).
 * @see docs/methodology.md#symbol-info-and-search
 */
import type { SymbolInfo } from "../market/schemas";
import { displayDescription, exchangeOf } from "./symbol-info";

/** One search hit (the reference's `SearchResult`). */
export interface SearchResult {
  symbol: string;
  ticker: string;
  description: string;
  exchange: string;
  type: "index" | "etf" | "stock";
  /** `index` on indices; absent otherwise. */
  kind?: "index";
}

/** Options of {@link searchSymbols}. */
export interface SearchOptions {
  /** Most results returned; default 25. */
  limit?: number;
  /** Only this symbol type (`stock`, `etf`, `index`); empty or absent for all. */
  type?: string;
  /** Only this exchange label (`NASDAQ`, `NYSE`, `ARCA`, `CBOE`); empty or absent for all. */
  exchange?: string;
}

/**
 * How well `query` (upper-cased, trimmed) matches a symbol, lower is better; null for no match.
 * 0 exact ticker, 1 exact name, 2 ticker prefix, 3 name prefix or a name word starting with the
 * query, 4 ticker substring, 5 name substring.
 * @example matchRank("SP", { ticker: "SPY", name: "SPDR S&P 500 ETF Trust" }) // 2
 * @see docs/methodology.md#search-ranking
 */
export function matchRank(query: string, info: Pick<SymbolInfo, "ticker" | "name">): number | null {
  const q = query.trim().toUpperCase();
  if (q === "") return null;
  const ticker = info.ticker.toUpperCase();
  const name = info.name.toUpperCase();
  if (ticker === q) return 0;
  if (name === q) return 1;
  if (ticker.startsWith(q)) return 2;
  if (name.startsWith(q) || name.includes(` ${q}`)) return 3;
  if (ticker.includes(q)) return 4;
  if (name.includes(q)) return 5;
  return null;
}

/**
 * Symbols matching `query`, ranked exact > prefix > substring (ticker before name at each level),
 * ties broken by shorter ticker, then the universe's order (index/ETF tier first), then ticker.
 *
 * @param universe the symbols to search, in the market's order
 * @example searchSymbols(universe, "spy")[0].symbol // "SPY"
 * @see docs/methodology.md#search-ranking
 */
export function searchSymbols(universe: readonly SymbolInfo[], query: string, options: SearchOptions = {}): SearchResult[] {
  const limit = options.limit ?? 25;
  const type = options.type?.trim().toLowerCase() ?? "";
  const exchange = options.exchange?.trim().toUpperCase() ?? "";
  const hits: { rank: number; order: number; info: SymbolInfo; exchange: string }[] = [];
  universe.forEach((info, order) => {
    if (type !== "" && info.type !== type) return;
    const ex = exchangeOf(info);
    if (exchange !== "" && ex !== exchange) return;
    const rank = matchRank(query, info);
    if (rank !== null) hits.push({ rank, order, info, exchange: ex });
  });
  hits.sort(
    (a, b) =>
      a.rank - b.rank || a.info.ticker.length - b.info.ticker.length || a.order - b.order || (a.info.ticker < b.info.ticker ? -1 : a.info.ticker > b.info.ticker ? 1 : 0),
  );
  return hits.slice(0, Math.max(0, limit)).map(({ info, exchange: ex }) => {
    const r: SearchResult = {
      symbol: info.ticker,
      ticker: info.ticker,
      description: displayDescription(info),
      exchange: ex,
      type: info.type,
    };
    if (info.type === "index") r.kind = "index";
    return r;
  });
}
