// Issue 34: "market_brief writes 23th percentile". English ordinals: st/nd/rd after 1/2/3 except
// in 11-13 of each hundred, th otherwise.
import { describe, expect, it } from "vitest";
import { marketBrief, ordinal } from "../../lib/briefs/market-brief";

describe("ordinal", () => {
  it("suffixes by the last digit, with 11-13 of every hundred as th", () => {
    const cases: [number, string][] = [
      [0, "0th"],
      [1, "1st"],
      [2, "2nd"],
      [3, "3rd"],
      [4, "4th"],
      [11, "11th"],
      [12, "12th"],
      [13, "13th"],
      [21, "21st"],
      [22, "22nd"],
      [23, "23rd"],
      [100, "100th"],
      [101, "101st"],
      [111, "111th"],
      [112, "112th"],
      [113, "113th"],
    ];
    expect(cases.map(([n]) => ordinal(n))).toEqual(cases.map(([, s]) => s));
  });

  it("is what market_brief writes for a percentile", () => {
    const vol = { asOf: "2024-03-06T15:00:00.000Z", svx9: 12, svx30: 14, svx3m: 15, ratio_9d_30d: 0.9, ratio_30d_3m: 0.9, curve: "contango", pct_1y: { svx30: 22.6 } };
    expect(marketBrief(vol, null, []).summary).toContain("30-day at the 23rd percentile of its year.");
  });
});
