// GET /v1/dark-pool/trades after the warm-path work (rows serialised once per print): the body is
// byte for byte JSON.stringify of rows built here from the raw prints in the response's field
// order, and a repeated page (served from memoized rows) answers the same bytes.
import { beforeAll, describe, expect, it } from "vitest";
import { makeHarness, type Harness } from "../../_harness";
import { DP_NOW_MS, movableMarket, qs, referenceAdv, referencePrints, type MovableMarket } from "./_dark-pool-market";
import { decimalNotional } from "../../../_helpers/decimal-notional";

const TODAY = "2024-03-06";
let h: Harness;
let m: MovableMarket;

beforeAll(() => {
  m = movableMarket(DP_NOW_MS, ["AAPL", "SPY"]);
  h = makeHarness({ market: m.market, credits: 100_000 });
});

const stable = (text: string) => text.replace(/"timestamp":"[^"]*","requestId":"[^"]*"/, "");

describe("/v1/dark-pool/trades bytes", () => {
  it("rows are exactly JSON.stringify of the reference rows; a repeated page is the same bytes", async () => {
    const path = qs("/v1/dark-pool/trades", { tickers: "AAPL", min_notional: 50_000, limit: 300 });
    const text = await (await h.get(path)).text();
    const ref = (await referencePrints(m.market, ["AAPL"], TODAY, m.clock.ms)).filter((p) => decimalNotional(p) >= 50_000).slice(0, 300);
    expect(ref.length).toBeGreaterThan(10);
    const adv = await referenceAdv(m.market, "AAPL", TODAY);
    const info = (await m.market.symbolInfo("AAPL"))!;
    const parsed = JSON.parse(text);
    const rows = ref.map((p, i) => {
      // the server's own float for the ratio (checked to 3 decimals against ours)
      expect(parsed.data[i].pctAvgVol).toBeCloseTo((p.size / adv) * 100, 3);
      return {
        timestamp: new Date(p.tsMs).toISOString(),
        ticker: "AAPL",
        price: p.price,
        size: p.size,
        notional: decimalNotional(p),
        venue: p.venue,
        sector: info.sector,
        industry: info.industry,
        pctAvgVol: parsed.data[i].pctAvgVol,
      };
    });
    expect(text.startsWith(`{"data":${JSON.stringify(rows)},"meta":`)).toBe(true);
    expect(text).toBe(JSON.stringify(parsed));
    const again = await (await h.get(path)).text();
    expect(stable(again)).toBe(stable(text));
  });
});
