import { describe, expect, it } from "vitest";
import { changeBrief, formatUsd, levelsBrief } from "../../lib/positioning";

const frame = (asOf: string, spot: number, strikes: [number, number, string][]) => ({
  symbol: "SPY",
  asOf,
  spot,
  strikes: strikes.map(([strike, value, nodeType]) => ({ strike, value, nodeType: nodeType as "king" })),
});

describe("formatUsd", () => {
  it("writes dollars with B/M/K", () => {
    expect(formatUsd(1_234_000_000)).toBe("$1.23B");
    expect(formatUsd(-450_000_000)).toBe("-$450.0M");
    expect(formatUsd(12_340)).toBe("$12.3K");
    expect(formatUsd(512)).toBe("$512");
  });
});

describe("changeBrief", () => {
  it("ranks strikes by |after - before| over the union of strikes, absent = 0", () => {
    const before = frame("2024-03-06T15:00:00.000Z", 500, [
      [495, -10e6, "normal"],
      [500, 80e6, "king"],
      [505, 30e6, "normal"],
    ]);
    const after = frame("2024-03-06T16:00:00.000Z", 505, [
      [500, 20e6, "normal"],
      [505, 90e6, "king"],
      [510, -40e6, "normal"],
    ]);
    const b = changeBrief(before, after);
    // changes: 495: 0-(-10M) = +10M; 500: 20M-80M = -60M; 505: 90M-30M = +60M; 510: -40M-0 = -40M
    expect(b.data.largestChanges).toEqual([
      { strike: 500, before: 80e6, after: 20e6, change: -60e6 },
      { strike: 505, before: 30e6, after: 90e6, change: 60e6 },
      { strike: 510, before: 0, after: -40e6, change: -40e6 },
      { strike: 495, before: -10e6, after: 0, change: 10e6 },
    ]);
    expect(b.data.spotChange).toBe(5);
    expect(b.data.spotChangePct).toBeCloseTo(1, 12);
    expect(b.data.kingBefore).toEqual({ strike: 500, value: 80e6 });
    expect(b.data.kingAfter).toEqual({ strike: 505, value: 90e6 });
    expect(b.summary).toContain("moved +5.00 (+1.00%)");
    expect(b.summary).toContain("King node 500 -> 505");
  });

  it("keeps at most five strikes", () => {
    const strikes = Array.from({ length: 12 }, (_, i) => [100 + i, i * 1e6, "normal"] as [number, number, string]);
    const b = changeBrief(frame("a", 100, []), frame("b", 100, strikes));
    expect(b.data.largestChanges.map((c) => c.strike)).toEqual([111, 110, 109, 108, 107]);
  });
});

describe("levelsBrief", () => {
  it("restates the levels: king, flip, walls, net, top five", () => {
    const lv = (strike: number, value: number, nodeType: string) => ({ strike, value, nodeType: nodeType as "king", distancePct: (100 * (strike - 500)) / 500 });
    const levels = [
      lv(510, 90e6, "king"),
      lv(490, -50e6, "barney"),
      lv(505, 40e6, "pika"),
      lv(495, -30e6, "barney"),
      lv(515, 20e6, "significant"),
      lv(520, 12e6, "significant"),
    ];
    const b = levelsBrief({
      symbol: "SPY",
      asOf: "2024-03-06T15:00:00.000Z",
      spot: 500,
      kingNode: levels[0],
      levels,
      summary: {
        netExposure: 82e6,
        positiveWall: levels[0],
        negativeWall: levels[1],
        flip: { method: "cumulative_by_strike", level: 497.5, distancePct: -0.5, direction: "up" },
        zeroCrossings: [],
        zeroGamma: { method: "spot_profile", level: 496, distancePct: -0.8, crossings: [496], rangePct: 10, stepPct: 0.1 },
        lowStrike: 490,
        highStrike: 520,
      },
    });
    expect(b.data.topLevels).toEqual(levels.slice(0, 5));
    expect(b.data.flip).toBe(497.5);
    expect(b.data.zeroGamma).toBe(496);
    expect(b.summary).toContain("King node 510 ($90.0M, +2.00%)");
    expect(b.summary).toContain("flips sign at 497.50 (up)");
    expect(b.summary).toContain("Net exposure $82.0M");
  });
});
