// /v1/vol/derived: the quantile rule against hand-computed values, the point-in-time band (each
// day's band from the sessions before it only), rv20 and VRP against the closes, 3 credits.
import { describe, expect, it } from "vitest";
import { derivedSeries, quantile } from "../../../../server/modules/vol/derived";
import type { SessionCloseReading } from "../../../../lib/vol";
import { json, volHarness } from "./_vol-harness";

describe("quantile (type 7)", () => {
  it("interpolates between order statistics", () => {
    expect(quantile([1, 2, 3, 4, 5], 0.5)).toBe(3);
    expect(quantile([4, 1, 3, 2], 0.5)).toBe(2.5);
    expect(quantile([10, 20], 0.2)).toBeCloseTo(12, 12);
    expect(quantile([], 0.5)).toBeNull();
  });
});

describe("derivedSeries", () => {
  const rows: SessionCloseReading[] = Array.from({ length: 40 }, (_, i) => ({
    date: `2024-01-${String(i + 1).padStart(2, "0")}`,
    closeMs: i,
    close: 100 * Math.exp(0.01 * (i % 2 === 0 ? 1 : -1) * i),
    svx1d: 10,
    svx9: 11,
    svx30: 10 + i,
    svx3m: 14,
    svx6m: 15,
    em_1d_next_pct: 1,
    term_slope: 1,
    curve: "contango",
    rr25_30: -3,
    tilt_21: 0,
    quality: "good",
  }));
  const d = derivedSeries(rows, ["2024-01-05"]);

  it("each day's band uses only the sessions before it", () => {
    expect(d.band.p50[19]).toBeNull(); // 19 sessions before it
    // Day 20: svx30 of days 0..19 = 10..29; median 19.5, p20 = 10 + 19 * 0.2 = 13.8.
    expect(d.band.p50[20]).toBeCloseTo(19.5, 12);
    expect(d.band.p20[20]).toBeCloseTo(13.8, 12);
    expect(d.band.p80[39]).toBeCloseTo(10 + 38 * 0.8, 12);
  });

  it("rv20 from the last 20 log returns, annualised; vrp = svx30 - rv20", () => {
    const i = 30;
    let s = 0;
    for (let k = i - 19; k <= i; k++) s += Math.log(rows[k].close / rows[k - 1].close) ** 2;
    const rv = 100 * Math.sqrt((s / 20) * 252);
    expect(d.ivrv.rv20[i]).toBeCloseTo(rv, 10);
    expect(d.ivrv.vrp[i]).toBeCloseTo(rows[i].svx30! - rv, 10);
    expect(d.ivrv.rv20[19]).toBeNull();
    expect(d.earnings_eve).toEqual(["2024-01-05"]);
  });
});

describe("/v1/vol/derived", () => {
  it("answers symbols[] with derived and missing[], 3 credits", async () => {
    const h = volHarness();
    const before = h.accounts.balance(h.accountId);
    const res = await h.get("/v1/vol/derived?symbols=SPY,IWM");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-remaining")).toBe(String(before - 3));
    const { data, meta } = await json(res);
    expect(data.missing).toEqual([{ symbol: "IWM", reason: "not_covered" }]);
    expect(data.symbols[0].symbol).toBe("SPY");
    expect(data.symbols[0].derived.dates).toHaveLength(6);
    expect(data.symbols[0].derived.dates.at(-1)).toBe("2024-03-05");
    expect(meta.module).toBe("derived");
  });
});
