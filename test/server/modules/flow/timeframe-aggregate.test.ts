// /v1/aggregate/{ticker}: each timeframe's FIR, SDF and VWF recomputed here from the raw option
// prints (side from each print's NBBO via tradeFacts, sweeps from groupSweeps, Flow Scores from the
// object path scoreFlow, not the tape's columnar batch), multi-session timeframes summed by hand,
// decay weights applied by hand, the filters as plain predicates, range pricing and uncharged 4xx.
import { beforeAll, describe, expect, it } from "vitest";
import { groupSweeps, openInterestBySymbol, premiumNorm, scoreFlow, tradeFacts } from "../../../../lib/flow";
import type { OptionPrint } from "../../../../lib/market";
import { previousTradingDay, sessionBounds } from "../../../../lib/time";
import { body, expectRefusedUncharged, flowHarness, PRIOR, type FlowHarness, type RefusedCase } from "./_flow-harness";

let h: FlowHarness;
const balance = () => h.accounts.balance(h.accountId);
const TICKER = "XOM";

interface Row {
  tsMs: number;
  premium: number;
  dir: number;
  sweep: boolean;
  score: number;
  moneyness: string;
  dte: number;
}
const sessions = new Map<string, Row[]>();

/** The session's prints as plain rows: premium, direction, sweep flag and Flow Score. */
async function rows(date: string): Promise<Row[]> {
  const cached = sessions.get(date);
  if (cached) return cached;
  const { openMs, closeMs } = sessionBounds(date);
  const prints: OptionPrint[] = await h.sim.optionPrints(TICKER, openMs, closeMs);
  const prev = sessionBounds(previousTradingDay(date));
  const norm = premiumNorm(await h.sim.optionPrints(TICKER, prev.openMs, prev.closeMs));
  const board = await h.sim.chain(TICKER, openMs);
  const oi = board && board.sessionDate === date ? openInterestBySymbol(board) : new Map<string, number>();
  const scored = scoreFlow(prints, { normPremiumUsd: norm, openInterest: oi });
  const { groupOf } = groupSweeps(prints);
  const out = prints.map((p, i) => {
    const f = tradeFacts(p);
    return {
      tsMs: p.tsMs,
      premium: p.price * p.size * 100,
      dir: f.aggression === 0 ? 0 : f.aggression > 0 === (p.right === "C") ? 1 : -1,
      sweep: groupOf[i] >= 0,
      score: scored[i].flowScore,
      moneyness: f.moneyness,
      dte: f.dte,
    };
  });
  sessions.set(date, out);
  return out;
}

/** VWF, SDF, FIR and counts of rows, each premium weighted by `w(row)` in the three scores. */
function scores(rs: Row[], w: (r: Row) => number = () => 1) {
  let wp = 0,
    sw = 0,
    bull = 0,
    bear = 0,
    sweepP = 0,
    sweepNet = 0,
    total = 0,
    sweeps = 0;
  for (const r of rs) {
    const p = r.premium * w(r);
    total += r.premium;
    wp += p;
    sw += p * r.score;
    if (r.dir > 0) bull += p;
    if (r.dir < 0) bear += p;
    if (r.sweep) {
      sweeps++;
      sweepP += p;
      sweepNet += r.dir * p;
    }
  }
  const vwf = wp > 0 ? sw / wp : 0;
  const sdf = sweepP > 0 ? (100 * sweepNet) / sweepP : 0;
  const fir = bull + bear > 0 ? (100 * (bull - bear)) / (bull + bear) : 0;
  const c = Math.max(-100, Math.min(100, 0.4 * vwf + 0.35 * sdf + 0.25 * fir));
  return { vwf, sdf, fir, composite: c < 0 ? -Math.round(-c) : Math.round(c), count: rs.length, total, sweeps, bull, bear, sweepP };
}

function expectTimeframe(actual: any, e: ReturnType<typeof scores>) {
  expect(actual.tradeCount).toBe(e.count);
  expect(actual.sweepCount).toBe(e.sweeps);
  expect(actual.totalPremium).toBeCloseTo(e.total, 4);
  expect(actual.components.fir).toBeCloseTo(e.fir, 9);
  expect(actual.components.sdf).toBeCloseTo(e.sdf, 9);
  expect(actual.components.vwf).toBeCloseTo(e.vwf, 9);
  expect(actual.components.bullishPremium).toBeCloseTo(e.bull, 4);
  expect(actual.components.bearishPremium).toBeCloseTo(e.bear, 4);
  expect(actual.composite).toBe(e.composite);
}

beforeAll(() => {
  h = flowHarness({ credits: 10_000 });
});

describe("/v1/aggregate/{ticker}", () => {
  it("1h, 4h and 1d of a past session and 7d over seven sessions match the raw prints; trend orders shortest first; 3 credits", async () => {
    const before = balance();
    const res = await h.get(`/v1/aggregate/xom?timeframes=7d,1h,1d,4h&date=${PRIOR}`);
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 3);
    const { data, meta } = await body(res);
    expect(meta.requestId).toBeTruthy();
    expect(data.ticker).toBe(TICKER);
    expect(Object.keys(data.byTimeframe).sort()).toEqual(["1d", "1h", "4h", "7d"]);
    const day = await rows(PRIOR);
    const { closeMs } = sessionBounds(PRIOR);
    expect(day.length).toBeGreaterThan(100);
    expectTimeframe(data.byTimeframe["1d"], scores(day));
    expectTimeframe(data.byTimeframe["1h"], scores(day.filter((r) => r.tsMs >= closeMs - 3_600_000)));
    expectTimeframe(data.byTimeframe["4h"], scores(day.filter((r) => r.tsMs >= closeMs - 4 * 3_600_000)));
    const week: Row[] = [];
    let d = PRIOR;
    for (let i = 0; i < 7; i++, d = previousTradingDay(d)) week.push(...(await rows(d)));
    expectTimeframe(data.byTimeframe["7d"], scores(week));
    const c = ["1h", "4h", "1d", "7d"].map((k) => data.byTimeframe[k].composite);
    const { shortVsLong } = data.trend;
    const diff = c[0] - c[3];
    if (Math.abs(diff) < 20) expect(shortVsLong).toBe("stable");
    else if (c[0] > 0 && c[3] < 0) expect(shortVsLong).toBe("bullish_divergence");
    else if (c[0] < 0 && c[3] > 0) expect(shortVsLong).toBe("bearish_divergence");
    else expect(shortVsLong).toBe(diff > 0 ? "improving" : "deteriorating");
  });

  it("time decay weights premium by 0.5^(age / half-life) from the session's end, across sessions too", async () => {
    const { data } = await body(await h.get(`/v1/aggregate/XOM?timeframes=1d,7d&date=${PRIOR}&time_decay=true&time_decay_half_life=45`));
    const end = sessionBounds(PRIOR).closeMs;
    const w = (r: Row) => Math.pow(0.5, (end - r.tsMs) / (45 * 60_000));
    expect(data.byTimeframe["1d"].timeDecayApplied).toBe(true);
    expectTimeframe(data.byTimeframe["1d"], scores(await rows(PRIOR), w));
    const week: Row[] = [];
    let d = PRIOR;
    for (let i = 0; i < 7; i++, d = previousTradingDay(d)) week.push(...(await rows(d)));
    const e = scores(week, w);
    expect(data.byTimeframe["7d"].components.fir).toBeCloseTo(e.fir, 6);
    expect(data.byTimeframe["7d"].components.vwf).toBeCloseTo(e.vwf, 6);
  });

  it("moneyness and expiration filters keep the same prints as a plain filter; byMoneyness splits the first timeframe", async () => {
    const { data } = await body(await h.get(`/v1/aggregate/XOM?timeframes=1d&date=${PRIOR}&moneyness_filter=otm&expiration_filter=monthly`));
    const kept = (await rows(PRIOR)).filter((r) => r.moneyness === "OTM" && r.dte >= 8 && r.dte <= 364);
    expect(kept.length).toBeGreaterThan(0);
    expectTimeframe(data.byTimeframe["1d"], scores(kept));
    const m = (await body(await h.get(`/v1/aggregate/XOM?timeframes=4h,1d&date=${PRIOR}&include_moneyness=true&include_breakdown=false`))).data;
    expect(m.byTimeframe["4h"].components).toBeUndefined();
    const four = (await rows(PRIOR)).filter((r) => r.tsMs >= sessionBounds(PRIOR).closeMs - 4 * 3_600_000);
    expect(m.byMoneyness.map((x: any) => x.category)).toEqual(["DEEP_ITM", "ITM", "ATM", "OTM", "DEEP_OTM"]);
    for (const x of m.byMoneyness) {
      const these = four.filter((r) => r.moneyness === x.category);
      expect(x.tradeCount).toBe(these.length);
      expect(x.premium).toBeCloseTo(
        these.reduce((s, r) => s + r.premium, 0),
        4,
      );
    }
    expect(m.byMoneyness.reduce((s: number, x: any) => s + x.pctOfTotal, 0)).toBeCloseTo(100, 9);
    // A session timeframe first: the split comes from per-session sums, same numbers.
    const d = (await body(await h.get(`/v1/aggregate/XOM?timeframes=1d&date=${PRIOR}&include_moneyness=true`))).data;
    for (const x of d.byMoneyness) {
      const these = (await rows(PRIOR)).filter((r) => r.moneyness === x.category);
      expect(x.tradeCount).toBe(these.length);
      expect(x.premium).toBeCloseTo(
        these.reduce((s, r) => s + r.premium, 0),
        4,
      );
      expect(x.composite).toBe(scores(these).composite);
    }
  });

  it("`all` expands to six timeframes and prices 15 credits (checked on the debit, answered from memoised sums)", async () => {
    // Price only: a ticker with no prints keeps the 90-session walk cheap.
    const before = balance();
    const res = await h.get(`/v1/aggregate/XOM?timeframes=all&date=2023-04-03`);
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 15);
    expect(Object.keys((await body(res)).data.byTimeframe)).toEqual(["1h", "4h", "1d", "7d", "30d", "90d"]);
  });

  it("400 naming the parameter for an unknown timeframe, more than 8 entries, a bad filter, a future date; 404 unknown ticker; uncharged", async () => {
    const cases: RefusedCase[] = [
      ["/v1/aggregate/XOM?timeframes=2d", 400, "timeframes"],
      ["/v1/aggregate/XOM?timeframes=1d,1d,1d,1d,1d,1d,1d,1d,1d", 400, "timeframes"],
      ["/v1/aggregate/XOM?moneyness_filter=far", 400, "moneyness_filter"],
      ["/v1/aggregate/XOM?expiration_filter=yearly", 400, "expiration_filter"],
      ["/v1/aggregate/XOM?time_decay_half_life=0", 400, "time_decay_half_life"],
      ["/v1/aggregate/XOM?date=2030-01-02", 400, "date"],
      ["/v1/aggregate/ZZZZ", 404, "ticker", "SYMBOL_NOT_FOUND"],
    ];
    await expectRefusedUncharged(h, cases);
  });

  it("prototype names are not timeframes: 400 naming `timeframes`, uncharged (they once priced the call at NaN and served it free)", async () => {
    const names = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "__defineGetter__"];
    const cases: RefusedCase[] = names.flatMap((n): RefusedCase[] => [
      [`/v1/aggregate/XOM?timeframes=1d,4h,1h,${n}`, 400, "timeframes"],
      [`/v1/aggregate/XOM?timeframes=${n}`, 400, "timeframes"],
    ]);
    await expectRefusedUncharged(h, cases);
  });

  it("an account without credits gets 402 for any valid list and 400 for a list with a prototype name; no ledger row", async () => {
    const poor = await h.accounts.createAccount({ plan: "top", credits: 0 });
    const get = (q: string) => h.get(`/v1/aggregate/XOM?${q}`, { key: poor.key });
    expect((await get("timeframes=1d")).status).toBe(402);
    const res = await get("timeframes=1d,4h,1h,constructor");
    expect(res.status).toBe(400);
    expect((await body(res)).error.message).toContain("timeframes");
    expect(await h.accounts.balance(poor.accountId)).toBe(0);
  });
});
