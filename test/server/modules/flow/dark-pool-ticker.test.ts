// GET /v1/dark-pool/top-prints/{ticker}, /v1/dark-pool/levels/{ticker} and /v1/dark-pool/daily over
// the simulator, each against sums and rankings recomputed here from the raw off-exchange prints.
import { beforeAll, describe, expect, it } from "vitest";
import type { OffExchangePrint } from "../../../../lib/market";
import { makeHarness, type Harness } from "../../_harness";
import { DP_NOW_MS, json, movableMarket, qs, referenceAdv, type MovableMarket } from "./_dark-pool-market";
import { decimalNotional } from "../../../_helpers/decimal-notional";

let h: Harness;
let m: MovableMarket;
const balance = () => h.accounts.balance(h.accountId);
const notional = decimalNotional;
const etDay = (iso: string, plusDays = 0) => Date.parse(`${iso}T05:00:00Z`) + plusDays * 86_400_000; // ~ET midnight (EST)

beforeAll(() => {
  m = movableMarket(DP_NOW_MS, ["AAPL", "MSFT", "XOM"]);
  h = makeHarness({ market: m.market, credits: 100_000 });
});

/** Raw prints of the tickers on ET dates from..to (inclusive; March 2024 before DST), up to now. */
async function raw(tickers: string[], from: string, to: string): Promise<OffExchangePrint[]> {
  return m.market.offExchangePrints(tickers, etDay(from), Math.min(etDay(to, 1), m.clock.ms));
}

describe("/v1/dark-pool/top-prints/{ticker}", () => {
  it("the top_n largest single prints of the window, notional descending; 3 credits", async () => {
    const before = balance();
    const res = await h.get(qs("/v1/dark-pool/top-prints/msft", { top_n: 7, lookback_days: 4, as_of_date: "2024-03-05" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-credits-remaining")).toBe(String(before - 3));
    const body = await json(res);
    const expected = (await raw(["MSFT"], "2024-03-01", "2024-03-05")).sort((a, b) => notional(b) - notional(a)).slice(0, 7);
    expect(body.data).toEqual(expected.map((p) => ({ timestamp: new Date(p.tsMs).toISOString(), price: p.price, notional: notional(p), size: p.size })));
    expect(body.meta.requestId).toBeTruthy();
  });

  it("404 SYMBOL_NOT_FOUND for an unknown ticker and 400 for top_n 21, both uncharged", async () => {
    const before = balance();
    const a = await h.get("/v1/dark-pool/top-prints/NOPE");
    expect(a.status).toBe(404);
    expect((await json(a)).error.code).toBe("SYMBOL_NOT_FOUND");
    const b = await h.get("/v1/dark-pool/top-prints/AAPL?top_n=21");
    expect(b.status).toBe(400);
    const err = (await json(b)).error;
    expect(err.code).toBe("INVALID_PARAMETER");
    expect(err.message).toContain("top_n");
    expect(balance()).toBe(before);
  });
});

describe("/v1/dark-pool/levels/{ticker}", () => {
  it("shares, prints and notional per bucket sum to the window's totals; ranking and bucket edges hold", async () => {
    const res = await h.get(qs("/v1/dark-pool/levels/AAPL", { date_start: "2024-03-04", date_end: "2024-03-05", bucket: 0.5, limit: 500 }));
    expect(res.status).toBe(200);
    const body = await json(res);
    const prints = await raw(["AAPL"], "2024-03-04", "2024-03-05");
    const byEdge = new Map<number, { prints: number; shares: number; notional: number; blocks: number }>();
    for (const p of prints) {
      const edge = Math.floor(p.price * 2) / 2; // $0.50 buckets
      const l = byEdge.get(edge) ?? { prints: 0, shares: 0, notional: 0, blocks: 0 };
      l.prints++;
      l.shares += p.size;
      l.notional += notional(p);
      if (notional(p) >= 1e6) l.blocks++;
      byEdge.set(edge, l);
    }
    expect(body.data).toHaveLength(byEdge.size);
    for (const level of body.data) {
      const ref = byEdge.get(level.price)!;
      expect(ref).toBeDefined();
      expect([level.prints, level.shares, level.blockPrints]).toEqual([ref.prints, ref.shares, ref.blocks]);
      expect(level.notional).toBeCloseTo(ref.notional, 1);
    }
    const total = prints.reduce((s, p) => s + notional(p), 0);
    expect(body.meta).toMatchObject({ ticker: "AAPL", dateStart: "2024-03-04", dateEnd: "2024-03-05", bucket: 0.5, totalShares: prints.reduce((s, p) => s + p.size, 0) });
    expect(body.meta.totalNotional).toBeCloseTo(total, 1);
    expect(body.data.reduce((s: number, l: any) => s + l.pctOfNotional, 0)).toBeCloseTo(100, 2);
    for (let i = 1; i < body.data.length; i++) expect(body.data[i - 1].notional).toBeGreaterThanOrEqual(body.data[i].notional);
  });

  it("the automatic bucket is the power of ten nearest 0.1% of the VWAP; sort=prints ranks by prints", async () => {
    const body = await json(await h.get(qs("/v1/dark-pool/levels/XOM", { lookback_days: 1, date_end: "2024-03-05", sort: "prints", limit: 3 })));
    const prints = await raw(["XOM"], "2024-03-04", "2024-03-05");
    const vwap = prints.reduce((s, p) => s + notional(p), 0) / prints.reduce((s, p) => s + p.size, 0);
    expect(body.meta.bucket).toBe(10 ** Math.round(Math.log10(vwap / 1000)));
    expect(body.data).toHaveLength(3);
    expect(body.data[0].prints).toBeGreaterThanOrEqual(body.data[1].prints);
    expect(body.meta.dateStart).toBe("2024-03-04");
  });

  it("bad input is a 400 naming the parameter, uncharged", async () => {
    const before = balance();
    for (const [q, name] of [
      ["bucket=0.001", "bucket"],
      ["sort=volume", "notional, shares, prints, block_notional"],
      ["lookback_days=181", "lookback_days"],
      ["date_start=2023-01-01&date_end=2024-03-05", "180"],
    ] as const) {
      const res = await h.get(`/v1/dark-pool/levels/AAPL?${q}`);
      expect(res.status).toBe(400);
      expect((await json(res)).error.message).toContain(name);
    }
    expect(balance()).toBe(before);
  });
});

describe("/v1/dark-pool/daily", () => {
  it("one row per ticker per day with sums recomputed from the prints; pctAvgVol from the 10-session ADV", async () => {
    const res = await h.get(qs("/v1/dark-pool/daily", { tickers: "AAPL,MSFT", date_start: "2024-03-04", date_end: "2024-03-05", sort: "date", order: "asc" }));
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.meta).toMatchObject({ dateStart: "2024-03-04", dateEnd: "2024-03-05", groupBy: "day", count: 4, hasMore: false });
    expect(body.data.map((r: any) => r.date)).toEqual(["2024-03-04", "2024-03-04", "2024-03-05", "2024-03-05"]);
    for (const row of body.data) {
      const prints = await raw([row.ticker], row.date, row.date);
      const shares = prints.reduce((s, p) => s + p.size, 0);
      const total = prints.reduce((s, p) => s + notional(p), 0);
      const blocks = prints.filter((p) => notional(p) >= 1e6);
      expect(row.prints).toBe(prints.length);
      expect(row.shares).toBe(shares);
      expect(row.notional).toBeCloseTo(total, 1);
      expect(row.vwap).toBeCloseTo(total / shares, 3);
      expect(row.blockPrints).toBe(blocks.length);
      expect(row.largestPrint).toBe(Math.max(...prints.map(notional)));
      expect(row.days).toBe(1);
      expect(row.pctAvgVol).toBeCloseTo((shares / (await referenceAdv(m.market, row.ticker, row.date))) * 100, 3);
    }
  });

  it("group_by=ticker sums the range; without tickers every name is ranked by notional", async () => {
    const body = await json(await h.get(qs("/v1/dark-pool/daily", { date_start: "2024-03-04", date_end: "2024-03-05", group_by: "ticker" })));
    expect(body.data.map((r: any) => r.ticker).sort()).toEqual(["AAPL", "MSFT", "XOM"]);
    for (const row of body.data) {
      const prints = await raw([row.ticker], "2024-03-04", "2024-03-05");
      expect(row.date).toBeNull();
      expect(row.days).toBe(2);
      expect(row.prints).toBe(prints.length);
    }
    for (let i = 1; i < body.data.length; i++) expect(body.data[i - 1].notional).toBeGreaterThanOrEqual(body.data[i].notional);
  });

  it("sort=date needs group_by=day; a 367-day range is too large; both 400 and uncharged", async () => {
    const before = balance();
    const a = await h.get("/v1/dark-pool/daily?group_by=ticker&sort=date");
    expect(a.status).toBe(400);
    expect((await json(a)).error.message).toContain("sort");
    const b = await h.get("/v1/dark-pool/daily?date_start=2023-03-05&date_end=2024-03-05");
    expect(b.status).toBe(400);
    expect((await json(b)).error.code).toBe("RANGE_TOO_LARGE");
    expect(balance()).toBe(before);
  });
});
