// /v1/vol-oi/{ticker} and /v1/moneyness/{ticker}: sums recomputed here from the raw option prints
// and the opening board (volume per contract, OI at the open, moneyness against the last print's
// underlying price; premium, direction and category per print by hand), the filters, and uncharged 4xx.
import { beforeAll, describe, expect, it } from "vitest";
import { openInterestBySymbol, tradeFacts } from "../../../../lib/flow";
import type { OptionPrint } from "../../../../lib/market";
import { parseOptionSymbol } from "../../../../lib/symbols";
import { previousTradingDay, sessionBounds } from "../../../../lib/time";
import { body, expectRefusedUncharged, flowHarness, PRIOR, type FlowHarness, type RefusedCase } from "./_flow-harness";

let h: FlowHarness;
const balance = () => h.accounts.balance(h.accountId);
const TICKER = "XOM";

async function prints(date: string): Promise<OptionPrint[]> {
  const { openMs, closeMs } = sessionBounds(date);
  return h.sim.optionPrints(TICKER, openMs, closeMs);
}

/** Contract volumes over `dates` against the OI at the first one's open, summed by hand. */
async function volOi(dates: string[], keep: (right: string, otm: number, oi: number) => boolean = () => true) {
  const board = (await h.sim.chain(TICKER, sessionBounds(dates[0]).openMs))!;
  expect(board.sessionDate).toBe(dates[0]);
  const oi = openInterestBySymbol(board);
  const vol = new Map<string, number>();
  let spot = board.spot;
  for (const d of dates) {
    for (const p of await prints(d)) {
      vol.set(p.symbol, (vol.get(p.symbol) ?? 0) + p.size);
      spot = p.underlyingPrice;
    }
  }
  const out = { C: { v: 0, oi: 0, far: { v: 0, oi: 0 } }, P: { v: 0, oi: 0, far: { v: 0, oi: 0 } }, excess: 0, otmV: 0 };
  for (const symbol of new Set([...oi.keys(), ...vol.keys()])) {
    const c = parseOptionSymbol(symbol);
    const v = vol.get(symbol) ?? 0;
    const o = oi.get(symbol) ?? 0;
    const otm = (100 * (c.right === "C" ? c.strike - spot : spot - c.strike)) / spot;
    if (!keep(c.right, otm, o)) continue;
    const a = out[c.right];
    a.v += v;
    a.oi += o;
    if (otm >= 10) {
      a.far.v += v;
      a.far.oi += o;
    }
    if (otm >= 3) out.otmV += v;
    out.excess += Math.max(0, v - o);
  }
  return out;
}

beforeAll(() => {
  h = flowHarness({ credits: 10_000 });
});

describe("/v1/vol-oi/{ticker}", () => {
  it("daily: volume and opening OI by type and band, score and opening share match the raw prints; 1 credit", async () => {
    const before = balance();
    const res = await h.get(`/v1/vol-oi/xom?date=${PRIOR}`);
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 1);
    const { data } = await body(res);
    const e = await volOi([PRIOR]);
    expect(data).toMatchObject({ ticker: TICKER, timeframe: "daily", timestamp: new Date(sessionBounds(PRIOR).closeMs).toISOString() });
    const { calls, puts } = data.volOiAnalysis;
    expect([calls.totalVolume, calls.totalOi, puts.totalVolume, puts.totalOi]).toEqual([e.C.v, e.C.oi, e.P.v, e.P.oi]);
    expect(calls.totalVolume).toBeGreaterThan(0);
    expect(calls.byMoneyness.otm10plus).toMatchObject({ volume: e.C.far.v, oi: e.C.far.oi });
    expect(calls.volOiRatio).toBeCloseTo(e.C.v / e.C.oi, 12);
    const V = e.C.v + e.P.v;
    const R = V / (e.C.oi + e.P.oi);
    expect(data.accumulationScore).toBe(Math.round(70 * Math.min(1, R) + 30 * (e.otmV / V)));
    expect(data.newPositionEstimatePct).toBe(Math.round((100 * e.excess) / V));
    const sig = R >= 1 ? "strong_accumulation" : R >= 0.5 ? "accumulation" : R >= 0.2 ? "mixed" : R >= 0.05 ? "distribution" : "low_activity";
    expect(data.signal).toBe(sig);
  });

  it("weekly sums five sessions against the first one's opening OI; option_type, min_oi and moneyness filter", async () => {
    const dates = [PRIOR];
    while (dates.length < 5) dates.unshift(previousTradingDay(dates[0]));
    const { data } = await body(await h.get(`/v1/vol-oi/XOM?date=${PRIOR}&timeframe=weekly`));
    const e = await volOi(dates);
    expect(data.timeframe).toBe("weekly");
    expect([data.volOiAnalysis.calls.totalVolume, data.volOiAnalysis.puts.totalOi]).toEqual([e.C.v, e.P.oi]);
    const f = (await body(await h.get(`/v1/vol-oi/XOM?date=${PRIOR}&option_type=put&min_oi=500&moneyness=otm_10plus`))).data;
    const ef = await volOi([PRIOR], (right, otm, oi) => right === "P" && oi >= 500 && otm >= 10);
    expect(f.volOiAnalysis.calls.totalVolume).toBe(0);
    expect(f.volOiAnalysis.puts).toMatchObject({ totalVolume: ef.P.v, totalOi: ef.P.oi });
    expect(f.volOiAnalysis.puts.byMoneyness.otm10plus).toMatchObject({ volume: ef.P.v, oi: ef.P.oi });
    expect(f.volOiAnalysis.puts.byMoneyness.atmItm).toEqual({ volume: 0, oi: 0, ratio: 0 });
  });
});

describe("/v1/moneyness/{ticker}", () => {
  const KEYS = ["deepItm", "itm", "atm", "otm", "deepOtm"];
  const CATS = ["DEEP_ITM", "ITM", "ATM", "OTM", "DEEP_OTM"];

  function cells(ps: OptionPrint[]) {
    const out: Record<string, { premium: number; net: number; n: number }> = {};
    let total = 0;
    for (const p of ps) {
      const f = tradeFacts(p);
      const k = `${p.right}${f.moneyness}`;
      const prem = p.price * p.size * 100;
      const dir = f.aggression === 0 ? 0 : f.aggression > 0 === (p.right === "C") ? 1 : -1;
      out[k] ??= { premium: 0, net: 0, n: 0 };
      out[k].premium += prem;
      out[k].net += dir * prem;
      out[k].n++;
      total += prem;
    }
    return { out, total };
  }

  function expectCells(data: any, ps: OptionPrint[]) {
    const { out, total } = cells(ps);
    for (const [right, block] of [
      ["C", data.moneynessBreakdown.calls],
      ["P", data.moneynessBreakdown.puts],
    ] as const) {
      KEYS.forEach((key, i) => {
        const e = out[`${right}${CATS[i]}`] ?? { premium: 0, net: 0, n: 0 };
        expect(block[key].tradeCount, `${right} ${key}`).toBe(e.n);
        expect(block[key].premium).toBeCloseTo(e.premium, 4);
        expect(block[key].pctOfTotal).toBeCloseTo((100 * e.premium) / total, 9);
        const s = e.premium > 0 ? (100 * e.net) / e.premium : 0;
        expect(Math.abs(block[key].sentiment - s)).toBeLessThanOrEqual(0.5 + 1e-9);
      });
    }
    return { out, total };
  }

  it("daily: premium, sentiment, shares and counts per type and category match the raw prints; patterns follow their rules; 1 credit", async () => {
    const before = balance();
    const res = await h.get(`/v1/moneyness/XOM?date=${PRIOR}`);
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 1);
    const { data } = await body(res);
    expect(data).toMatchObject({ ticker: TICKER, timeframe: "daily" });
    const { out, total } = expectCells(data, await prints(PRIOR));
    const sum = (...ks: string[]) => ks.reduce((s, k) => s + (out[k]?.premium ?? 0), 0);
    const calls = sum(...CATS.map((c) => `C${c}`));
    const puts = sum(...CATS.map((c) => `P${c}`));
    const names = data.notablePatterns.map((p: any) => p.pattern);
    expect(names.includes("heavy_call_skew")).toBe(calls > 0 && calls >= 2 * puts);
    expect(names.includes("heavy_put_skew")).toBe(puts > 0 && puts >= 2 * calls);
    expect(names.includes("atm_concentration")).toBe((100 * sum("CATM", "PATM")) / total >= 40);
    const signed = Object.values(out).reduce((s, c) => s + c.net, 0);
    const S = (100 * signed) / total;
    const sig = S >= 40 ? "bullish" : S >= 15 ? "moderately_bullish" : S <= -40 ? "bearish" : S <= -15 ? "moderately_bearish" : "neutral";
    expect(data.interpretation.signal).toBe(sig);
  });

  it("intraday is the last hour of the session; min_premium drops small prints", async () => {
    const close = sessionBounds(PRIOR).closeMs;
    const { data } = await body(await h.get(`/v1/moneyness/XOM?date=${PRIOR}&timeframe=intraday&min_premium=100`));
    expect(data.timeframe).toBe("intraday");
    const ps = (await prints(PRIOR)).filter((p) => p.tsMs >= close - 3_600_000 && p.price * p.size * 100 >= 100);
    expect(ps.length).toBeGreaterThan(0);
    expectCells(data, ps);
  });

  it("400 naming the parameter for a bad timeframe, option_type, moneyness band, min_oi, min_premium or date; 404 unknown ticker; uncharged", async () => {
    const cases: RefusedCase[] = [
      ["/v1/vol-oi/XOM?timeframe=monthly", 400, "timeframe"],
      ["/v1/vol-oi/XOM?option_type=both", 400, "option_type"],
      ["/v1/vol-oi/XOM?moneyness=otm", 400, "moneyness"],
      ["/v1/vol-oi/XOM?min_oi=-1", 400, "min_oi"],
      ["/v1/vol-oi/XOM?date=2024-03-09", 400, "date"],
      ["/v1/moneyness/XOM?timeframe=1h", 400, "timeframe"],
      ["/v1/moneyness/XOM?min_premium=-5", 400, "min_premium"],
      ["/v1/moneyness/XOM?date=20240305", 400, "date"],
      ["/v1/vol-oi/ZZZZ", 404, "ticker", "SYMBOL_NOT_FOUND"],
      ["/v1/moneyness/ZZZZ", 404, "ticker", "SYMBOL_NOT_FOUND"],
    ];
    await expectRefusedUncharged(h, cases);
  });
});
