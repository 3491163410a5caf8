// The client's page iterators against the real flow routes (in process, through the app's own
// request handler): a cursor walk of the dark-pool tape and of the flow feed returns every row
// exactly once, in the order a raw walk gives, with prints arriving between pages.
import { describe, expect, it } from "vitest";
import { createClient } from "../../lib/client";
import { makeHarness } from "../server/_harness";
import { DP_NOW_MS, movableMarket, referencePrints } from "../server/modules/flow/_dark-pool-market";

const TODAY = "2024-03-06";

describe("client page iterators on real routes", () => {
  it("getDarkPoolTradesPages walks every print once, newest first, while prints arrive (rule 2)", async () => {
    const local = movableMarket(DP_NOW_MS);
    const h = makeHarness({ market: local.market, credits: 100_000 });
    const expected = await referencePrints(local.market, ["MSFT", "XOM"], TODAY, local.clock.ms);
    const api = createClient({ baseUrl: "http://localhost", apiKey: h.key, fetch: (url, init) => h.app.request(String(url), init) });
    const seen: string[] = [];
    let pages = 0;
    for await (const page of api.getDarkPoolTradesPages({ tickers: "MSFT,XOM", min_notional: 0, limit: 200 })) {
      for (const r of page.data as { timestamp: string; ticker: string; price: number; size: number }[]) seen.push(`${r.timestamp}|${r.ticker}|${r.price}|${r.size}`);
      local.clock.ms += 90_000;
      pages++;
    }
    expect(pages).toBeGreaterThan(3);
    expect(seen).toEqual(expected.map((p) => `${new Date(p.tsMs).toISOString()}|${p.ticker}|${p.price}|${p.size}`));
  });
});
