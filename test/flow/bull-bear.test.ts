import { describe, expect, it } from "vitest";
import { bullBear, flowBaseline, BaselineBucketSchema } from "../../lib/flow/bull-bear";
import { etInstant } from "../../lib/time";

const t = (right: "C" | "P", aggression: number, size: number) => ({ right, aggression, size });

describe("bull/bear pressure", () => {
  it("by hand: calls bought and puts sold are bullish volume", () => {
    // calls: 30 bought, 10 sold, 10 mid; puts: 20 sold, 30 bought -> bull 30 + 20 = 50, bear 10 + 30 = 40, neutral 10
    const r = bullBear([t("C", 1, 30), t("C", -1, 10), t("C", 0, 10), t("P", -1, 20), t("P", 0.5, 30)]);
    expect(r.metrics).toEqual({ bullPct: 50, bearPct: 40, neutralPct: 10, bullBearRatio: 50 / 40, callBullPct: 60, putBullPct: 40 });
    // net 10 -> BULLISH, weak; 5 trades -> LOW confidence
    expect(r.interpretation).toMatchObject({ bias: "BULLISH", strength: "weak", confidence: "LOW" });
    expect(bullBear([t("C", 1, 5), t("C", -1, 5)]).interpretation.bias).toBe("MIXED");
    expect(bullBear([t("C", 0, 5)]).interpretation.bias).toBe("NEUTRAL");
    expect(bullBear([t("P", -1, 5)]).metrics.bullBearRatio).toBe(999);
    expect(bullBear([]).metrics).toEqual({ bullPct: 0, bearPct: 0, neutralPct: 0, bullBearRatio: 0, callBullPct: 0, putBullPct: 0 });
  });
});

describe("flow baseline", () => {
  it("mean and sample sd per bucket over the sessions that have it", () => {
    const trade = (date: string, hhmm: string, premiumUsd: number, right: "C" | "P", aggression: number) => ({
      tsMs: etInstant(date, hhmm),
      premiumUsd,
      right,
      aggression,
    });
    const sessions = [
      { date: "2024-03-13", trades: [trade("2024-03-13", "09:31", 100, "C", 1), trade("2024-03-13", "09:32", 300, "P", 1)] },
      { date: "2024-03-14", trades: [trade("2024-03-14", "09:40", 500, "C", 1)] },
      { date: "2024-11-29", trades: [] }, // early close: no buckets after 13:00
    ];
    const b = flowBaseline(sessions, { bucketMinutes: 30, startTimeOfDay: "09:30", endTimeOfDay: "13:30" });
    expect(b.map((x) => [x.timeOfDay, x.daysCount])).toEqual([
      ["09:30", 3],
      ["10:00", 3],
      ["10:30", 3],
      ["11:00", 3],
      ["11:30", 3],
      ["12:00", 3],
      ["12:30", 3],
      ["13:00", 2],
    ]);
    // 09:30 bucket: counts 2, 1, 0 (mean 1, sd 1); premium 400, 500, 0 (mean 300, sd sqrt((100^2 + 200^2 + 300^2) / 2))
    // fir: 100 * (100 - 300) / 400 = -50, 100, 0 -> mean 50/3
    const first = b[0];
    expect([first.avgTradeCount, first.stddevTradeCount, first.avgPremium]).toEqual([1, 1, 300]);
    expect(first.stddevPremium).toBeCloseTo(Math.sqrt((100 ** 2 + 200 ** 2 + 300 ** 2) / 2), 9);
    expect(first.avgFir).toBeCloseTo(50 / 3, 12);
    expect(BaselineBucketSchema.parse(first)).toEqual(first);
  });
});
