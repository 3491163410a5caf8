// /v1/vol/market, /v1/vol/history (columnar rows, per-request cost, window rules), and the free
// routes /v1/vol/status, /v1/vol/symbols and /v1/vol (gated by the entitlement).
import { forwardSvxCurve } from "../../../../lib/vol/forward-curve";
import { skewIndex } from "../../../../lib/vol/skew-index";
import { beforeAll, describe, expect, it } from "vitest";
import { chainTerms, sessionCloseReading, svxAll } from "../../../../lib/vol";
import { historyCost, weekdaysBetween } from "../../../../server/modules/vol/history";
import { NOW_MS } from "../../_harness";
import { json, market, volHarness, type VolHarness } from "./_vol-harness";

let h: VolHarness;
const balance = () => h.accounts.balance(h.accountId);

beforeAll(() => {
  h = volHarness();
});

describe("/v1/vol/market", () => {
  it("SVX on SPXW and its ratios, 1 credit", async () => {
    const before = balance();
    const res = await h.get("/v1/vol/market");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-remaining")).toBe(String(before - 1));
    const { data, meta } = await json(res);
    const direct = svxAll(chainTerms((await market.chain("SPXW", NOW_MS))!));
    expect(data.symbol).toBe("SPXW");
    expect(data.svx30).toBe(direct.svx30!.value);
    expect(data.svx9).toBe(direct.svx9!.value);
    expect(data.ratio_9d_30d).toBeCloseTo(direct.svx9!.value / direct.svx30!.value, 12);
    expect(data.ratio_30d_3m).toBeCloseTo(direct.svx30!.value / direct.svx3m!.value, 12);
    expect(data.history.dates.length).toBe(data.history.svx30.length);
    // SKEW-style index of the same board (Cboe method), above 100 under index put skew.
    expect(data.skew_index).toBe(skewIndex(chainTerms((await market.chain("SPXW", NOW_MS))!))!.value);
    expect(data.skew_index).toBeGreaterThan(100);
    // The futures-style curve's summary fields from the same board (points not served).
    const curve = forwardSvxCurve(chainTerms((await market.chain("SPXW", NOW_MS))!), data.svx30);
    expect(curve.points.length).toBeGreaterThanOrEqual(2);
    expect(data.vx_curve_state).toBe(curve.vx_curve_state);
    expect(data.vx_roll_pct).toBe(curve.vx_roll_pct);
    expect(data.vx_m1_vs_vix_pct).toBe(curve.vx_m1_vs_vix_pct);
    expect(data).not.toHaveProperty("points");
    // The VVIX proxy needs 15 daily SVX30 changes; this app keeps 6 sessions of history.
    expect(data.vvix).toBeNull();
    expect(meta.module).toBe("market");
  });
});

describe("/v1/vol/history", () => {
  it("cost is 1 per 10 symbol-weekdays, rounded up, at least 1 (holidays not discounted)", () => {
    expect(weekdaysBetween("2024-03-04", "2024-03-08")).toBe(5);
    expect(weekdaysBetween("2024-03-02", "2024-03-03")).toBe(0);
    expect(historyCost(1, "2024-03-02", "2024-03-03")).toBe(1);
    // 2024-01-01 (a holiday) counts: Jan 1-31 has 23 weekdays.
    expect(historyCost(1, "2024-01-01", "2024-01-31")).toBe(3);
    expect(historyCost(10, "2023-03-06", "2024-03-04")).toBe(Math.ceil((10 * weekdaysBetween("2023-03-06", "2024-03-04")) / 10));
  });

  it("one row per completed session at its close, columns as asked, charged from the window", async () => {
    const before = balance();
    const res = await h.get("/v1/vol/history?symbols=SPY,IWM&from=2024-02-28&to=2024-03-06&fields=close,svx30");
    expect(res.status).toBe(200);
    // 6 weekdays x 2 symbols = 12 symbol-weekdays -> 2 credits.
    expect(res.headers.get("x-credits-remaining")).toBe(String(before - 2));
    const { data } = await json(res);
    expect(data.from).toBe("2024-02-28");
    expect(data.to).toBe("2024-03-06");
    expect(data.missing).toEqual([{ symbol: "IWM", reason: "not_covered" }]);
    const spy = data.symbols[0];
    // Today (10:00 ET) is not complete: five sessions.
    expect(spy.dates).toEqual(["2024-02-28", "2024-02-29", "2024-03-01", "2024-03-04", "2024-03-05"]);
    expect(Object.keys(spy.columns).sort()).toEqual(["close", "svx30"]);
    const ref = (await sessionCloseReading(market, "SPY", "2024-03-01"))!;
    expect(spy.columns.close[2]).toBe(ref.close);
    expect(spy.columns.svx30[2]).toBe(ref.svx30);
  });

  it.each([
    ["symbols=SPY&fields=close,bogus", 400, "invalid_parameter", "fields"],
    ["symbols=SPY&from=2024-03-05&to=2024-03-01", 400, "invalid_parameter", "from"],
    ["symbols=SPY&from=2021-01-01&to=2024-03-01", 400, "range_too_large", "800"],
    ["symbols=IWM", 404, "symbol_not_found", "IWM"],
  ])("%s is %i %s, not charged", async (q, status, code, word) => {
    const before = balance();
    const res = await h.get(`/v1/vol/history?${q}`);
    expect(res.status).toBe(status);
    const body = await json(res);
    expect(body.error.code).toBe(code);
    expect(body.error.message).toContain(word);
    expect(balance()).toBe(before);
  });
});

describe("free routes", () => {
  it("/v1/vol/symbols lists the covered symbols (SPX with its AM-settled monthlies too), free", async () => {
    const before = balance();
    const res = await h.get("/v1/vol/symbols");
    expect(res.status).toBe(200);
    const { data } = await json(res);
    expect(data.symbols.map((s: any) => s.symbol).sort()).toEqual(["AAPL", "NVDA", "QQQ", "SPX", "SPXW", "SPY", "TSLA"]);
    expect(data.symbols[0].asOf).toBe("2024-03-06T15:00:00Z");
    expect(balance()).toBe(before);
  });

  it("/v1/vol/status states freshness, market state and coverage, free", async () => {
    const { data, meta } = await json(await h.get("/v1/vol/status"));
    expect(data).toMatchObject({ asOf: "2024-03-06T15:00:00Z", sessionDate: "2024-03-06", marketState: "open", frozen: false, published: 7 });
    expect(data.coverage.covered).toBe(7);
    expect(meta.module).toBe("status");
  });

  it("/v1/vol lists the module's paths; plans without volatility get 403 not_entitled", async () => {
    const { data } = await json(await h.get("/v1/vol"));
    const paths = data.endpoints.map((e: any) => e.path);
    for (const p of ["/v1/vol/snapshot", "/v1/vol/sigma", "/v1/vol/events", "/v1/vol/screener", "/v1/vol/history", "/v1/vol/market"]) expect(paths).toContain(p);
    const other = volHarness({ plan: "index-etf" });
    for (const p of ["/v1/vol", "/v1/vol/symbols", "/v1/vol/status", "/v1/vol/market"]) {
      const res = await other.get(p);
      expect(res.status).toBe(403);
      expect((await json(res)).error.code).toBe("not_entitled");
    }
  });
});
