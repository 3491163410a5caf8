// Sector flow, market breadth and market tide over a six-ticker universe of light option names;
// every expectation recomputed here from the raw option prints (side against the NBBO for the
// direction) and SPY's minute bars (simulator seed 7, clock 2024-03-06 10:00 ET).
import { beforeAll, describe, expect, it } from "vitest";
import { marketTideRoute } from "../../../../server/modules/flow/market/market-tide";
import { MarketTideQuerySchema } from "../../../../lib/api/flow-market";
import { isMultiLegPrint } from "../../../../lib/market/prints/conditions";
import type { OptionPrint } from "../../../../lib/market/market-data";
import { sessionBounds } from "../../../../lib/time";
import { aggressionSign, firOf, premiumOf, printsOf, tickerTotals, type TickerTotals } from "./_market-expect";
import { body, flowHarness, NOW_MS, PRIOR, TODAY, type FlowHarness } from "./_flow-harness";

const UNIVERSE = ["NOW", "TXN", "IBM", "COP", "LMT", "XLRE"];
const SECTOR: Record<string, string> = {
  NOW: "Information Technology",
  TXN: "Information Technology",
  IBM: "Information Technology",
  COP: "Energy",
  LMT: "Industrials",
  XLRE: "Real Estate",
};
const INDUSTRY: Record<string, string> = { NOW: "Software", TXN: "Semiconductors & Semiconductor Equipment", IBM: "IT Services" };
let h: FlowHarness;
let today: Map<string, OptionPrint[]>;
let totals: TickerTotals[];
const balance = () => h.accounts.balance(h.accountId);

beforeAll(async () => {
  h = flowHarness({ credits: 10_000, universe: UNIVERSE });
  today = new Map();
  for (const t of UNIVERSE) today.set(t, await printsOf(h.sim, t, TODAY, NOW_MS));
  totals = UNIVERSE.map((t) => tickerTotals(t, today.get(t)!)).filter((t) => t.totalVolume > 0);
}, 60_000);

describe("/v1/flow/sector/{sector}", () => {
  it("a sector name alias: the members' flow, FIR, top contributors by |net premium| and industries; 3 credits", async () => {
    const members = totals.filter((t) => SECTOR[t.ticker] === "Information Technology");
    expect(members.length).toBe(3);
    const before = balance();
    const res = await h.get("/v1/flow/sector/technology?top_n=2");
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 3);
    const d = (await body(res)).data;
    expect(d).toMatchObject({ sector: "Information Technology", etf: "XLK", date: TODAY, tickerCount: 3 });
    const sum = (f: (t: TickerTotals) => number) => members.reduce((s, t) => s + f(t), 0);
    expect(d.metrics.totalVolume).toBe(sum((t) => t.totalVolume));
    expect(d.metrics.netVolume).toBe(sum((t) => t.callVolume - t.putVolume));
    expect(d.metrics.totalPremium).toBeCloseTo(
      sum((t) => t.totalPremium),
      2,
    );
    expect(d.metrics.netPremium).toBeCloseTo(
      sum((t) => t.callPremium - t.putPremium),
      2,
    );
    expect(d.metrics.fir).toBeCloseTo(
      firOf(
        sum((t) => t.bullish),
        sum((t) => t.bearish),
      ),
      9,
    );
    expect(d.metrics.putCallRatio).toBeCloseTo(sum((t) => t.putVolume) / sum((t) => t.callVolume), 12);
    const net = (t: TickerTotals) => t.callPremium - t.putPremium;
    const ranked = [...members].sort((a, b) => Math.abs(net(b)) - Math.abs(net(a)));
    expect(d.topContributors.map((c: any) => c.ticker)).toEqual(ranked.slice(0, 2).map((t) => t.ticker));
    const absSum = sum((t) => Math.abs(net(t)));
    d.topContributors.forEach((c: any, i: number) => {
      expect(c.pctOfSector).toBeCloseTo((100 * Math.abs(net(ranked[i]))) / absSum, 9);
    });
    expect(d.industryBreakdown.map((i: any) => i.industry)).toEqual([...members].sort((a, b) => b.totalPremium - a.totalPremium).map((t) => INDUSTRY[t.ticker]));
    expect(d.industryBreakdown.reduce((s: number, i: any) => s + i.pctOfSector, 0)).toBeCloseTo(100, 9);
  });

  it("an ETF symbol in any case resolves the same sector; the sector fund counts as a member", async () => {
    const a = (await body(await h.get("/v1/flow/sector/xlk"))).data;
    const b = (await body(await h.get("/v1/flow/sector/Information%20Technology"))).data;
    expect(a).toEqual(b);
    const re = (await body(await h.get("/v1/flow/sector/XLRE"))).data;
    expect(re).toMatchObject({ sector: "Real Estate", etf: "XLRE" });
    const xlre = totals.find((t) => t.ticker === "XLRE");
    expect(re.tickerCount).toBe(xlre ? 1 : 0);
    if (xlre) expect(re.metrics.totalVolume).toBe(xlre.totalVolume);
  });

  it("404 NOT_FOUND naming `sector` for an unknown sector, 400 for top_n out of range; uncharged", async () => {
    const before = balance();
    for (const proto of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      const r = await h.get(`/v1/flow/sector/${proto}`);
      expect(r.status, proto).toBe(404);
      expect((await body(r)).error.code, proto).toBe("NOT_FOUND");
    }
    const res = await h.get("/v1/flow/sector/Crypto");
    expect(res.status).toBe(404);
    const { error } = await body(res);
    expect(error.code).toBe("NOT_FOUND");
    expect(error.message).toContain("sector");
    expect(error.message).toContain("XLK");
    for (const qs of ["top_n=0", "top_n=51"]) {
      const r = await h.get(`/v1/flow/sector/XLK?${qs}`);
      expect(r.status, qs).toBe(400);
      expect((await body(r)).error.message).toContain("top_n");
    }
    expect(balance()).toBe(before);
  });
});

describe("/v1/flow/market-breadth", () => {
  it("advance/decline by each ticker's FIR against fir_threshold; sector rotation per sector ETF; 3 credits", async () => {
    for (const threshold of [10, 35]) {
      const firs = totals.map((t) => firOf(t.bullish, t.bearish));
      const adv = firs.filter((f) => f > 0 && f >= threshold).length;
      const dec = firs.filter((f) => f < 0 && f <= -threshold).length;
      const before = balance();
      const res = await h.get(`/v1/flow/market-breadth?fir_threshold=${threshold}`);
      expect(res.status).toBe(200);
      expect(balance()).toBe(before - 3);
      const d = (await body(res)).data;
      expect(d.date).toBe(TODAY);
      expect(d.majorIndices).toEqual([]);
      expect(d.advanceDecline).toMatchObject({ advancing: adv, declining: dec, unchanged: totals.length - adv - dec, total: totals.length });
      expect(d.advanceDecline.breadthPct).toBeCloseTo((100 * adv) / totals.length, 9);
      expect(d.advanceDecline.ratio).toBeCloseTo(dec > 0 ? Math.min(adv / dec, 100) : 0, 9);
      expect(d.advanceDecline.marketAvgFir).toBeCloseTo(firs.reduce((s, f) => s + f, 0) / firs.length, 9);
      expect(d.sectorRotation).toHaveLength(11);
      const it = d.sectorRotation.find((s: any) => s.etf === "XLK");
      const tech = totals.filter((t) => SECTOR[t.ticker] === "Information Technology");
      const bull = tech.reduce((s, t) => s + t.bullish, 0);
      const bear = tech.reduce((s, t) => s + t.bearish, 0);
      expect(it.fir).toBeCloseTo(firOf(bull, bear), 9);
      expect(it.netPremium).toBeCloseTo(bull - bear, 2);
      const fin = d.sectorRotation.find((s: any) => s.etf === "XLF");
      expect(fin).toEqual({ sector: "Financials", etf: "XLF", fir: 0, netPremium: 0, signal: "neutral" });
    }
  });

  it("400 naming fir_threshold outside 0..100; uncharged", async () => {
    const before = balance();
    for (const qs of ["fir_threshold=-1", "fir_threshold=101", "fir_threshold=abc"]) {
      const res = await h.get(`/v1/flow/market-breadth?${qs}`);
      expect(res.status, qs).toBe(400);
      expect((await body(res)).error.message).toContain("fir_threshold");
    }
    expect(balance()).toBe(before);
  });
});

describe("/v1/market/tide", () => {
  interface Bucket {
    ncp: number;
    npp: number;
    mNcp: number;
    mNpp: number;
    call: number;
    put: number;
  }
  /** Sums of the prints of every ticker with `from <= tsMs < to`. */
  async function bucketOf(date: string, fromMs: number, toMs: number, keep: (p: OptionPrint) => boolean = () => true): Promise<Bucket> {
    const b: Bucket = { ncp: 0, npp: 0, mNcp: 0, mNpp: 0, call: 0, put: 0 };
    for (const t of UNIVERSE) {
      for (const p of date === TODAY ? today.get(t)! : await printsOf(h.sim, t, date, NOW_MS)) {
        if (p.tsMs < fromMs || p.tsMs >= toMs) continue;
        if (p.right === "C") b.call += p.size;
        else b.put += p.size;
        if (!keep(p)) continue;
        const prem = premiumOf(p);
        if (p.right === "C") {
          b.ncp += aggressionSign(p) * prem;
          b.mNcp += aggressionSign(p, true) * prem;
        } else {
          b.npp += aggressionSign(p) * prem;
          b.mNpp += aggressionSign(p, true) * prem;
        }
      }
    }
    return b;
  }
  function expectBar(bar: any, b: Bucket) {
    expect(bar.callVolume).toBe(b.call);
    expect(bar.putVolume).toBe(b.put);
    expect(bar.totalVolume).toBe(b.call + b.put);
    expect(bar.ncp).toBeCloseTo(b.ncp, 2);
    expect(bar.npp).toBeCloseTo(b.npp, 2);
    expect(bar.manualNcp).toBeCloseTo(b.mNcp, 2);
    expect(bar.manualNpp).toBeCloseTo(b.mNpp, 2);
  }

  it("1D in 5-minute buckets: each bucket's net call/put premium from the prints, cumulative sums, SPY's last close; 3 credits", async () => {
    const { openMs } = sessionBounds(TODAY);
    const spy = await h.sim.minuteBars("SPY", openMs, NOW_MS);
    const before = balance();
    const res = await h.get("/v1/market/tide");
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 3);
    const { data, meta } = await body(res);
    expect(meta).toMatchObject({ dateStart: TODAY, dateEnd: TODAY, sessions: 1 });
    expect(data).toMatchObject({ interval: "1D", bucket: "5min" });
    expect(data.bars).toHaveLength(6);
    let cum = 0;
    for (let i = 0; i < 6; i++) {
      const from = openMs + i * 300_000;
      const bar = data.bars[i];
      expect(bar.timestamp).toBe(from / 1000);
      expect(bar.timestampEnd).toBe(from / 1000 + 300);
      expect(bar.isGap).toBe(false);
      const b = await bucketOf(TODAY, from, from + 300_000);
      expectBar(bar, b);
      cum += b.ncp;
      expect(bar.ncpCumulative).toBeCloseTo(cum, 2);
      let last = 0;
      for (let k = 0; k < spy.t.length; k++) if (spy.t[k] < from + 300_000) last = spy.c[k];
      expect(bar.spyPrice).toBe(last);
    }
  });

  it("2D in 30-minute buckets: the prior session's 13 bars, one gap bar, today's bar; 1d buckets give one bar per session", async () => {
    const prior = sessionBounds(PRIOR);
    const todayOpen = sessionBounds(TODAY).openMs;
    const { data } = await body(await h.get("/v1/market/tide?interval=2D&bucket=30min"));
    expect(data.bars).toHaveLength(15);
    const gap = data.bars[13];
    expect(gap).toMatchObject({ timestamp: prior.closeMs / 1000, timestampEnd: todayOpen / 1000, isGap: true, ncp: 0, npp: 0, totalVolume: 0 });
    expect(gap.ncpCumulative).toBe(data.bars[12].ncpCumulative);
    expectBar(data.bars[3], await bucketOf(PRIOR, prior.openMs + 3 * 1_800_000, prior.openMs + 4 * 1_800_000));
    expectBar(data.bars[14], await bucketOf(TODAY, todayOpen, NOW_MS));
    const daily = (await body(await h.get("/v1/market/tide?interval=2D&bucket=1d"))).data.bars;
    expect(daily).toHaveLength(2);
    expect(daily[0]).toMatchObject({ timestamp: prior.openMs / 1000, timestampEnd: prior.closeMs / 1000, isGap: false });
    expectBar(daily[0], await bucketOf(PRIOR, prior.openMs, prior.closeMs));
    expectBar(daily[1], await bucketOf(TODAY, todayOpen, NOW_MS));
    expect(daily[1].nppCumulative).toBeCloseTo(data.bars[14].nppCumulative, 2);
  }, 60_000);

  it("exclude_multi_leg and exclude_deep_itm leave those prints out of the net premiums (not the volumes); deep ITM costs 3 per session", async () => {
    const { openMs } = sessionBounds(TODAY);
    const noMl = (await body(await h.get("/v1/market/tide?bucket=30min&exclude_multi_leg=true"))).data.bars[0];
    expectBar(noMl, await bucketOf(TODAY, openMs, NOW_MS, (p) => !isMultiLegPrint(p)));
    const mny = (p: OptionPrint) =>
      p.right === "C" ? (100 * (p.strike - p.underlyingPrice)) / p.underlyingPrice : (100 * (p.underlyingPrice - p.strike)) / p.underlyingPrice;
    const before = balance();
    const res = await h.get("/v1/market/tide?interval=2D&bucket=1d&exclude_deep_itm=true");
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 6);
    const bars = (await body(res)).data.bars;
    expectBar(bars[1], await bucketOf(TODAY, openMs, NOW_MS, (p) => !(mny(p) < -20)));
    const all = await bucketOf(TODAY, openMs, NOW_MS);
    const kept = await bucketOf(TODAY, openMs, NOW_MS, (p) => !(mny(p) < -20));
    expect(kept.ncp).not.toBeCloseTo(all.ncp, 0);
  }, 60_000);

  it("credits: 3 per started 30 sessions (360D = 36), 3 per session with exclude_deep_itm", () => {
    const cost = marketTideRoute.cost as (q: unknown) => number;
    const q = (raw: Record<string, string>) => MarketTideQuerySchema.parse(raw);
    expect(cost(q({}))).toBe(3);
    expect(cost(q({ interval: "30D", bucket: "1d" }))).toBe(3);
    expect(cost(q({ interval: "45D", bucket: "1d" }))).toBe(6);
    expect(cost(q({ interval: "360D", bucket: "1w" }))).toBe(36);
    expect(cost(q({ interval: "5D", exclude_deep_itm: "true" }))).toBe(15);
  });

  it("400 naming `interval` for intraday buckets over 30D or exclude_deep_itm over 5D, and bad enums; uncharged", async () => {
    const before = balance();
    for (const [qs, param] of [
      ["interval=45D&bucket=1min", "interval"],
      ["interval=45D", "interval"],
      ["interval=7D&bucket=1d&exclude_deep_itm=true", "interval"],
      ["interval=4D", "interval"],
      ["bucket=1h", "bucket"],
      ["date=2024-03-09", "date"],
      ["exclude_multi_leg=maybe", "exclude_multi_leg"],
    ] as const) {
      const res = await h.get(`/v1/market/tide?${qs}`);
      expect(res.status, qs).toBe(400);
      const { error } = await body(res);
      expect(error.code, qs).toBe("INVALID_PARAMETER");
      expect(error.message, qs).toContain(param);
    }
    expect(balance()).toBe(before);
  });
});
