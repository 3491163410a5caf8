// TradingView's stock UDF datafeed with a key (docs/tradingview.md): the library's requester calls
// the page's global `fetch(`${datafeedURL}/${path}?${query}`, { credentials: "same-origin" })` and
// sends no header. `installUdfKey` wraps that fetch so the datafeed's requests, and only those,
// carry `Authorization: Bearer <key>`. The requester below does what the library's does (same URL
// shape, same options, the body parsed as JSON), against a real listening server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchWithKey, installUdfKey } from "../../../lib/price";
import { listen, type Listening } from "../../../server/http/listen";
import { chartPages } from "../../../server/web";
import type { AppServices } from "../../../server/services";
import { makeHarness } from "../_harness";
import { simulatedMarketAt } from "../../_helpers/simulated-market";

/** The UDF datafeed's request path: `${datafeedURL}/${urlPath}?a=b` through `scope.fetch`. */
function udfRequest(scope: { fetch: typeof fetch }, datafeedUrl: string, urlPath: string, params: Record<string, string | number> = {}) {
  const query = Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join("&");
  return scope
    .fetch(`${datafeedUrl}/${urlPath}${query ? `?${query}` : ""}`, { credentials: "same-origin" })
    .then((r) => r.text())
    .then((t) => JSON.parse(t));
}

describe("TradingView's UDF datafeed with a key", () => {
  const NOW_MS = Date.parse("2024-03-06T15:00:00Z");
  const h = makeHarness({ credits: 1000, market: simulatedMarketAt(42, NOW_MS) });
  let server: Listening;
  let datafeedUrl: string;
  beforeAll(async () => {
    server = await listen(h.app, { port: 0 });
    datafeedUrl = `${server.url}/atlas/v1`;
  });
  afterAll(() => server.close(true));

  it("without the key every datafeed call is refused; with installUdfKey the stock calls answer", async () => {
    const scope = { fetch: globalThis.fetch.bind(globalThis) };
    const refused = await udfRequest(scope, datafeedUrl, "config");
    expect(refused.s).toBe("error");
    expect(refused.error.code).toBe("unauthorized");

    const uninstall = installUdfKey(datafeedUrl, h.key, scope);
    const config = await udfRequest(scope, datafeedUrl, "config");
    expect(config.supported_resolutions).toContain("D");
    const info = await udfRequest(scope, datafeedUrl, "symbols", { symbol: "SPY" });
    expect(info.ticker).toBe("SPY");
    const to = Math.floor(NOW_MS / 1000);
    const bars = await udfRequest(scope, datafeedUrl, "history", { symbol: "SPY", resolution: "D", from: to - 30 * 86_400, to });
    expect(bars.s, JSON.stringify(bars)).toBe("ok");
    expect(bars.t.length).toBeGreaterThan(10);
    // The credits were charged to the key's account: the calls were its own.
    expect(h.accounts.balance(h.accountId)).toBeLessThan(1000);

    uninstall();
    expect((await udfRequest(scope, datafeedUrl, "config")).s).toBe("error");
  });

  it("adds the header only under the datafeed URL, keeps one the caller set, and reads a key function per call", async () => {
    const seen: [string, string | null][] = [];
    const stub = async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push([String(input), new Headers(init?.headers).get("authorization")]);
      return new Response("{}");
    };
    let key = "k1";
    const f = fetchWithKey("https://atlas.example.com/v1/", () => key, stub);
    await f("https://atlas.example.com/v1/config");
    await f("https://atlas.example.com/v1/history?symbol=SPY");
    await f("https://atlas.example.com/v1x/config"); // not under the datafeed URL
    await f("https://elsewhere.example.com/v1/config");
    await f("https://atlas.example.com/v1/time", { headers: { Authorization: "Bearer mine" } });
    key = "k2";
    await f(new URL("https://atlas.example.com/v1/time"));
    expect(seen).toEqual([
      ["https://atlas.example.com/v1/config", "Bearer k1"],
      ["https://atlas.example.com/v1/history?symbol=SPY", "Bearer k1"],
      ["https://atlas.example.com/v1x/config", null],
      ["https://elsewhere.example.com/v1/config", null],
      ["https://atlas.example.com/v1/time", "Bearer mine"],
      ["https://atlas.example.com/v1/time", "Bearer k2"],
    ]);
  });

  it("is served for script-tag pages as /chart/udf-key.js, defining OptionscopeUdf", async () => {
    const page = chartPages.find((p) => p.path === "/chart/udf-key.js")!;
    const res = await page.handle(new Request("http://atlas.test/atlas/chart/udf-key.js"), {} as AppServices);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const scope: Record<string, unknown> = { fetch: async () => new Response("{}") };
    new Function("globalThis", "window", "self", await res.text())(scope, scope, scope);
    const udf = scope.OptionscopeUdf as { installUdfKey: typeof installUdfKey };
    expect(typeof udf.installUdfKey).toBe("function");
  }, 60_000);
});
