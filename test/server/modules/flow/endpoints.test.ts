// The flow module's analytics endpoints, each checked against sums recomputed from the raw prints
// of the simulated market (AAPL, first half hour of 2024-03-06).
import { describe, expect, it } from "vitest";
import { openInterestBySymbol } from "../../../../lib/flow/board-open-interest";
import { sessionBounds } from "../../../../lib/time";
import { body, flowHarness, NOW_MS, PRIOR, TODAY } from "./_flow-harness";

const h = flowHarness({ universe: ["AAPL", "SPY", "AMZN"] });
const OPEN = sessionBounds(TODAY).openMs;
const prem = (p: { price: number; size: number }) => p.price * p.size * 100;
const todayPrints = () => h.sim.optionPrints("AAPL", OPEN, NOW_MS);

describe("per-ticker endpoints", () => {
  it("/v1/contract-ratio/{symbol}: counts and bid/ask shares of the contract's trades", async () => {
    const prints = await todayPrints();
    // The most traded contract of the morning.
    const counts = new Map<string, number>();
    for (const p of prints) counts.set(p.symbol, (counts.get(p.symbol) ?? 0) + 1);
    const symbol = [...counts].sort((a, b) => b[1] - a[1])[0][0];
    const mine = prints.filter((p) => p.symbol === symbol);
    const res = await h.get(`/v1/contract-ratio/${symbol}`);
    expect(res.status).toBe(200);
    const d = (await body(res)).data;
    expect(d.symbol).toBe(symbol);
    expect(d.tradeCount).toBe(mine.length);
    expect(d.totalVolume).toBe(mine.reduce((s, p) => s + p.size, 0));
    expect(d.totalPremium).toBeCloseTo(
      mine.reduce((s, p) => s + prem(p), 0),
      4,
    );
    // Prints strictly above the ask are ask-side, strictly below the bid bid-side (whatever the tolerance).
    const ask = mine.filter((p) => p.nbboAsk > p.nbboBid && p.price > p.nbboAsk).length;
    const bid = mine.filter((p) => p.nbboAsk > p.nbboBid && p.price < p.nbboBid).length;
    expect(d.contractRatios.askRatio * mine.length).toBeGreaterThanOrEqual(ask - 1e-9);
    expect(d.contractRatios.bidRatio * mine.length).toBeGreaterThanOrEqual(bid - 1e-9);
    expect(d.contractRatios.askRatio + d.contractRatios.bidRatio + d.contractRatios.midRatio).toBeCloseTo(1, 9);
  });

  it("/v1/chain-ratio/{ticker}: trade count and premium of calls within a DTE range", async () => {
    const prints = await todayPrints();
    const dte = (e: string) => Math.round((Date.parse(`${e}T00:00:00Z`) - Date.parse(`${TODAY}T00:00:00Z`)) / 86_400_000);
    const want = prints.filter((p) => p.right === "C" && dte(p.expiry) <= 10);
    const d = (await body(await h.get("/v1/chain-ratio/AAPL?option_type=call&max_dte=10"))).data;
    expect(d.tradeCount).toBe(want.length);
    expect(d.totalPremium).toBeCloseTo(
      want.reduce((s, p) => s + prem(p), 0),
      4,
    );
    expect(d.chainRatios.callPutRatio).toBeNull();
  });

  it("/v1/underlying/{ticker}/chain: per-strike volume and premium of one expiration, max pain a listed strike", async () => {
    const prints = await todayPrints();
    const expiration = prints[0].expiry;
    const res = await h.get(`/v1/underlying/AAPL/chain?expiration=${expiration}`);
    expect(res.status).toBe(200);
    const d = (await body(res)).data;
    const mine = prints.filter((p) => p.expiry === expiration);
    const vol = d.strikes.reduce((s: number, r: any) => s + r.callVolume + r.putVolume, 0);
    expect(vol).toBe(mine.reduce((s, p) => s + p.size, 0));
    const callPrem = d.strikes.reduce((s: number, r: any) => s + r.callPremium, 0);
    expect(callPrem).toBeCloseTo(
      mine.filter((p) => p.right === "C").reduce((s, p) => s + prem(p), 0),
      4,
    );
    expect(d.strikes.map((r: any) => r.strike)).toContain(d.maxPain);
    // Max pain minimises the holders' intrinsic value over the listed strikes.
    const pain = (k: number) => d.strikes.reduce((s: number, r: any) => s + r.callOi * Math.max(0, k - r.strike) + r.putOi * Math.max(0, r.strike - k), 0);
    for (const r of d.strikes) expect(pain(d.maxPain)).toBeLessThanOrEqual(pain(r.strike) + 1e-6);
    const missing = await h.get("/v1/underlying/AAPL/chain?expiration=2031-01-17");
    expect(missing.status).toBe(404);
    expect((await body(missing)).error.code).toBe("EXPIRATION_NOT_FOUND");
    const noExp = await h.get("/v1/underlying/AAPL/chain");
    expect(noExp.status).toBe(400);
    expect((await body(noExp)).error.code).toBe("MISSING_PARAMETER");
  });

  it("/v1/underlying/{ticker}/history: today's row equals the raw sums; windows over 31 days are 400", async () => {
    const prints = await todayPrints();
    const d = (await body(await h.get(`/v1/underlying/AAPL/history?start_date=${TODAY}&end_date=${TODAY}`))).data;
    expect(d).toHaveLength(1);
    expect(d[0].date).toBe(TODAY);
    expect(d[0].totalVolume).toBe(prints.reduce((s, p) => s + p.size, 0));
    expect(d[0].callPremium - d[0].putPremium).toBeCloseTo(d[0].netPremium, 6);
    const wide = await h.get("/v1/underlying/AAPL/history?start_date=2024-01-01&end_date=2024-03-01");
    expect(wide.status).toBe(400);
    expect((await body(wide)).error.code).toBe("RANGE_TOO_LARGE");
  });

  it("/v1/sweeps/{ticker}: every sweep spans two or more exchanges or carries an ISO condition; summary adds up", async () => {
    const d = (await body(await h.get("/v1/sweeps/AAPL?limit=500"))).data;
    expect(d.summary.bullishSweeps + d.summary.bearishSweeps).toBe(d.summary.totalSweeps);
    expect(d.summary.returnedCount).toBe(d.sweeps.length);
    for (const s of d.sweeps) {
      expect(s.executionTimeMs).toBeLessThanOrEqual(1000);
      expect(s.exchangeCount).toBe(new Set(s.exchanges).size);
    }
  });

  it("/v1/flow/{ticker}/tide: bars cover the session so far and the cumulative net is the running sum", async () => {
    const missing = await h.get("/v1/flow/AAPL/tide");
    expect(missing.status).toBe(400);
    expect((await body(missing)).error.message).toContain("start_time");
    const d = (await body(await h.get(`/v1/flow/AAPL/tide?bucket=5min&start_time=${OPEN / 1000}&end_time=2024-03-06T21:00:00Z`))).data;
    expect(d.bars).toHaveLength(Math.ceil((NOW_MS - OPEN) / 300_000));
    const prints = await todayPrints();
    const total = d.bars.reduce((s: number, b: any) => s + b.callPremium + b.putPremium, 0);
    expect(total).toBeCloseTo(
      prints.reduce((s, p) => s + prem(p), 0),
      3,
    );
    let cum = 0;
    for (const b of d.bars) {
      cum += b.callPremium - b.putPremium;
      expect(b.netCallPutPremiumCumulative).toBeCloseTo(cum, 4);
    }
  });

  it("/v1/flow/{ticker}/momentum: the 5-minute window counts the last five minutes' trades", async () => {
    const prints = await todayPrints();
    const d = (await body(await h.get("/v1/flow/AAPL/momentum?lookback_days=2"))).data;
    expect(d.current5m.tradeCount).toBe(prints.filter((p) => p.tsMs >= NOW_MS - 300_000).length);
    expect(d.current1h.tradeCount).toBe(prints.length);
    expect(["ACCELERATING_BULLISH", "ACCELERATING_BEARISH", "BULLISH", "BEARISH", "NEUTRAL"]).toContain(d.signals.trend);
  });

  it("/v1/underlying/{ticker}/rvol: today's volume and premium are the session's sums so far", async () => {
    const prints = await todayPrints();
    const d = (await body(await h.get("/v1/underlying/AAPL/rvol?avg_period=2d&format=summary"))).data;
    expect(d.stats.todayVolume).toBe(prints.reduce((s, p) => s + p.size, 0));
    expect(d.stats.todayPremium).toBeCloseTo(
      prints.reduce((s, p) => s + prem(p), 0),
      3,
    );
    const bad = await h.get("/v1/underlying/AAPL/rvol?interval=0D");
    expect(bad.status).toBe(400);
    expect((await body(bad)).error.message).toContain("interval");
  });

  it("/v1/underlying/{ticker}/chain reads the board at the request instant, as the volatility module does; an expired 0DTE its last board", async () => {
    // NOW_MS is a minute boundary: the board at it is that minute's (the volatility module's
    // `chain(symbol, now)`), not the minute before.
    const board = (await h.sim.chain("AAPL", NOW_MS))!;
    expect(board.asOfMs).toBe(NOW_MS);
    const expiration = board.expirations[0];
    const d = (await body(await h.get(`/v1/underlying/AAPL/chain?expiration=${expiration}`))).data;
    expect(d.underlyingPrice).toBe(board.spot);
    const ivs = new Map<number, number>();
    for (let i = 0; i < board.right.length; i++)
      if (board.expIndex[i] === 0 && board.right[i] === 1 && board.iv[i] > 0) ivs.set(board.strikes[board.strikeIndex[i]], board.iv[i]);
    // A strike that traded shows its last trade's IV: compare the others.
    const rows = d.strikes.filter((r: any) => ivs.has(r.strike) && r.callVolume === 0);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.callIv).toBe(ivs.get(r.strike));
    // A finished session: the closing board's price; its 0DTE (gone from the closing board) keeps
    // the open interest of the last board that listed it.
    const { closeMs } = sessionBounds(PRIOR);
    const closing = (await h.sim.chain("SPY", closeMs))!;
    const past = (await body(await h.get(`/v1/underlying/SPY/chain?date=${PRIOR}&expiration=${PRIOR}`))).data;
    expect(past.underlyingPrice).toBe(closing.spot);
    const last = (await h.sim.chain("SPY", closeMs - 1))!;
    expect(last.expirations).toContain(PRIOR);
    expect(past.callOiTotal + past.putOiTotal).toBeGreaterThan(0);
  });

  it("/v1/contract/{symbol}/rvol: a strike never listed is 404 SYMBOL_NOT_FOUND, uncharged; a listed one without trades is 200", async () => {
    const prints = await todayPrints();
    const expiry = prints[0].expiry.replaceAll("-", "").slice(2);
    const balance = () => h.accounts.balance(h.accountId);
    const before = balance();
    const res = await h.get(`/v1/contract/AAPL__${expiry}C09999000/rvol?avg_period=2d`);
    expect(res.status).toBe(404);
    const err = (await body(res)).error;
    expect(err.code).toBe("SYMBOL_NOT_FOUND");
    expect(err.message).toContain("AAPL__");
    expect(balance()).toBe(before);
    // A listed contract that did not trade today is known: 200 with empty volume.
    const board = (await h.sim.chain("AAPL", sessionBounds(TODAY).openMs))!;
    const traded = new Set(prints.map((p) => p.symbol));
    const listed = [...openInterestBySymbol(board).keys()].find((sym) => !traded.has(sym))!;
    const quiet = await h.get(`/v1/contract/${listed}/rvol?avg_period=2d&format=summary`);
    expect(quiet.status).toBe(200);
    expect((await body(quiet)).data.stats.todayVolume).toBe(0);
  });
});

describe("market-wide endpoints (a three-ticker universe)", () => {
  it("/v1/underlying/search: prefix, activity order, premium equal to the raw sums", async () => {
    const res = await h.get("/v1/underlying/search?q=a");
    expect(res.status).toBe(200);
    const rows = (await body(res)).data;
    expect(rows.map((r: any) => r.ticker).sort()).toEqual(["AAPL", "AMZN"]);
    const aapl = rows.find((r: any) => r.ticker === "AAPL");
    expect(aapl.totalPremium).toBeCloseTo(
      (await todayPrints()).reduce((s, p) => s + prem(p), 0),
      3,
    );
    expect(rows[0].totalPremium).toBeGreaterThanOrEqual(rows[1].totalPremium);
    expect((await h.get("/v1/underlying/search?q=ABCDEFGHIJK")).status).toBe(400);
  });

  it("/v1/contract/top/daily: 1 credit with a ticker, 3 without; rows ranked by premium and equal to per-contract sums", async () => {
    let before = h.accounts.balance(h.accountId);
    const one = await h.get("/v1/contract/top/daily?ticker=AAPL&limit=5");
    expect(one.headers.get("X-Credits-Remaining")).toBe(String(before - 1));
    const rows = (await body(one)).data;
    const prints = await todayPrints();
    for (const r of rows) {
      const mine = prints.filter((p) => p.symbol === r.symbol);
      expect(r.totalVolume).toBe(mine.reduce((s, p) => s + p.size, 0));
      expect(r.totalPremium).toBeCloseTo(
        mine.reduce((s, p) => s + prem(p), 0),
        4,
      );
    }
    for (let i = 1; i < rows.length; i++) expect(rows[i - 1].totalPremium).toBeGreaterThanOrEqual(rows[i].totalPremium);
    before = h.accounts.balance(h.accountId);
    const all = await h.get("/v1/contract/top/daily?limit=10&right=P");
    expect(all.headers.get("X-Credits-Remaining")).toBe(String(before - 3));
    for (const r of (await body(all)).data) expect(r.right).toBe("P");
    const bad = await h.get("/v1/contract/top/daily?order_by=gamma");
    expect(bad.status).toBe(400);
    expect((await body(bad)).error.message).toMatch(/order_by.*premium, volume, oi, iv/);
  });

  it("/v1/market/overview: totals over the listed tickers and every ticker", async () => {
    const one = (await body(await h.get("/v1/market/overview?tickers=AAPL,NOPE"))).data;
    const prints = await todayPrints();
    expect(one.totalPremium).toBeCloseTo(
      prints.reduce((s, p) => s + prem(p), 0),
      3,
    );
    expect(one.activeTickers).toBe(1);
    const all = (await body(await h.get("/v1/market/overview"))).data;
    expect(all.activeTickers).toBe(3);
    expect(all.totalPremium).toBeCloseTo(
      all.topTickers.reduce((s: number, t: any) => s + t.totalPremium, 0),
      3,
    );
    expect(all.callPremium - all.putPremium).toBeCloseTo(all.netPremium, 3);
  });
});
