// Giving a UDF datafeed client our API key. TradingView's stock `UDFCompatibleDatafeed` sends every
// request through the page's global `fetch(`${datafeedURL}/${path}?...`)` and exposes no option
// for headers, while the price host reads the key only from `Authorization` (spec: auth). A fetch
// that adds the header to requests under the datafeed URL, and nothing else, is the one seam that
// needs no change to the library. docs/tradingview.md

/** The fetch signature wrapped (the global one's). */
type FetchFn = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/** The URL a fetch input names, resolved against `base` when relative. */
function urlOf(input: RequestInfo | URL, base: string | undefined): string {
  const raw = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  try {
    return new URL(raw, base).href;
  } catch {
    return raw;
  }
}

/**
 * A fetch that sends `Authorization: Bearer <key>` on every request whose URL lies under
 * `datafeedUrl` (the URL the datafeed was built with) and leaves every other request as it is.
 * A header the caller set itself is kept. `key` may be a function, read on each request (a key
 * the user changes).
 * @example const f = fetchWithKey("https://atlas.example.com", "os_live_..."); await f("https://atlas.example.com/config")
 */
export function fetchWithKey(datafeedUrl: string, key: string | (() => string), fetchImpl: FetchFn = globalThis.fetch.bind(globalThis)): FetchFn {
  const here = typeof location === "undefined" ? undefined : location.href;
  const prefix = urlOf(datafeedUrl, here).replace(/\/+$/, "");
  return (input, init) => {
    const url = urlOf(input, here);
    const k = typeof key === "function" ? key() : key;
    if (!k || !(url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`))) return fetchImpl(input, init);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    if (!headers.has("Authorization")) headers.set("Authorization", `Bearer ${k}`);
    return fetchImpl(input, { ...init, headers });
  };
}

/**
 * Installs `fetchWithKey` as `target.fetch` (the page's global by default) before the datafeed is
 * made; returns the function that puts the previous fetch back.
 * @example
 * const uninstall = installUdfKey("https://atlas.example.com", "os_live_...");
 * new Datafeeds.UDFCompatibleDatafeed("https://atlas.example.com");
 */
export function installUdfKey(datafeedUrl: string, key: string | (() => string), target: { fetch: FetchFn } = globalThis): () => void {
  const previous = target.fetch;
  target.fetch = fetchWithKey(datafeedUrl, key, previous.bind(target));
  return () => {
    target.fetch = previous;
  };
}
