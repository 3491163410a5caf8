// Top underlyings (daily, weekly), top contracts weekly, unusual volume and unusual OI over a
// four-ticker universe of light option names; every expectation recomputed here from the raw
// option prints and opening boards of the simulator (seed 7, clock 2024-03-06 10:00 ET).
import { beforeAll, describe, expect, it } from "vitest";
import { addTradingDays, sessionBounds, tradingDaysBetween } from "../../../../lib/time";
import { contractSums, openingOi, printsOf, tickerTotals, type TickerTotals } from "./_market-expect";
import { body, expectRefusedUncharged, flowHarness, NOW_MS, PRIOR, TODAY, type FlowHarness } from "./_flow-harness";

const UNIVERSE = ["NOW", "COP", "LMT", "XLRE"];
const WEEK = tradingDaysBetween(addTradingDays(TODAY, -4), TODAY);
let h: FlowHarness;
const balance = () => h.accounts.balance(h.accountId);
const byTicker = (a: { ticker: string }, b: { ticker: string }) => (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0);

beforeAll(() => {
  h = flowHarness({ credits: 10_000, universe: UNIVERSE });
});

function expectUnderlyingRows(got: any[], want: TickerTotals[]) {
  expect(got.map((r) => r.ticker)).toEqual(want.map((r) => r.ticker));
  got.forEach((r, i) => {
    const w = want[i];
    expect(r.totalVolume).toBe(w.totalVolume);
    expect(r.callVolume).toBe(w.callVolume);
    expect(r.putVolume).toBe(w.putVolume);
    expect(r.totalPremium).toBeCloseTo(w.totalPremium, 2);
    expect(r.netPremium).toBeCloseTo(w.callPremium - w.putPremium, 2);
    expect(r.callPutRatio).toBeCloseTo(w.putPremium > 0 ? w.callPremium / w.putPremium : 0, 9);
  });
}

describe("/v1/underlying/top/daily and /weekly", () => {
  let daily: TickerTotals[];
  let weekly: TickerTotals[];
  beforeAll(async () => {
    daily = [];
    weekly = [];
    for (const t of UNIVERSE) {
      const today = await printsOf(h.sim, t, TODAY, NOW_MS);
      if (today.length > 0) daily.push(tickerTotals(t, today));
      const week = (await Promise.all(WEEK.map((d) => printsOf(h.sim, t, d, NOW_MS)))).flat();
      if (week.length > 0) weekly.push(tickerTotals(t, week));
    }
  }, 60_000);

  it("daily: every traded ticker by premium (default), with splits from the raw prints; 1 credit", async () => {
    const before = balance();
    const res = await h.get("/v1/underlying/top/daily");
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 1);
    expect(daily.length).toBe(4);
    expectUnderlyingRows(
      (await body(res)).data,
      [...daily].sort((a, b) => b.totalPremium - a.totalPremium || byTicker(a, b)),
    );
  });

  it("daily: order_by net_premium asc, call_put_ratio desc, min_volume floor and limit", async () => {
    const net = (r: TickerTotals) => r.callPremium - r.putPremium;
    expectUnderlyingRows(
      (await body(await h.get("/v1/underlying/top/daily?order_by=net_premium&order=asc"))).data,
      [...daily].sort((a, b) => net(a) - net(b) || byTicker(a, b)),
    );
    const cpr = (r: TickerTotals) => (r.putPremium > 0 ? r.callPremium / r.putPremium : 0);
    expectUnderlyingRows(
      (await body(await h.get("/v1/underlying/top/daily?order_by=call_put_ratio&limit=2"))).data,
      [...daily].sort((a, b) => cpr(b) - cpr(a) || byTicker(a, b)).slice(0, 2),
    );
    const floor = [...daily].sort((a, b) => a.totalVolume - b.totalVolume)[1].totalVolume;
    expectUnderlyingRows(
      (await body(await h.get(`/v1/underlying/top/daily?order_by=volume&min_volume=${floor}`))).data,
      daily.filter((r) => r.totalVolume >= floor).sort((a, b) => b.totalVolume - a.totalVolume || byTicker(a, b)),
    );
  });

  it("daily on each past session of the week equals that session's prints (this also warms the week's summaries)", async () => {
    for (const d of WEEK.slice(0, -1)) {
      const want: TickerTotals[] = [];
      for (const t of UNIVERSE) {
        const prints = await printsOf(h.sim, t, d, NOW_MS);
        if (prints.length > 0) want.push(tickerTotals(t, prints));
      }
      const res = await h.get(`/v1/underlying/top/daily?date=${d}`);
      expect(res.status, d).toBe(200);
      expectUnderlyingRows(
        (await body(res)).data,
        want.sort((a, b) => b.totalPremium - a.totalPremium || byTicker(a, b)),
      );
    }
  }, 120_000);

  it("weekly: the 5 sessions ending on the date summed per ticker; 1 credit", async () => {
    expect(WEEK).toEqual(["2024-02-29", "2024-03-01", "2024-03-04", "2024-03-05", "2024-03-06"]);
    const before = balance();
    const res = await h.get("/v1/underlying/top/weekly?order_by=volume");
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 1);
    expectUnderlyingRows(
      (await body(res)).data,
      [...weekly].sort((a, b) => b.totalVolume - a.totalVolume || byTicker(a, b)),
    );
  }, 60_000);

  it("400 naming the parameter for bad limit, floors, order and dates; uncharged", async () => {
    await expectRefusedUncharged(h, [
      ["/v1/underlying/top/daily?limit=0", 400, "limit"],
      ["/v1/underlying/top/daily?limit=501", 400, "limit"],
      ["/v1/underlying/top/daily?min_premium=-1", 400, "min_premium"],
      ["/v1/underlying/top/daily?min_volume=2.5", 400, "min_volume"],
      ["/v1/underlying/top/daily?order_by=iv", 400, "order_by"],
      ["/v1/underlying/top/weekly?order=up", 400, "order"],
      ["/v1/underlying/top/weekly?date=2024-03-09", 400, "date"],
      ["/v1/underlying/top/weekly?date=2024-03-07", 400, "date"],
    ]);
  });
});

describe("/v1/contract/top/weekly", () => {
  it("one row per contract over the week: volume, premium, trades and VWAP summed from the prints, OI of the last traded session", async () => {
    const perDay = await Promise.all(WEEK.map(async (d) => contractSums(await printsOf(h.sim, "COP", d, NOW_MS))));
    const want = new Map<string, { volume: number; premium: number; trades: number; notional: number; last: string; first: string }>();
    perDay.forEach((day, i) => {
      for (const [sym, c] of day) {
        const w = want.get(sym) ?? { volume: 0, premium: 0, trades: 0, notional: 0, last: WEEK[i], first: WEEK[i] };
        w.volume += c.volume;
        w.premium += c.premium;
        w.trades += c.trades;
        w.notional += c.notional;
        w.last = WEEK[i];
        want.set(sym, w);
      }
    });
    const before = balance();
    const res = await h.get("/v1/contract/top/weekly?ticker=COP&limit=500&order_by=volume");
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 1);
    const rows: any[] = (await body(res)).data;
    const order = [...want.entries()].sort((a, b) => b[1].volume - a[1].volume || (a[0] < b[0] ? -1 : 1)).map(([s]) => s);
    expect(rows.map((r) => r.symbol)).toEqual(order.slice(0, 500));
    for (const r of rows) {
      const w = want.get(r.symbol)!;
      expect(r.totalVolume).toBe(w.volume);
      expect(r.tradeCount).toBe(w.trades);
      expect(r.totalPremium).toBeCloseTo(w.premium, 2);
      expect(r.vwap).toBeCloseTo(w.notional / w.volume, 6);
      expect(r.bidVolume + r.askVolume + r.midVolume).toBe(w.volume);
    }
    // Open interest: the board at the open of the contract's last traded session; change since before its first.
    const top = rows[0];
    const w = want.get(top.symbol)!;
    const oiLast = (await openingOi(h.sim, "COP", w.last)).get(top.symbol) ?? 0;
    const oiBefore = (await openingOi(h.sim, "COP", addTradingDays(w.first, -1))).get(top.symbol) ?? 0;
    expect(top.openInterest).toBe(oiLast);
    expect(top.oiChange).toBe(oiLast - oiBefore);
  }, 60_000);

  it("the daily screener's filters: right, DTE window, bounds checked (400 naming the lower bound), uncharged", async () => {
    const rows: any[] = (await body(await h.get("/v1/contract/top/weekly?ticker=COP&right=P&min_dte=10&max_dte=60&limit=500"))).data;
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.right).toBe("P");
      expect(r.dte).toBeGreaterThanOrEqual(10);
      expect(r.dte).toBeLessThanOrEqual(60);
    }
    const before = balance();
    for (const [path, param] of [
      ["/v1/contract/top/weekly?min_dte=9&max_dte=3", "min_dte"],
      ["/v1/contract/top/weekly?only_multi_leg=true&exclude_multi_leg=true", "exclude_multi_leg"],
      ["/v1/contract/top/weekly?order_by=rvol", "order_by"],
    ] as const) {
      const res = await h.get(path);
      expect(res.status, path).toBe(400);
      expect((await body(res)).error.message, path).toContain(param);
    }
    const unknown = await h.get("/v1/contract/top/weekly?ticker=NOPE");
    expect(unknown.status).toBe(404);
    expect((await body(unknown)).error.code).toBe("SYMBOL_NOT_FOUND");
    expect(balance()).toBe(before);
  });
});

describe("/v1/contract/unusual-volume and /v1/contract/unusual-oi", () => {
  it("unusual volume: volume on the date against the mean of the avg_period sessions before it; 3 credits", async () => {
    const baselineDates = tradingDaysBetween(addTradingDays(PRIOR, -3), addTradingDays(PRIOR, -1));
    const want: Array<{ symbol: string; volume: number; avg: number; rvol: number; premium: number }> = [];
    for (const t of UNIVERSE) {
      const day = contractSums(await printsOf(h.sim, t, PRIOR, NOW_MS));
      const base = await Promise.all(baselineDates.map(async (d) => contractSums(await printsOf(h.sim, t, d, NOW_MS))));
      for (const [symbol, c] of day) {
        const avg = base.reduce((s, b) => s + (b.get(symbol)?.volume ?? 0), 0) / baselineDates.length;
        if (avg < 5 || avg === 0) continue;
        const rvol = c.volume / avg;
        if (rvol >= 1.5) want.push({ symbol, volume: c.volume, avg, rvol, premium: c.premium });
      }
    }
    want.sort((a, b) => b.rvol - a.rvol || (a.symbol < b.symbol ? -1 : 1));
    expect(want.length).toBeGreaterThan(3);
    const before = balance();
    const res = await h.get(`/v1/contract/unusual-volume?date=${PRIOR}&avg_period=3d&min_rvol=1.5&min_avg_volume=5&limit=200`);
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 3);
    const { data, meta } = await body(res);
    expect(meta).toMatchObject({ date: PRIOR, avgPeriod: 3, baselineSessions: 3 });
    expect(data.map((r: any) => r.symbol)).toEqual(want.map((w) => w.symbol));
    data.forEach((r: any, i: number) => {
      expect(r.volume).toBe(want[i].volume);
      expect(r.avgVolume).toBeCloseTo(want[i].avg, 9);
      expect(r.rvol).toBeCloseTo(want[i].rvol, 9);
      expect(r.premium).toBeCloseTo(want[i].premium, 2);
      expect(r.date).toBe(PRIOR);
      expect(r.prevOi).toBe(r.openInterest - r.oiChange);
    });
  }, 60_000);

  it("unusual volume: date defaults to the last session before today; exclude_tickers, right and moneyness filter", async () => {
    const { data, meta } = await body(await h.get("/v1/contract/unusual-volume?avg_period=3d&min_rvol=1.5&min_avg_volume=5&limit=200"));
    expect(meta.date).toBe(PRIOR);
    const tickers = new Set(data.map((r: any) => r.ticker));
    expect(tickers.size).toBeGreaterThan(1);
    const [drop] = [...tickers] as string[];
    const kept = (await body(await h.get(`/v1/contract/unusual-volume?avg_period=3d&min_rvol=1.5&min_avg_volume=5&limit=200&exclude_tickers=${drop.toLowerCase()}`)))
      .data;
    expect(kept.map((r: any) => r.symbol)).toEqual(data.filter((r: any) => r.ticker !== drop).map((r: any) => r.symbol));
    const otmCalls = (await body(await h.get("/v1/contract/unusual-volume?avg_period=3d&min_rvol=1.5&min_avg_volume=5&limit=200&right=C&moneyness=OTM"))).data;
    expect(otmCalls.map((r: any) => r.symbol)).toEqual(data.filter((r: any) => r.right === "C" && r.moneynessPct > 3).map((r: any) => r.symbol));
  });

  it("unusual OI: |OI change into the session| from the boards at least both floors; direction; 3 credits", async () => {
    const prevDate = addTradingDays(PRIOR, -1);
    const want: Array<{ symbol: string; change: number; prev: number }> = [];
    for (const t of UNIVERSE) {
      const traded = contractSums(await printsOf(h.sim, t, PRIOR, NOW_MS));
      const oiNow = await openingOi(h.sim, t, PRIOR);
      const oiPrev = await openingOi(h.sim, t, prevDate);
      for (const symbol of traded.keys()) {
        const now = oiNow.get(symbol);
        const prev = oiPrev.get(symbol);
        if (now === undefined || prev === undefined || now === prev) continue;
        const pct = prev > 0 ? (100 * (now - prev)) / prev : 0;
        if (Math.abs(now - prev) >= 20 && Math.abs(pct) >= 5) want.push({ symbol, change: now - prev, prev });
      }
    }
    want.sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || (a.symbol < b.symbol ? -1 : 1));
    expect(want.some((w) => w.change > 0)).toBe(true);
    const before = balance();
    const res = await h.get(`/v1/contract/unusual-oi?date=${PRIOR}&min_oi_change=20&min_oi_change_pct=5&limit=200`);
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 3);
    const data: any[] = (await body(res)).data;
    expect(data.map((r) => r.symbol)).toEqual(want.slice(0, 200).map((w) => w.symbol));
    data.forEach((r, i) => {
      expect(r.oiChange).toBe(want[i].change);
      expect(r.prevOi).toBe(want[i].prev);
      expect(r.positionType).toBe(want[i].change > 0 ? "opening" : "closing");
    });
    const opening: any[] = (await body(await h.get(`/v1/contract/unusual-oi?date=${PRIOR}&min_oi_change=20&min_oi_change_pct=5&limit=200&direction=opening`))).data;
    expect(opening.map((r) => r.symbol)).toEqual(want.filter((w) => w.change > 0).map((w) => w.symbol));
  }, 60_000);

  it("400 naming the parameter for avg_period, limit, imbalance, moneyness, direction; uncharged", async () => {
    await expectRefusedUncharged(h, [
      ["/v1/contract/unusual-volume?avg_period=1d", 400, "avg_period"],
      ["/v1/contract/unusual-volume?avg_period=366d", 400, "avg_period"],
      ["/v1/contract/unusual-volume?avg_period=10", 400, "avg_period"],
      ["/v1/contract/unusual-volume?limit=201", 400, "limit"],
      ["/v1/contract/unusual-volume?min_bid_imbalance=1.5", 400, "min_bid_imbalance"],
      ["/v1/contract/unusual-volume?moneyness=DEEP", 400, "moneyness"],
      ["/v1/contract/unusual-volume?min_iv=0.5&max_iv=0.1", 400, "min_iv"],
      ["/v1/contract/unusual-volume?date=2024-03-10", 400, "date"],
      ["/v1/contract/unusual-oi?direction=up", 400, "direction"],
      ["/v1/contract/unusual-oi?min_oi_change=-5", 400, "min_oi_change"],
      ["/v1/contract/unusual-oi?order_by=rvol", 400, "order_by"],
    ]);
  });
});

// Keep the session bounds import honest: the harness clock sits inside today's session.
it("the harness clock is inside today's session", () => {
  const { openMs, closeMs } = sessionBounds(TODAY);
  expect(NOW_MS > openMs && NOW_MS < closeMs).toBe(true);
});

describe("plans and the ticker filter", () => {
  it("the index/ETF plan scans only its symbols and may not name a stock (403 NOT_ENTITLED, uncharged)", async () => {
    const etf = flowHarness({ credits: 100, plan: "index-etf", universe: UNIVERSE });
    const rows: any[] = (await body(await etf.get("/v1/underlying/top/daily"))).data;
    expect(rows.map((r) => r.ticker)).toEqual(["XLRE"]);
    const before = etf.accounts.balance(etf.accountId);
    for (const path of ["/v1/contract/top/weekly?ticker=NOW", "/v1/contract/unusual-oi?ticker=COP", "/v1/contract/unusual-volume?ticker=LMT"]) {
      const res = await etf.get(path);
      expect(res.status, path).toBe(403);
      expect((await body(res)).error.code, path).toBe("NOT_ENTITLED");
    }
    expect(etf.accounts.balance(etf.accountId)).toBe(before);
  });

  it("the flow-only plan reads the screens", async () => {
    const flow = flowHarness({ credits: 100, plan: "flow", universe: UNIVERSE });
    expect((await flow.get("/v1/underlying/top/daily?limit=1")).status).toBe(200);
  });

  it("`ticker` restricts the unusual-OI scan to that ticker's contracts", async () => {
    const qs = `date=${PRIOR}&min_oi_change=100&min_oi_change_pct=10&limit=200`;
    const all: any[] = (await body(await h.get(`/v1/contract/unusual-oi?${qs}`))).data;
    const cop: any[] = (await body(await h.get(`/v1/contract/unusual-oi?${qs}&ticker=cop`))).data;
    expect(all.length).toBeLessThan(200); // not cut by the limit
    expect(cop.length).toBeGreaterThan(0);
    expect(cop.map((r) => r.symbol)).toEqual(all.filter((r) => r.ticker === "COP").map((r) => r.symbol));
  });
});
