// /v1/flow/{ticker}/historical-compare: the session's and the 20 prior sessions' call and put
// totals summed here from the raw option prints, then averages, multiples and percentile ranks
// recomputed plainly; similar days are real prior sessions in similarity order; uncharged 4xx.
import { beforeAll, describe, expect, it } from "vitest";
import { previousTradingDay, sessionBounds } from "../../../../lib/time";
import { body, expectRefusedUncharged, flowHarness, PRIOR, type FlowHarness, type RefusedCase } from "./_flow-harness";

let h: FlowHarness;
const balance = () => h.accounts.balance(h.accountId);

async function totals(date: string) {
  const { openMs, closeMs } = sessionBounds(date);
  let cp = 0,
    pp = 0,
    cv = 0,
    pv = 0;
  for (const p of await h.sim.optionPrints("XOM", openMs, closeMs)) {
    const prem = p.price * p.size * 100;
    if (p.right === "C") {
      cp += prem;
      cv += p.size;
    } else {
      pp += prem;
      pv += p.size;
    }
  }
  return { date, total: cp + pp, volume: cv + pv, net: cp - pp, ratio: pv > 0 ? cv / pv : 0, cp, pp, cv, pv };
}

beforeAll(() => {
  h = flowHarness({ credits: 10_000 });
});

describe("/v1/flow/{ticker}/historical-compare", () => {
  it("current metrics, 20-session averages, multiples, percentiles and similar days from the raw prints; 5 credits", async () => {
    const before = balance();
    const res = await h.get(`/v1/flow/xom/historical-compare?date=${PRIOR}`);
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 5);
    const { data } = await body(res);
    const today = await totals(PRIOR);
    const past = [];
    for (let d = previousTradingDay(PRIOR); past.length < 20; d = previousTradingDay(d)) past.push(await totals(d));
    expect(data).toMatchObject({ ticker: "XOM", date: PRIOR });
    expect(data.current).toMatchObject({ totalVolume: today.volume, callVolume: today.cv, putVolume: today.pv });
    expect(data.current.totalPremium).toBeCloseTo(today.total, 4);
    expect(data.current.netPremium).toBeCloseTo(today.net, 4);
    expect(data.current.callPutRatio).toBeCloseTo(today.ratio, 12);
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(data.historical.daysAnalyzed).toBe(20);
    expect(data.historical.avgPremium).toBeCloseTo(mean(past.map((d) => d.total)), 4);
    expect(data.historical.avgVolume).toBeCloseTo(mean(past.map((d) => d.volume)), 9);
    expect(data.historical.avgNetPremium).toBeCloseTo(mean(past.map((d) => d.net)), 4);
    expect(data.historical.avgCallPutRatio).toBeCloseTo(mean(past.map((d) => d.ratio)), 9);
    expect(data.vsAverage.premiumVsAvg).toBeCloseTo(today.total / mean(past.map((d) => d.total)), 9);
    expect(data.vsAverage.netPremiumVsAvg).toBeCloseTo(today.net / Math.abs(mean(past.map((d) => d.net))), 6);
    const pct = (x: number, xs: number[]) => Math.round((100 * (xs.filter((y) => y < x).length + xs.filter((y) => y === x).length / 2)) / xs.length);
    expect(data.percentileRankings.volumePercentile).toBe(
      pct(
        today.volume,
        past.map((d) => d.volume),
      ),
    );
    expect(data.percentileRankings.premiumPercentile).toBe(
      pct(
        today.total,
        past.map((d) => d.total),
      ),
    );
    expect(data.similarDays).toHaveLength(5);
    const dates = new Set(past.map((d) => d.date));
    for (const s of data.similarDays) {
      expect(dates.has(s.date)).toBe(true);
      expect(s.totalPremium).toBeCloseTo(past.find((d) => d.date === s.date)!.total, 4);
      expect(s.similarityScore > 0 && s.similarityScore <= 1).toBe(true);
    }
    for (let i = 1; i < 5; i++) expect(data.similarDays[i - 1].similarityScore).toBeGreaterThanOrEqual(data.similarDays[i].similarityScore);
  });

  it("400 for a malformed, future or non-trading date; 404 unknown ticker; uncharged", async () => {
    const cases: RefusedCase[] = [
      ["/v1/flow/XOM/historical-compare?date=March", 400, "date"],
      ["/v1/flow/XOM/historical-compare?date=2030-01-02", 400, "date"],
      ["/v1/flow/XOM/historical-compare?date=2024-03-09", 400, "date"],
      ["/v1/flow/ZZZZ/historical-compare", 404, "ticker", "SYMBOL_NOT_FOUND"],
    ];
    await expectRefusedUncharged(h, cases);
  });
});
