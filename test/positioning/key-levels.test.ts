import { describe, expect, it } from "vitest";
import { jsKernels, loadKernelsSync } from "../../lib/kernels";
import { classifyNodes } from "../../lib/positioning/classify-nodes";
import { keyLevels, keyLevelsSteps, levelsFromFrame } from "../../lib/positioning/key-levels";
import { zeroGammaLevel, profileSpots } from "../../lib/positioning/zero-gamma";
import { zeroCrossings } from "../../lib/positioning/zero-crossings";
import { etInstant } from "../../lib/time";
import { buildChain, type Row } from "./_chain";
import { referenceCells } from "./_reference";

/** A classified frame from (strike, value) pairs. */
function frame(spot: number, pairs: [number, number][]) {
  const cells = pairs.map(([strike, value]) => ({ strike, value }));
  const types = classifyNodes(cells, spot);
  return { spot, strikes: cells.map((c, i) => ({ ...c, nodeType: types[i] })) };
}

describe("levelsFromFrame (golden vectors, worked by hand)", () => {
  it("king, levels strongest first with distancePct, walls, net and the flip", () => {
    // M = 80 at 105 (king). 90: -0.625 M barney; 95: -0.25 M barney; 100: 0.375 M pika (100 = spot is
    // not strictly between); 110: 0.125 M significant. Running sum -50, -70, -40, 40, 50 crosses
    // between 100 and 105 at 100 + 5 * 40 / 80 = 102.5.
    const lv = levelsFromFrame(
      frame(100, [
        [90, -50],
        [95, -20],
        [100, 30],
        [105, 80],
        [110, 10],
      ]),
    );
    expect(lv.kingNode).toEqual({ strike: 105, value: 80, nodeType: "king", distancePct: 5 });
    expect(lv.levels.map((l) => [l.strike, l.nodeType])).toEqual([
      [105, "king"],
      [90, "barney"],
      [100, "pika"],
      [95, "barney"],
      [110, "significant"],
    ]);
    expect(lv.levels.map((l) => l.distancePct)).toEqual([5, -10, 0, -5, 10]);
    expect(lv.summary.netExposure).toBe(50);
    expect(lv.summary.positiveWall?.strike).toBe(105);
    expect(lv.summary.negativeWall?.strike).toBe(90);
    expect(lv.summary.flip).toEqual({ method: "cumulative_by_strike", level: 102.5, distancePct: 2.5, direction: "up" });
    expect(lv.summary.zeroCrossings).toHaveLength(1);
    expect([lv.summary.lowStrike, lv.summary.highStrike]).toEqual([90, 110]);
  });

  it("several crossings: all reported, the flip is the one nearest spot", () => {
    // running sums 10, -20, 20, -10 -> crossings at 90 + 5*10/30, 95 + 5*20/40 = 97.5, 100 + 5*20/30
    const lv = levelsFromFrame(
      frame(101, [
        [90, 10],
        [95, -30],
        [100, 40],
        [105, -30],
      ]),
    );
    const lvls = lv.summary.zeroCrossings.map((c) => c.level);
    expect(lvls[0]).toBeCloseTo(91 + 2 / 3, 12);
    expect(lvls[1]).toBe(97.5);
    expect(lvls[2]).toBeCloseTo(103 + 1 / 3, 12);
    expect(lv.summary.zeroCrossings.map((c) => c.direction)).toEqual(["down", "up", "down"]);
    expect(lv.summary.flip!.level).toBeCloseTo(103 + 1 / 3, 12); // 2.33 from spot beats 3.5
  });

  it("no sign change: flip null; no positive values: positiveWall null; all zero: no king, no levels", () => {
    const neg = levelsFromFrame(
      frame(100, [
        [95, -3],
        [100, -1],
        [105, -2],
      ]),
    );
    expect(neg.summary.flip).toBeNull();
    expect(neg.summary.zeroCrossings).toEqual([]);
    expect(neg.summary.positiveWall).toBeNull();
    expect(neg.summary.negativeWall?.strike).toBe(95);
    const zero = levelsFromFrame(
      frame(100, [
        [95, 0],
        [100, 0],
      ]),
    );
    expect(zero.kingNode).toBeNull();
    expect(zero.levels).toEqual([]);
  });

  it("zero crossings: exact zeros between opposite signs put the crossing at the first zero", () => {
    expect(zeroCrossings([1, 2, 3, 4], [5, 0, 0, -5])).toEqual([{ level: 2, direction: "down" }]);
    expect(zeroCrossings([1, 2, 3], [0, 4, 8])).toEqual([]);
    expect(zeroCrossings([1, 2, 3], [3, 0, 3])).toEqual([]); // touching zero is not a crossing
  });
});

describe("zero gamma by the spot profile", () => {
  const asOfMs = etInstant("2025-03-05", "11:00");
  const settleMs = { "2025-03-07": etInstant("2025-03-07", "16:00"), "2025-03-21": etInstant("2025-03-21", "16:00") };
  // Heavy puts below spot, heavy calls above: dealer gamma (calls +, puts -) is negative at low spots
  // and positive at high spots, so it crosses zero inside +-10%.
  const rows: Row[] = [];
  for (const e of Object.keys(settleMs))
    for (let k = 5500; k <= 6100; k += 25) {
      rows.push({ expiry: e, strike: k, right: "C", oi: k >= 5800 ? 4000 : 300, iv: 0.16 });
      rows.push({ expiry: e, strike: k, right: "P", oi: k <= 5800 ? 5000 : 300, iv: 0.19 });
    }
  const chain = buildChain({ symbol: "SPXW", asOfMs, spot: 5790, settleMs }, rows);

  /** Total gamma exposure with spot moved, from the slow reference (greeks from lib/math). */
  const refTotal = (spot: number) => [...referenceCells({ ...chain, spot }, "gamma").values()].reduce((a, b) => a + b, 0);

  it.each([
    ["js", jsKernels],
    ["wasm", loadKernelsSync()],
  ] as const)("the root matches a bisection of the reference profile (%s)", (_n, engine) => {
    const zg = zeroGammaLevel(chain, { maxExpirations: "all" }, engine);
    expect(zg.method).toBe("spot_profile");
    expect([zg.rangePct, zg.stepPct]).toEqual([10, 0.1]);
    expect(zg.level).not.toBeNull();
    // bisection of the reference between the profile's bracketing levels
    const spots = profileSpots(chain.spot, 10, 0.1);
    let j = 0;
    while (!(spots[j] <= zg.level! && zg.level! <= spots[j + 1])) j++;
    let lo = spots[j];
    let hi = spots[j + 1];
    expect(Math.sign(refTotal(lo))).not.toBe(Math.sign(refTotal(hi)));
    for (let i = 0; i < 60; i++) {
      const mid = (lo + hi) / 2;
      if (Math.sign(refTotal(mid)) === Math.sign(refTotal(lo))) lo = mid;
      else hi = mid;
    }
    // linear interpolation over a 0.1% step is accurate to a small fraction of the step
    expect(Math.abs(zg.level! - lo)).toBeLessThan(0.0005 * chain.spot * 0.1);
    expect(zg.distancePct).toBeCloseTo((100 * (zg.level! - 5790)) / 5790, 12);
  });

  it("profileSpots covers +-10% in 0.1% steps", () => {
    const s = profileSpots(5000, 10, 0.1);
    expect(s.length).toBe(201);
    expect(s[0]).toBeCloseTo(4500, 9);
    expect(s[100]).toBe(5000);
    expect(s[200]).toBeCloseTo(5500, 9);
    expect(s[101]).toBeCloseTo(5005, 9);
  });

  it("null when the profile never changes sign (calls only)", () => {
    const calls = buildChain(
      { symbol: "SPXW", asOfMs, spot: 5790, settleMs },
      rows.filter((r) => r.right === "C"),
    );
    const zg = zeroGammaLevel(calls, {}, jsKernels);
    expect(zg).toMatchObject({ method: "spot_profile", level: null, distancePct: null, crossings: [] });
  });

  it("keyLevels combines the frame's levels, the flip and zero gamma, and names both methods", () => {
    const lv = keyLevels(chain, { maxStrikes: 20 }, jsKernels);
    expect(lv.symbol).toBe("SPXW");
    expect(lv.asOf).toBe("2025-03-05T16:00:00Z");
    expect(lv.spot).toBe(5790);
    expect(lv.meta).toMatchObject({ engine: "js", flipMethod: "cumulative_by_strike", zeroGammaMethod: "spot_profile" });
    expect(lv.summary.zeroGamma.method).toBe("spot_profile");
    expect(lv.kingNode?.nodeType).toBe("king");
    expect(lv.levels[0]).toEqual(lv.kingNode);
    expect(lv.levels.every((l) => l.nodeType !== "normal")).toBe(true);
    for (let i = 1; i < lv.levels.length; i++) expect(Math.abs(lv.levels[i - 1].value)).toBeGreaterThanOrEqual(Math.abs(lv.levels[i].value));
    expect(lv.summary.highStrike! - lv.summary.lowStrike!).toBe(19 * 25);
  });
});

describe("outputs match the exported zod schemas (strict: no undeclared fields)", () => {
  it("heatmap frames, key levels and daily statistics parse", async () => {
    const { HeatmapFrameSchema, KeyLevelsEntrySchema } = await import("../../lib/positioning/schemas");
    const asOfMs = etInstant("2025-03-05", "11:00");
    const settleMs = { "2025-03-07": etInstant("2025-03-07", "16:00") };
    const rows: Row[] = [5750, 5775, 5800, 5825].flatMap((k) => [
      { expiry: "2025-03-07", strike: k, right: "C" as const, oi: 1000 + k - 5750, iv: 0.2 },
      { expiry: "2025-03-07", strike: k, right: "P" as const, oi: 1500, iv: 0.22 },
    ]);
    const chain = buildChain({ symbol: "SPXW", asOfMs, spot: 5790, settleMs }, rows);
    const lv = keyLevels(chain, {}, jsKernels);
    const { meta: _meta, ...entry } = lv;
    expect(KeyLevelsEntrySchema.strict().parse(entry)).toEqual(entry);
    const { heatmapFrame } = await import("../../lib/positioning/heatmap-frame");
    const { exposureGrid } = await import("../../lib/positioning/exposure-grid");
    const f = heatmapFrame(exposureGrid(chain, { layout: "matrix" }, jsKernels), { live: true });
    expect(HeatmapFrameSchema.strict().parse(f)).toEqual(f);
  });
});

describe("keyLevelsSteps: the pieces a request loop runs between other work", () => {
  it("equal keyLevels for any chunk of profile spots, on both kernel engines", async () => {
    const { simulatedMarketAt } = await import("../_helpers/simulated-market");
    const nowMs = etInstant("2024-03-15", "11:00");
    // A light single name: the property is the same on any board.
    const chain = (await simulatedMarketAt(5, nowMs).chain("XOM", nowMs))!;
    for (const engine of [jsKernels, loadKernelsSync()]) {
      const whole = keyLevels(chain, { maxExpirations: 6 }, engine);
      expect(whole.summary.zeroGamma.rangePct / whole.summary.zeroGamma.stepPct).toBe(100);
      for (const chunk of [1, 7, 25, 500]) {
        const steps = keyLevelsSteps(chain, { maxExpirations: 6 }, engine, chunk);
        let pauses = 0;
        let r = steps.next();
        while (!r.done) {
          pauses++;
          r = steps.next();
        }
        // One pause after the grid's levels, then one per chunk of the 201 spots (none when one chunk holds them all).
        expect(pauses).toBe(1 + (chunk < 201 ? Math.ceil(201 / chunk) : 0));
        expect(r.value).toEqual(whole);
      }
    }
  });
});
