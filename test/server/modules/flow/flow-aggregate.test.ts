// /v1/flow/{ticker}/aggregate: counts, premium split, FIR and SDF recomputed here from the raw option
// prints of the window (side from each print's NBBO via tradeFacts, direction folded with the right
// by hand, sweeps from groupSweeps over the session), the composite rule and labels checked against
// the methodology's thresholds, and uncharged 4xx in the flow module's codes.
import { beforeAll, describe, expect, it } from "vitest";
import { dteDays, groupSweeps, tradeFacts } from "../../../../lib/flow";
import { isMultiLegPrint } from "../../../../lib/market/prints/conditions";
import type { OptionPrint } from "../../../../lib/market";
import { sessionBounds } from "../../../../lib/time";
import { body, expectRefusedUncharged, flowHarness, NOW_MS, TODAY, type FlowHarness, type RefusedCase } from "./_flow-harness";

let h: FlowHarness;
let session: OptionPrint[];
let sweepOf: Int32Array;
const balance = () => h.accounts.balance(h.accountId);
// 2024-03-06 is EST (UTC-5): 09:40 to 09:55 ET.
const FROM = "2024-03-06T14:40:00Z";
const TO = "2024-03-06T14:55:00Z";

beforeAll(async () => {
  h = flowHarness({ credits: 10_000 });
  session = await h.sim.optionPrints("AAPL", sessionBounds(TODAY).openMs, NOW_MS);
  sweepOf = groupSweeps(session).groupOf;
});

/** The premium split, FIR and SDF of the session's prints in `[fromMs, toMs)` passing `keep`, computed plainly. */
function expected(fromMs: number, toMs: number, keep: (p: OptionPrint) => boolean = () => true) {
  let count = 0,
    sweeps = 0,
    total = 0,
    bull = 0,
    bear = 0,
    neutral = 0,
    bullN = 0,
    bearN = 0,
    neutralN = 0,
    sweepPrem = 0,
    sweepNet = 0;
  session.forEach((p, i) => {
    if (p.tsMs < fromMs || p.tsMs >= toMs || !keep(p)) return;
    const prem = p.price * p.size * 100;
    const a = tradeFacts(p).aggression;
    const dir = a === 0 ? 0 : a > 0 === (p.right === "C") ? 1 : -1;
    count++;
    total += prem;
    if (dir > 0) {
      bull += prem;
      bullN++;
    } else if (dir < 0) {
      bear += prem;
      bearN++;
    } else {
      neutral += prem;
      neutralN++;
    }
    if (sweepOf[i] >= 0) {
      sweeps++;
      sweepPrem += prem;
      sweepNet += dir * prem;
    }
  });
  return {
    count,
    sweeps,
    total,
    bull,
    bear,
    neutral,
    bullN,
    bearN,
    neutralN,
    sweepPrem,
    fir: bull + bear > 0 ? (100 * (bull - bear)) / (bull + bear) : 0,
    sdf: sweepPrem > 0 ? (100 * sweepNet) / sweepPrem : 0,
  };
}

describe("/v1/flow/{ticker}/aggregate", () => {
  it("counts, premium split, FIR and SDF of the window's prints; composite and labels follow the rule; 3 credits", async () => {
    const before = balance();
    const res = await h.get(`/v1/flow/aapl/aggregate?start_time=${FROM}&end_time=${TO}`);
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 3);
    const { data, meta } = await body(res);
    const e = expected(Date.parse(FROM), Date.parse(TO));
    expect(e.count).toBeGreaterThan(20);
    expect(e.count).toBeLessThan(session.length);
    expect(meta.requestId).toBeTruthy();
    expect(data).toMatchObject({
      ticker: "AAPL",
      date: TODAY,
      startTime: "2024-03-06T14:40:00.000Z",
      endTime: "2024-03-06T14:55:00.000Z",
      tradeCount: e.count,
      sweepCount: e.sweeps,
      premiumSplit: { bullishCount: e.bullN, bearishCount: e.bearN, neutralCount: e.neutralN },
    });
    expect(data.totalPremium).toBeCloseTo(e.total, 4);
    expect(data.premiumSplit.bullishPremium).toBeCloseTo(e.bull, 4);
    expect(data.premiumSplit.bearishPremium).toBeCloseTo(e.bear, 4);
    expect(data.premiumSplit.neutralPremium).toBeCloseTo(e.neutral, 4);
    expect(data.premiumSplit.netPremium).toBeCloseTo(e.bull - e.bear, 4);
    expect(data.premiumSplit.sweepPremium).toBeCloseTo(e.sweepPrem, 4);
    expect(data.aggregate.fir).toBeCloseTo(e.fir, 9);
    expect(data.aggregate.sdf).toBeCloseTo(e.sdf, 9);
    const { vwf, sdf, fir, composite } = data.aggregate;
    expect(Math.abs(vwf)).toBeLessThanOrEqual(100);
    expect(composite).toBeCloseTo(Math.max(-100, Math.min(100, 0.4 * vwf + 0.35 * sdf + 0.25 * fir)), 9);
    const bias = composite >= 60 ? "STRONG_BULLISH" : composite >= 20 ? "BULLISH" : composite <= -60 ? "STRONG_BEARISH" : composite <= -20 ? "BEARISH" : "NEUTRAL";
    expect(data.interpretation.bias).toBe(bias);
    const strength = Math.abs(composite) < 20 ? "neutral" : e.count < 100 ? "weak" : Math.abs(composite) >= 60 ? "strong" : "moderate";
    expect(data.interpretation.signalStrength).toBe(strength);
    expect(Number.isInteger(data.queryTimeMs) && data.queryTimeMs >= 0).toBe(true);
  });

  it("Unix seconds name the same window; a window past now is clipped to now and one before the open to the open", async () => {
    const a = (await body(await h.get(`/v1/flow/AAPL/aggregate?start_time=${FROM}&end_time=${TO}`))).data;
    const b = (await body(await h.get(`/v1/flow/AAPL/aggregate?start_time=${Date.parse(FROM) / 1000}&end_time=${Date.parse(TO) / 1000}`))).data;
    expect(b).toEqual({ ...a, queryTimeMs: b.queryTimeMs });
    const whole = (await body(await h.get("/v1/flow/AAPL/aggregate?start_time=2024-03-06T12:00:00Z&end_time=2024-03-06T20:00:00Z"))).data;
    expect(whole.startTime).toBe(new Date(sessionBounds(TODAY).openMs).toISOString());
    expect(whole.endTime).toBe(new Date(NOW_MS).toISOString());
    expect(whole.tradeCount).toBe(session.length);
  });

  it("option_type, min_premium, exclude_multi_leg and a DTE range keep the same prints as a plain filter", async () => {
    const q = "option_type=put&min_premium=200&exclude_multi_leg=true&min_dte=1&max_dte=60";
    const { data } = await body(await h.get(`/v1/flow/AAPL/aggregate?start_time=${FROM}&end_time=${TO}&${q}`));
    const e = expected(Date.parse(FROM), Date.parse(TO), (p) => {
      const dte = dteDays(TODAY, p.expiry);
      return p.right === "P" && p.price * p.size * 100 >= 200 && !isMultiLegPrint(p) && dte >= 1 && dte <= 60;
    });
    expect(e.count).toBeGreaterThan(0);
    expect(data.tradeCount).toBe(e.count);
    expect(data.totalPremium).toBeCloseTo(e.total, 4);
    expect(data.aggregate.fir).toBeCloseTo(e.fir, 9);
  });

  it("400 naming the parameter (MISSING_PARAMETER when absent) for a missing or malformed start_time, reversed bounds, bad option_type; 404 for an unknown ticker; uncharged", async () => {
    const cases: RefusedCase[] = [
      [`/v1/flow/AAPL/aggregate?end_time=${TO}`, 400, "start_time", "MISSING_PARAMETER"],
      [`/v1/flow/AAPL/aggregate?start_time=yesterday&end_time=${TO}`, 400, "start_time"],
      [`/v1/flow/AAPL/aggregate?start_time=${TO}&end_time=${FROM}`, 400, "start_time"],
      [`/v1/flow/AAPL/aggregate?start_time=${FROM}&end_time=${TO}&option_type=both`, 400, "option_type"],
      [`/v1/flow/AAPL/aggregate?start_time=${FROM}&end_time=${TO}&min_dte=9&max_dte=2`, 400, "min_dte"],
      [`/v1/flow/AAPL/aggregate?start_time=2024-03-09T15:00:00Z&end_time=2024-03-09T16:00:00Z`, 400, "start_time"],
      [`/v1/flow/ZZZZ/aggregate?start_time=${FROM}&end_time=${TO}`, 404, "ticker", "SYMBOL_NOT_FOUND"],
    ];
    await expectRefusedUncharged(h, cases);
  });
});
