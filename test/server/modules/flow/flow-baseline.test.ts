// /v1/flow/{ticker}/baseline: each bucket's mean and sample standard deviation of trade count,
// premium and FIR recomputed here from the raw option prints of the two sessions before today
// (side from each print's NBBO via tradeFacts, direction folded with the right by hand), the DTE
// filter, and uncharged 4xx in the flow module's codes.
import { beforeAll, describe, expect, it } from "vitest";
import { dteDays, tradeFacts } from "../../../../lib/flow";
import type { OptionPrint } from "../../../../lib/market";
import { sessionBounds } from "../../../../lib/time";
import { body, expectRefusedUncharged, flowHarness, PRIOR, type FlowHarness, type RefusedCase } from "./_flow-harness";

const EARLIER = "2024-03-04";
let h: FlowHarness;
const days: Array<{ date: string; prints: OptionPrint[] }> = [];
const balance = () => h.accounts.balance(h.accountId);

beforeAll(async () => {
  h = flowHarness({ credits: 10_000 });
  for (const date of [PRIOR, EARLIER]) {
    const { openMs, closeMs } = sessionBounds(date);
    days.push({ date, prints: await h.sim.optionPrints("XOM", openMs, closeMs) });
  }
});

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: number[]) => Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1));

/** Count, premium and FIR of each session's prints in `[ET hh:mm, + minutes)` passing `keep`. */
function perSession(hh: number, mm: number, minutes: number, keep: (p: OptionPrint, date: string) => boolean = () => true) {
  return days.map(({ date, prints }) => {
    const from = sessionBounds(date).openMs + (hh * 60 + mm - 570) * 60_000;
    let count = 0,
      prem = 0,
      bull = 0,
      bear = 0;
    for (const p of prints) {
      if (p.tsMs < from || p.tsMs >= from + minutes * 60_000 || !keep(p, date)) continue;
      const premium = p.price * p.size * 100;
      const a = tradeFacts(p).aggression;
      count++;
      prem += premium;
      if (a !== 0 && a > 0 === (p.right === "C")) bull += premium;
      else if (a !== 0) bear += premium;
    }
    return { count, prem, fir: bull + bear > 0 ? (100 * (bull - bear)) / (bull + bear) : 0 };
  });
}

function expectBucket(got: any, timeOfDay: string, s: Array<{ count: number; prem: number; fir: number }>) {
  expect(got).toMatchObject({ timeOfDay, daysCount: 2 });
  expect(got.avgTradeCount).toBeCloseTo(mean(s.map((x) => x.count)), 9);
  expect(got.stddevTradeCount).toBeCloseTo(sd(s.map((x) => x.count)), 9);
  expect(got.avgPremium).toBeCloseTo(mean(s.map((x) => x.prem)), 4);
  expect(got.stddevPremium).toBeCloseTo(sd(s.map((x) => x.prem)), 4);
  expect(got.avgFir).toBeCloseTo(mean(s.map((x) => x.fir)), 6);
  expect(got.stddevFir).toBeCloseTo(sd(s.map((x) => x.fir)), 6);
}

describe("/v1/flow/{ticker}/baseline", () => {
  it("30-minute buckets from 09:30 to 11:00 over the two prior sessions match the raw prints; 3 credits", async () => {
    const before = balance();
    const res = await h.get("/v1/flow/xom/baseline?bucket=30min&lookback_days=2&start_time_of_day=09:30&end_time_of_day=11:00");
    expect(res.status).toBe(200);
    expect(balance()).toBe(before - 3);
    const { data } = await body(res);
    expect(data).toMatchObject({ ticker: "XOM", bucket: "30min", lookbackDays: 2, startTimeOfDay: "09:30", endTimeOfDay: "11:00" });
    expect(data.buckets.map((b: any) => b.timeOfDay)).toEqual(["09:30", "10:00", "10:30"]);
    const first = perSession(9, 30, 30);
    expect(first.every((x) => x.count > 0)).toBe(true);
    expectBucket(data.buckets[0], "09:30", first);
    expectBucket(data.buckets[1], "10:00", perSession(10, 0, 30));
    expectBucket(data.buckets[2], "10:30", perSession(10, 30, 30));
  });

  it("max_dte keeps the same prints as a plain filter (DTE from each session's date)", async () => {
    const { data } = await body(await h.get("/v1/flow/XOM/baseline?bucket=1h&lookback_days=2&start_time_of_day=15:00&max_dte=7"));
    expect(data.buckets).toHaveLength(1);
    const s = perSession(15, 0, 60, (p, date) => dteDays(date, p.expiry) <= 7);
    expect(s.some((x) => x.count > 0)).toBe(true);
    expectBucket(data.buckets[0], "15:00", s);
  });

  it("400 naming the parameter for a bad bucket, lookback_days, time of day or reversed bounds; 404 for an unknown ticker; uncharged", async () => {
    const cases: RefusedCase[] = [
      ["/v1/flow/XOM/baseline?bucket=2min", 400, "bucket"],
      ["/v1/flow/XOM/baseline?lookback_days=31", 400, "lookback_days"],
      ["/v1/flow/XOM/baseline?start_time_of_day=9:30", 400, "start_time_of_day"],
      ["/v1/flow/XOM/baseline?end_time_of_day=16:30", 400, "end_time_of_day"],
      ["/v1/flow/XOM/baseline?start_time_of_day=12:00&end_time_of_day=11:00", 400, "start_time_of_day"],
      ["/v1/flow/XOM/baseline?min_dte=9&max_dte=1", 400, "min_dte"],
      ["/v1/flow/ZZZZ/baseline", 404, "ticker", "SYMBOL_NOT_FOUND"],
    ];
    await expectRefusedUncharged(h, cases);
  });
});
