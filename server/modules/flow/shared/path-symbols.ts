// The symbols a route's path names, for the plan's symbol check (`symbolsOf`, run before the
// handler): one helper per path shape instead of a lambda per route.

/** The root of a contract symbol as written (`SPXW__240315C05100000`, the padded 21-character form or `SPXW240315C05100000`). */
export function rootOfSymbol(raw: string): string {
  const s = raw.trim().toUpperCase();
  const i = s.indexOf("__");
  return (i > 0 ? s.slice(0, i) : s.length === 21 ? s.slice(0, 6) : s.replace(/\d{6}[CP]\d{8}$/, "")).trim();
}

/** `symbolsOf` of a `{ticker}` route: the ticker, trimmed and upper-cased as the handlers read it. */
export function tickerOfPath(_query: unknown, params: { ticker: string }): string[] {
  return [params.ticker.trim().toUpperCase()];
}

/** `symbolsOf` of a `{symbol}` contract route: the contract's root. */
export function contractRootOfPath(_query: unknown, params: { symbol: string }): string[] {
  return [rootOfSymbol(params.symbol)];
}
