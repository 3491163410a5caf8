import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsKernels } from "../../lib/kernels";
import { classifyNodes } from "../../lib/positioning/classify-nodes";
import { VELOCITY_FLOOR_FRACTION, VELOCITY_LOOKBACK_MINUTES } from "../../lib/positioning/defaults";
import { exposureGrid } from "../../lib/positioning/exposure-grid";
import { heatmapFrame } from "../../lib/positioning/heatmap-frame";
import { velocityPct, velocityReference } from "../../lib/positioning/velocity";
import { etInstant } from "../../lib/time";
import { buildChain, type Row } from "./_chain";

const sv = (pairs: [number, number][]) => pairs.map(([strike, value]) => ({ strike, value }));

describe("velocityPct", () => {
  it("documented window and floor", () => {
    expect(VELOCITY_LOOKBACK_MINUTES).toBe(5);
    expect(VELOCITY_FLOOR_FRACTION).toBe(0.01);
  });

  it("is the percent change against the same strike", () => {
    // 100 -> 110 is +10%; -200 -> -100 is +50% of |old|; 50 -> 0 is -100%
    expect(
      velocityPct(
        sv([
          [100, 110],
          [105, -100],
          [110, 0],
        ]),
        sv([
          [110, 50],
          [100, 100],
          [105, -200],
        ]),
      ),
    ).toEqual([10, 50, -100]);
  });

  it("guards small denominators with 1% of the frame's largest |value|", () => {
    // M = 1000 -> floor 10. old 0 -> now 5: 100*5/10 = 50. old 2 -> now 12: 100*10/10 = 100.
    expect(
      velocityPct(
        sv([
          [1, 1000],
          [2, 5],
          [3, 12],
        ]),
        sv([
          [1, 1000],
          [2, 0],
          [3, 2],
        ]),
      ),
    ).toEqual([0, 50, 100]);
    // a strike missing from the earlier frame counts as 0
    expect(
      velocityPct(
        sv([
          [1, 1000],
          [9, 20],
        ]),
        sv([[1, 1000]]),
      ),
    ).toEqual([0, 200]);
    // all-zero frames and no earlier frame read 0
    expect(velocityPct(sv([[1, 0]]), sv([[1, 0]]))).toEqual([0]);
    expect(
      velocityPct(
        sv([
          [1, 5],
          [2, 6],
        ]),
        null,
      ),
    ).toEqual([0, 0]);
  });

  it("property: finite, same sign as the change, exact where |old| is above the floor", () => {
    // Magnitudes below 1e-200 are mapped to 0: subnormal quotients underflow and carry no signal.
    const v = fc.double({ min: -1e12, max: 1e12, noNaN: true }).map((x) => (Math.abs(x) < 1e-200 ? 0 : x));
    fc.assert(
      fc.property(fc.array(fc.tuple(v, v), { minLength: 1, maxLength: 30 }), (pairs) => {
        const now = pairs.map(([a], i) => ({ strike: i, value: a }));
        const old = pairs.map(([, b], i) => ({ strike: i, value: b }));
        const out = velocityPct(now, old);
        const m = Math.max(...now.map((c) => Math.abs(c.value)));
        out.forEach((x, i) => {
          const d = now[i].value - old[i].value;
          expect(Number.isFinite(x)).toBe(true);
          expect(Math.sign(x) || 0).toBe(d === 0 ? 0 : Math.sign(d) * (Math.max(Math.abs(old[i].value), 0.01 * m) > 0 ? 1 : 0));
          if (Math.abs(old[i].value) >= 0.01 * m && old[i].value !== 0) expect(x).toBe((100 * d) / Math.abs(old[i].value));
        });
      }),
      { numRuns: 2000 },
    );
  });
});

describe("velocityReference", () => {
  it("picks the newest frame at least 5 minutes older than now", () => {
    const h = ["14:20", "14:24", "14:25", "14:26", "14:31"].map((m) => ({ asOf: `2025-03-05T${m}:00Z`, id: m }));
    const now = Date.parse("2025-03-05T14:30:00Z");
    expect(velocityReference(h, now)?.id).toBe("14:25");
    expect(velocityReference(h, now, 10)?.id).toBe("14:20");
    expect(velocityReference(h, Date.parse("2025-03-05T14:24:59Z"))).toBeNull();
  });
});

describe("heatmapFrame", () => {
  const asOfMs = etInstant("2025-03-05", "10:31");
  const settleMs = { "2025-03-07": etInstant("2025-03-07", "16:00"), "2025-03-14": etInstant("2025-03-14", "16:00") };
  const rows: Row[] = [];
  for (const e of Object.keys(settleMs))
    for (let k = 560; k <= 600; k += 5) {
      rows.push({ expiry: e, strike: k, right: "C", oi: 1000 + 40 * k - 22_000, iv: 0.2 });
      rows.push({ expiry: e, strike: k, right: "P", oi: 30_000 - 40 * k + 1000, iv: 0.22 });
    }
  const chain = buildChain({ symbol: "SPY", asOfMs, spot: 581.2, settleMs }, rows);
  const grid = exposureGrid(chain, { layout: "matrix" }, jsKernels);

  it("carries symbol, ISO asOf, spot, ascending cells classified by classifyNodes", () => {
    const f = heatmapFrame(grid);
    expect(f.symbol).toBe("SPY");
    expect(f.asOf).toBe("2025-03-05T15:31:00Z");
    expect(f.spot).toBe(581.2);
    expect(f.expirations).toEqual(["2025-03-07", "2025-03-14"]);
    expect(f.strikes.map((c) => c.strike)).toEqual([560, 565, 570, 575, 580, 585, 590, 595, 600]);
    expect(f.strikes.map((c) => c.nodeType)).toEqual(classifyNodes(f.strikes, 581.2));
    expect(f.strikes.filter((c) => c.nodeType === "king").length).toBe(1);
  });

  it("replay frames omit velocityPct; live frames carry it against the earlier frame", () => {
    const replay = heatmapFrame(grid);
    expect(replay.strikes.every((c) => !("velocityPct" in c))).toBe(true);
    const earlier = { strikes: replay.strikes.map((c) => ({ strike: c.strike, value: c.value / 2 })) };
    const live = heatmapFrame(grid, { live: true, earlier });
    // |value| doubled since the earlier frame: +-100% (the sign of the value) where |old| clears the floor
    for (const c of live.strikes) {
      const m = Math.max(...live.strikes.map((x) => Math.abs(x.value)));
      if (Math.abs(c.value / 2) >= 0.01 * m) expect(c.velocityPct).toBeCloseTo(100 * Math.sign(c.value), 9);
    }
    expect(heatmapFrame(grid, { live: true }).strikes.every((c) => c.velocityPct === 0)).toBe(true);
  });

  it("layout=matrix attaches rows that sum to each value; net layout omits it", () => {
    const f = heatmapFrame(grid);
    expect(f.matrix!.length).toBe(f.strikes.length);
    f.matrix!.forEach((row, i) => {
      expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(f.strikes[i].value, 6);
    });
    expect(heatmapFrame(grid, { layout: "net" }).matrix).toBeUndefined();
  });
});
