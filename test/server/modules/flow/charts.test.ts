// /v1/underlying/{ticker}/chart and /v1/contract/{symbol}/chart: every bar recomputed here from the
// raw option prints (side from each print's NBBO), the bars' count and bounds from the session
// calendar, the price from the market's spot at each bar's end, range caps and uncharged 4xx.
import { beforeAll, describe, expect, it } from "vitest";
import { classifySide } from "../../../../lib/flow";
import type { OptionPrint } from "../../../../lib/market";
import { isMultiLegPrint } from "../../../../lib/market/prints/conditions";
import { previousTradingDay, sessionBounds } from "../../../../lib/time";
import { body, expectRefusedUncharged, flowHarness, NOW_MS, PRIOR, TODAY, type FlowHarness, type RefusedCase } from "./_flow-harness";

let h: FlowHarness;
const balance = () => h.accounts.balance(h.accountId);
const M = 60_000;

async function prints(date: string, toMs?: number): Promise<OptionPrint[]> {
  const { openMs, closeMs } = sessionBounds(date);
  return h.sim.optionPrints("XOM", openMs, toMs ?? closeMs);
}

beforeAll(() => {
  h = flowHarness({ credits: 10_000 });
});

describe("/v1/underlying/{ticker}/chart", () => {
  it("2D at 30min: the prior session's 13 bars and today's one so far, each summed from the raw prints; 3 credits", async () => {
    const before = balance();
    const res = await h.get("/v1/underlying/xom/chart?interval=2D&bucket=30min");
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 3);
    const { data } = await body(res);
    const starts = [];
    for (let t = sessionBounds(PRIOR).openMs; t < sessionBounds(PRIOR).closeMs; t += 30 * M) starts.push(t);
    starts.push(sessionBounds(TODAY).openMs);
    expect(data.map((b: any) => Number(b.timestamp) * 1000)).toEqual(starts);
    const all = [...(await prints(PRIOR)), ...(await prints(TODAY, NOW_MS))];
    for (const b of data) {
      const from = Number(b.timestamp) * 1000;
      const to = Number(b.timestampEnd) * 1000;
      expect(to - from).toBe(30 * M);
      const ps = all.filter((p) => p.tsMs >= from && p.tsMs < to);
      const sum = (f: (p: OptionPrint) => number, keep: (p: OptionPrint) => boolean) => ps.filter(keep).reduce((s, p) => s + f(p), 0);
      const cv = sum(
        (p) => p.size,
        (p) => p.right === "C",
      );
      const pv = sum(
        (p) => p.size,
        (p) => p.right === "P",
      );
      expect([b.callVolume, b.putVolume, b.candleVolume]).toEqual([cv, pv, cv + pv]);
      expect(b.callPremium).toBeCloseTo(
        sum(
          (p) => p.price * p.size * 100,
          (p) => p.right === "C",
        ),
        4,
      );
      expect(b.pcRatio).toBeCloseTo(cv > 0 ? pv / cv : 0, 12);
      const bid = sum(
        (p) => p.size,
        (p) => ["BB", "B"].includes(classifySide(p.price, p.nbboBid, p.nbboAsk)),
      );
      const ask = sum(
        (p) => p.size,
        (p) => ["A", "AA"].includes(classifySide(p.price, p.nbboBid, p.nbboAsk)),
      );
      expect(b.chainBidPct).toBeCloseTo(cv + pv > 0 ? (100 * bid) / (cv + pv) : 0, 9);
      expect(b.chainAskPct).toBeCloseTo(cv + pv > 0 ? (100 * ask) / (cv + pv) : 0, 9);
      expect(b.stockPrice).toBe(await h.sim.spot("XOM", Math.min(to, NOW_MS) - 1));
    }
    expect(data.reduce((s: number, b: any) => s + b.candleVolume, 0)).toBe(all.reduce((s, p) => s + p.size, 0));
  });

  it("1d bars over 5D are whole sessions; 1w over 7D groups sessions by ISO week", async () => {
    const days = (await body(await h.get("/v1/underlying/XOM/chart?interval=5D&bucket=1d"))).data;
    const dates = [TODAY];
    while (dates.length < 7) dates.unshift(previousTradingDay(dates[0]));
    expect(days.map((b: any) => Number(b.timestamp) * 1000)).toEqual(dates.slice(2).map((d) => sessionBounds(d).openMs));
    expect(days[3].candleVolume).toBe((await prints(dates[5])).reduce((s, p) => s + p.size, 0));
    const weeks = (await body(await h.get("/v1/underlying/XOM/chart?interval=7D&bucket=1w"))).data;
    // 2024-02-27 .. 2024-03-06: the week of Feb 26 (4 sessions) and the week of Mar 4 (3 so far).
    expect(weeks).toHaveLength(2);
    expect(Number(weeks[0].timestamp) * 1000).toBe(sessionBounds(dates[0]).openMs);
    expect(Number(weeks[1].timestamp) * 1000).toBe(sessionBounds("2024-03-04").openMs);
    let v = 0;
    for (const d of ["2024-03-04", "2024-03-05"]) v += (await prints(d)).reduce((s, p) => s + p.size, 0);
    v += (await prints(TODAY, NOW_MS)).reduce((s, p) => s + p.size, 0);
    expect(weeks[1].candleVolume).toBe(v);
  });
});

describe("/v1/contract/{symbol}/chart", () => {
  it("1D at 1min: 30 zero-filled bars of today's most traded contract, per-side sums, running totals and VWAP; 3 credits", async () => {
    const today = await prints(TODAY, NOW_MS);
    const counts = new Map<string, number>();
    for (const p of today) counts.set(p.symbol, (counts.get(p.symbol) ?? 0) + 1);
    const symbol = [...counts].sort((a, b) => b[1] - a[1])[0][0];
    const before = balance();
    const res = await h.get(`/v1/contract/${symbol}/chart?interval=1D&bucket=1min`);
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 3);
    const { data } = await body(res);
    expect(data).toHaveLength(30);
    const FIELD: Record<string, string> = { BB: "belowBid", B: "bid", AB: "aboveBid", M: "mid", BA: "belowAsk", A: "ask", AA: "aboveAsk", N: "noSide" };
    const mine = today.filter((p) => p.symbol === symbol);
    let daily = 0;
    for (const b of data) {
      const from = Number(b.timestamp) * 1000;
      const ps = mine.filter((p) => p.tsMs >= from && p.tsMs < from + M);
      const bySide: Record<string, number> = {};
      for (const p of ps) bySide[FIELD[classifySide(p.price, p.nbboBid, p.nbboAsk)]] = (bySide[FIELD[classifySide(p.price, p.nbboBid, p.nbboAsk)]] ?? 0) + p.size;
      for (const f of Object.values(FIELD)) expect(b[`${f}Volume`], f).toBe(bySide[f] ?? 0);
      const v = ps.reduce((s, p) => s + p.size, 0);
      daily += v;
      expect(b.candleVolume).toBe(v);
      expect(b.candleVolumeNoMl).toBe(ps.filter((p) => !isMultiLegPrint(p)).reduce((s, p) => s + p.size, 0));
      expect(b.dailyVolume).toBe(daily);
      expect(b.vwap).toBeCloseTo(v > 0 ? ps.reduce((s, p) => s + p.price * p.size, 0) / v : 0, 12);
    }
    expect(daily).toBe(mine.reduce((s, p) => s + p.size, 0));
  });

  it("400 naming interval (RANGE_TOO_LARGE over 30D intraday) or bucket; 404 unknown ticker or root; uncharged", async () => {
    const c = "XOM__240315C00100000";
    const cases: RefusedCase[] = [
      ["/v1/underlying/XOM/chart?interval=31D&bucket=5min", 400, "interval", "RANGE_TOO_LARGE"],
      [`/v1/contract/${c}/chart?interval=31D&bucket=1min`, 400, "interval", "RANGE_TOO_LARGE"],
      ["/v1/underlying/XOM/chart?interval=366D&bucket=1d", 400, "interval"],
      ["/v1/underlying/XOM/chart?interval=1W&bucket=1d", 400, "interval"],
      ["/v1/underlying/XOM/chart?interval=1D&bucket=2min", 400, "bucket"],
      ["/v1/underlying/XOM/chart?bucket=5min", 400, "interval", "MISSING_PARAMETER"],
      ["/v1/underlying/XOM/chart?interval=1D", 400, "bucket", "MISSING_PARAMETER"],
      ["/v1/underlying/ZZZZ/chart?interval=1D&bucket=5min", 404, "ticker", "SYMBOL_NOT_FOUND"],
      ["/v1/contract/ZZZZ__240315C00100000/chart?interval=1D&bucket=5min", 404, "symbol", "SYMBOL_NOT_FOUND"],
    ];
    await expectRefusedUncharged(h, cases);
  });
});
