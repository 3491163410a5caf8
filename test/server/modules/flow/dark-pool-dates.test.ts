// Dates outside the calendar or the data never crash a dark-pool route: an empty answer or a 400.
import { beforeAll, describe, expect, it } from "vitest";
import { makeHarness, type Harness } from "../../_harness";
import { DP_NOW_MS, json, movableMarket } from "./_dark-pool-market";

let h: Harness;
beforeAll(() => {
  h = makeHarness({ market: movableMarket(DP_NOW_MS, ["AAPL"]).market, credits: 1000 });
});

describe("dark-pool dates at the edges", () => {
  it.each([
    "/v1/dark-pool/trades?tickers=AAPL&date=1990-01-02",
    "/v1/dark-pool/trades?tickers=AAPL&date=2999-01-02",
    "/v1/dark-pool/trades?tickers=AAPL&date=2024-03-09",
    "/v1/dark-pool/top-prints/AAPL?as_of_date=1990-01-02&lookback_days=3",
    "/v1/dark-pool/levels/AAPL?date_end=2999-01-02&lookback_days=2",
    "/v1/dark-pool/daily?tickers=AAPL&date=1990-01-02",
    "/v1/dark-pool/trades?tickers=AAPL&date=1990-01-02&time_start=09:30&time_end=10:00",
    "/v1/dark-pool/trades?tickers=AAPL&after=0&before=1000",
    "/v1/dark-pool/trades?tickers=AAPL&after=99999999999999999999",
  ])("%s answers 200 with no rows or a 400, never a 5xx", async (path) => {
    const res = await h.get(path);
    const body = await json(res);
    if (res.status === 200) expect(body.data).toEqual([]);
    else {
      expect(res.status).toBe(400);
      expect(body.error.code).toBe("INVALID_PARAMETER");
    }
  });
});
