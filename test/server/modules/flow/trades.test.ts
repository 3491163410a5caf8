// /v1/underlying/{ticker}/trades and /v1/contract/{symbol}/trades: rows, order and filters
// recomputed from the raw option prints (side from each print's NBBO, cumulative volume and IV
// direction by a plain walk, sweeps from groupSweeps, OI from the opening board), the contract
// feed's cursor walk while prints arrive (no gap, no repeat), and uncharged 4xx. Also
// /v1/score/{trade_id} (same tape, same recomputation).
import { beforeAll, describe, expect, it } from "vitest";
import { classifySide, groupSweeps, moneynessOf, moneynessPct, openInterestBySymbol, tradeFacts } from "../../../../lib/flow";
import type { MarketData, OptionPrint } from "../../../../lib/market";
import { isCrossPrint, isMultiLegPrint } from "../../../../lib/market/prints/conditions";
import { formatOptionSymbol } from "../../../../lib/symbols";
import { sessionBounds } from "../../../../lib/time";
import { makeHarness } from "../../_harness";
import { movableMarket } from "./_dark-pool-market";
import { body, expectRefusedUncharged, flowHarness, NOW_MS, TODAY, type FlowHarness, type RefusedCase } from "./_flow-harness";

let h: FlowHarness;
const balance = () => h.accounts.balance(h.accountId);
const OPEN = sessionBounds(TODAY).openMs;

interface Expected {
  p: OptionPrint;
  side: string;
  daily: number;
  sweep: boolean;
  ivDir: number;
  oi: number;
  mPct: number;
}

/** Every print of the session so far with what its row must say, in time order. */
async function expectedRows(market: MarketData, ticker: string, toMs: number): Promise<Expected[]> {
  const prints = await market.optionPrints(ticker, OPEN, toMs);
  const board = await market.chain(ticker, OPEN);
  const oi = board && board.sessionDate === TODAY ? openInterestBySymbol(board) : new Map<string, number>();
  const { groupOf } = groupSweeps(prints);
  const vol = new Map<string, number>();
  const iv = new Map<string, number | null>();
  return prints.map((p, i) => {
    vol.set(p.symbol, (vol.get(p.symbol) ?? 0) + p.size);
    const prev = iv.has(p.symbol) ? iv.get(p.symbol)! : null;
    iv.set(p.symbol, p.iv);
    return {
      p,
      side: classifySide(p.price, p.nbboBid, p.nbboAsk),
      daily: vol.get(p.symbol)!,
      sweep: groupOf[i] >= 0,
      ivDir: prev === null || p.iv === null ? 0 : Math.sign(p.iv - prev),
      oi: oi.get(p.symbol) ?? 0,
      mPct: moneynessPct(p.right, p.strike, p.underlyingPrice),
    };
  });
}

const key = (r: any) => `${r.tsEvent}|${r.rawSymbol}|${r.price}|${r.size}`;
const keyOf = (e: Expected) =>
  `${e.p.tsMs}|${formatOptionSymbol({ root: e.p.root, expiry: e.p.expiry, right: e.p.right, strike: e.p.strike }, "padded")}|${e.p.price}|${e.p.size}`;

beforeAll(() => {
  h = flowHarness({ credits: 10_000 });
});

describe("/v1/underlying/{ticker}/trades", () => {
  it("newest first, every field recomputed from the raw prints; 5 credits", async () => {
    const before = balance();
    const res = await h.get("/v1/underlying/xom/trades?limit=500");
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 5);
    const { data } = await body(res);
    const all = await expectedRows(h.sim, "XOM", NOW_MS);
    const want = all.slice().reverse().slice(0, 500);
    expect(want.length).toBeGreaterThan(20);
    expect(data.map(key)).toEqual(want.map(keyOf));
    const days = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
    data.forEach((r: any, i: number) => {
      const e = want[i];
      const m = moneynessOf(e.mPct);
      expect(r).toMatchObject({
        date: days(TODAY),
        ticker: "XOM",
        expiration: days(e.p.expiry),
        strike: e.p.strike,
        right: e.p.right,
        side: e.side,
        dailyVolume: e.daily,
        sweepTrade: e.sweep,
        blockTrade: e.p.size >= 100,
        multiLeg: isMultiLegPrint(e.p),
        crossTrade: isCrossPrint(e.p),
        ivDirection: e.ivDir,
        openInterest: e.oi,
        prevOi: e.oi,
        iv: e.p.iv,
        underlyingPrice: e.p.underlyingPrice,
        moneyness: m === "DEEP_ITM" || m === "ITM" ? "ITM" : m === "ATM" ? "ATM" : "OTM",
        neutralSz: e.side === "M" || e.side === "N" ? e.p.size : 0,
        ingestionTimestamp: e.p.tsMs,
      });
      expect(r.totalPremium).toBeCloseTo(e.p.price * e.p.size * 100, 6);
      expect(r.moneynessPercent).toBeCloseTo(e.mPct, 9);
      expect(r.tsEventUs).toBeUndefined();
      expect(r.rawSymbol).toHaveLength(21);
      expect(Number.isInteger(r.flowScore) && Math.abs(r.flowScore) <= 100).toBe(true);
    });
  });

  it("window in Unix seconds and every filter keep the same prints as a plain predicate", async () => {
    const from = OPEN + 5 * 60_000;
    const to = OPEN + 25 * 60_000;
    const q = `start=${from / 1000}&end=${new Date(to).toISOString()}&moneyness=OTM&min_dte=1&max_dte=60&min_strike=50&max_strike=200&min_premium=50&exclude_multi_leg=true&limit=500`;
    const { data } = await body(await h.get(`/v1/underlying/XOM/trades?${q}`));
    const want = (await expectedRows(h.sim, "XOM", NOW_MS))
      .filter((e) => {
        const dte = Math.round((Date.parse(e.p.expiry) - Date.parse(TODAY)) / 86_400_000);
        return (
          e.p.tsMs >= from &&
          e.p.tsMs < to &&
          e.mPct > 3 &&
          dte >= 1 &&
          dte <= 60 &&
          e.p.strike >= 50 &&
          e.p.strike <= 200 &&
          e.p.price * e.p.size * 100 >= 50 &&
          !isMultiLegPrint(e.p)
        );
      })
      .reverse();
    expect(want.length).toBeGreaterThan(0);
    expect(data.map(key)).toEqual(want.map(keyOf));
    const sweeps = (await body(await h.get("/v1/underlying/XOM/trades?only_sweeps=true&limit=500"))).data;
    expect(sweeps.map(key)).toEqual(
      (await expectedRows(h.sim, "XOM", NOW_MS))
        .filter((e) => e.sweep)
        .reverse()
        .slice(0, 500)
        .map(keyOf),
    );
    const exp = data[0].expiration;
    const iso = new Date(exp * 86_400_000).toISOString().slice(0, 10);
    const one = (await body(await h.get(`/v1/underlying/XOM/trades?expiration=${iso}&limit=500`))).data;
    expect(one.length).toBeGreaterThan(0);
    expect(one.every((r: any) => r.expiration === exp)).toBe(true);
  });
});

describe("/v1/contract/{symbol}/trades", () => {
  it("largest premium first; a cursor walk while prints arrive returns the first page's window exactly once", async () => {
    const local = movableMarket(NOW_MS);
    const app = makeHarness({ market: local.market, credits: 100_000 });
    const rows = await expectedRows(local.market, "XOM", local.clock.ms);
    const counts = new Map<string, number>();
    for (const e of rows) counts.set(e.p.symbol, (counts.get(e.p.symbol) ?? 0) + 1);
    const [symbol, n] = [...counts].sort((a, b) => b[1] - a[1])[0];
    expect(n).toBeGreaterThan(4);
    const want = rows
      .map((e, i) => ({ e, i }))
      .filter(({ e }) => e.p.symbol === symbol)
      .sort((a, b) => b.e.p.price * b.e.p.size - a.e.p.price * a.e.p.size || a.i - b.i);
    const seen: any[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await app.get(`/v1/contract/${symbol}/trades?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      const b = await body(res);
      seen.push(...b.data);
      cursor = b.meta.nextCursor;
      local.clock.ms += 60_000; // new prints arrive between pages
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(n / 2));
    expect(seen.map(key)).toEqual(want.map(({ e }) => keyOf(e)));
    for (const [k, r] of seen.entries()) {
      const p = want[k].e.p;
      expect(r.tsEventUs).toBe(Number(BigInt(p.tsNs) / 1000n));
      expect(r.dailyVolume).toBe(want[k].e.daily);
    }
  });

  it("the padded OPRA form (percent-encoded) and the filters; 5 credits", async () => {
    const rows = await expectedRows(h.sim, "XOM", NOW_MS);
    const e0 = rows.find((e) => rows.filter((x) => x.p.symbol === e.p.symbol).length >= 3)!;
    const padded = formatOptionSymbol({ root: e0.p.root, expiry: e0.p.expiry, right: e0.p.right, strike: e0.p.strike }, "padded");
    const before = balance();
    const res = await h.get(`/v1/contract/${encodeURIComponent(padded)}/trades?limit=500&min_premium=20`);
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 5);
    const { data, meta } = await body(res);
    expect(meta.nextCursor).toBeUndefined();
    const want = rows.filter((e) => e.p.symbol === e0.p.symbol && e.p.price * e.p.size * 100 >= 20);
    expect(data.map(key).sort()).toEqual(want.map(keyOf).sort());
    for (let i = 1; i < data.length; i++) expect(data[i - 1].totalPremium).toBeGreaterThanOrEqual(data[i].totalPremium);
  });

  it("400 naming the parameter for a bad cursor, reversed window, conflicting flags, limit out of range, malformed symbol; 404 unknown root or ticker; uncharged", async () => {
    const c = "XOM__240315C00100000";
    const cases: RefusedCase[] = [
      [`/v1/contract/${c}/trades?cursor=abc`, 400, "cursor"],
      [`/v1/contract/${c}/trades?start=2024-03-06T15:00:00Z&end=2024-03-06T14:40:00Z`, 400, "start"],
      [`/v1/contract/${c}/trades?only_multi_leg=true&exclude_multi_leg=true`, 400, "only_multi_leg"],
      [`/v1/contract/${c}/trades?limit=501`, 400, "limit"],
      [`/v1/contract/${c}/trades?start=soon`, 400, "start"],
      ["/v1/contract/XOM-CALL/trades", 400, "symbol"],
      ["/v1/contract/ZZZZ__240315C00100000/trades", 404, "symbol", "SYMBOL_NOT_FOUND"],
      ["/v1/underlying/ZZZZ/trades", 404, "ticker", "SYMBOL_NOT_FOUND"],
      ["/v1/underlying/XOM/trades?moneyness=deep", 400, "moneyness"],
      ["/v1/underlying/XOM/trades?min_dte=9&max_dte=2", 400, "min_dte"],
      ["/v1/underlying/XOM/trades?start=2024-03-09T15:00:00Z", 400, "start"],
    ];
    await expectRefusedUncharged(h, cases);
  });
});

describe("/v1/score/{trade_id}", () => {
  it("every trade of a feed page: spread position, urgency, type and context from its raw print; scores agree with the feed; 1 credit", async () => {
    const feed = (await body(await h.get("/v1/flow/XOM?limit=25"))).data.trades;
    const rows = await expectedRows(h.sim, "XOM", NOW_MS);
    const byId = new Map(rows.map((e) => [e.p.id, e]));
    const POS: Record<string, string> = { AA: "above_ask", A: "at_ask", BA: "below_ask", M: "mid", AB: "above_bid", B: "at_bid", BB: "below_bid", N: "unknown" };
    expect(feed.length).toBe(25);
    for (const item of feed) {
      const before = balance();
      const res = await h.get(`/v1/score/${item.tradeId}`);
      expect(res.status).toBe(200);
      expect(balance()).toBe(before - 1);
      const { data } = await body(res);
      const e = byId.get(item.tradeId)!;
      const f = tradeFacts(e.p);
      const sweep = e.sweep ? 1 : 0;
      expect(data.tradeId).toBe(item.tradeId);
      expect(data.scores.sentiment).toBe(item.scores.flowScore);
      expect(data.scores.confidence).toBeCloseTo(item.scores.flowBonus / 100, 12);
      expect(data.scores.urgency).toBe(Math.round(100 * (0.6 * Math.abs(f.aggression) + 0.4 * sweep)));
      expect(data.spreadAnalysis.positionInSpread).toBe(POS[f.side]);
      expect(data.spreadAnalysis.tradePrice).toBe(e.p.price);
      if (f.side !== "N") expect(data.spreadAnalysis.spreadWidth).toBeCloseTo(e.p.nbboAsk - e.p.nbboBid, 12);
      expect(data.tradeContext).toMatchObject({
        ticker: "XOM",
        optionType: e.p.right === "C" ? "call" : "put",
        strike: e.p.strike,
        expiration: e.p.expiry,
        size: e.p.size,
        tradeType: e.sweep ? "sweep" : e.p.size >= 100 ? "block" : "regular",
        moneyness: f.moneyness.toLowerCase(),
        dte: f.dte,
      });
      expect(data.tradeContext.premium).toBeCloseTo(e.p.price * e.p.size * 100, 6);
      const s = item.scores.flowScore;
      expect(data.interpretation.direction).toBe(
        s >= 50 ? "bullish" : s >= 15 ? "moderately_bullish" : s <= -50 ? "bearish" : s <= -15 ? "moderately_bearish" : "neutral",
      );
    }
  });

  it("400 for a malformed id or a weekend minute, 404 SYMBOL_NOT_FOUND for an unknown root and NOT_FOUND for a missing print; uncharged", async () => {
    const minute = Math.floor((NOW_MS - 60_000) / 60_000);
    const saturday = Math.floor(Date.parse("2024-03-09T15:00:00Z") / 60_000);
    const cases: RefusedCase[] = [
      ["/v1/score/flow_188afe42c3a77af2_0", 400, "trade_id"],
      [`/v1/score/XOM-${saturday}-0`, 400, "trade_id"],
      [`/v1/score/ZZZZ-${minute}-0`, 404, "trade_id", "SYMBOL_NOT_FOUND"],
      [`/v1/score/XOM-${minute}-99999`, 404, "XOM", "NOT_FOUND"],
    ];
    await expectRefusedUncharged(h, cases);
  });
});
