import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsKernels } from "../../lib/kernels";
import { averageDailyStats } from "../../lib/positioning/average-daily-stats";
import type { DailyStat, StatFrame } from "../../lib/positioning/daily-stats";
import { exposureGrid } from "../../lib/positioning/exposure-grid";
import { heatmapFrame } from "../../lib/positioning/heatmap-frame";
import { dailyStats, sessionFrameInstants } from "../../lib/positioning/session-frames";
import { statFrame } from "../../lib/positioning/stat-frame";
import { DailyStatSchema } from "../../lib/positioning/schemas";
import { etInstant } from "../../lib/time";
import { buildChain, type Row } from "./_chain";

const MIN = 60_000;

describe("sessionFrameInstants", () => {
  it("regular session: 390 frames stamped 09:30..15:59 ET", () => {
    const s = sessionFrameInstants("2025-03-05");
    expect(s.length).toBe(390);
    expect(s[0]).toBe(Date.UTC(2025, 2, 5, 14, 30)); // 09:30 EST
    expect(s[389]).toBe(Date.UTC(2025, 2, 5, 20, 59)); // 15:59 EST
    expect(s.every((t, i) => i === 0 || t - s[i - 1] === MIN)).toBe(true);
  });
  it("early close (2024-11-29, 13:00 ET): 210 frames, last 12:59", () => {
    const s = sessionFrameInstants("2024-11-29");
    expect(s.length).toBe(210);
    expect(s[209]).toBe(Date.UTC(2024, 10, 29, 17, 59));
  });
  it("extended session: 04:00..19:59 ET, 960 frames", () => {
    const s = sessionFrameInstants("2025-07-01", { extended: true });
    expect(s.length).toBe(960);
    expect(s[0]).toBe(Date.UTC(2025, 6, 1, 8, 0)); // 04:00 EDT
    expect(s[959]).toBe(Date.UTC(2025, 6, 1, 23, 59)); // 19:59 EDT
  });
  it("weekends and holidays have no session", () => {
    expect(sessionFrameInstants("2025-03-08")).toEqual([]);
    expect(sessionFrameInstants("2025-12-25")).toEqual([]);
    expect(dailyStats([], { date: "2025-12-25", nowMs: Date.UTC(2026, 0, 1) })).toBeNull();
  });
});

/** The spec's definitions with plain loops, independent of the library code. */
function naiveStats(frames: StatFrame[], openMs: number, closeMs: number) {
  const fs = frames.filter((f) => f.asOfMs >= openMs && f.asOfMs < closeMs).sort((a, b) => a.asOfMs - b.asOfMs);
  let minV = Infinity;
  let maxV = -Infinity;
  const peaks: number[] = [];
  const spots: number[] = [];
  for (const f of fs) {
    spots.push(f.spot);
    const cells = Array.from(f.values);
    let smallest = Infinity;
    let largest = -Infinity;
    for (const c of cells) {
      smallest = Math.min(smallest, c);
      largest = Math.max(largest, c);
      minV = Math.min(minV, c);
      maxV = Math.max(maxV, c);
    }
    peaks.push(Math.max(Math.abs(smallest), Math.abs(largest)));
  }
  let sum = 0;
  for (const p of peaks) sum += p;
  return {
    frames: fs.length,
    firstAt: new Date(fs[0].asOfMs).toISOString().replace(".000Z", "Z"),
    lastAt: new Date(fs[fs.length - 1].asOfMs).toISOString().replace(".000Z", "Z"),
    spotOpen: spots[0],
    spotHigh: Math.max(...spots),
    spotLow: Math.min(...spots),
    spotClose: spots[spots.length - 1],
    // Zero without a sign, as the library answers it (a random board of -0 and 0 cells failed once).
    minValue: minV + 0,
    maxValue: maxV + 0,
    peakAbsMean: sum / peaks.length,
    peakAbsMax: Math.max(...peaks),
  };
}

const cellArb = fc.double({ min: -1e9, max: 1e9, noNaN: true });

describe("dailyStats agrees with a naive recomputation from the frames", () => {
  it.each([
    ["regular", "2025-03-05", false],
    ["early close", "2024-11-29", false],
    ["extended", "2025-07-01", true],
  ] as const)("%s session (property)", (_name, date, extended) => {
    const stamps = sessionFrameInstants(date, { extended });
    const open = stamps[0];
    const close = stamps[stamps.length - 1] + MIN;
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: -30, max: stamps.length + 30 }), { minLength: 1, maxLength: 60 }),
        fc.array(fc.array(cellArb, { minLength: 1, maxLength: 12 }), { minLength: 60, maxLength: 60 }),
        fc.array(fc.double({ min: 1, max: 6000, noNaN: true }), { minLength: 60, maxLength: 60 }),
        (minutes, cells, spots) => {
          // frames in shuffled order, some before the open or after the close
          const frames = minutes.map((m, i) => ({ asOfMs: open + m * MIN, spot: spots[i], values: Float64Array.from(cells[i]) }));
          const inside = frames.filter((f) => f.asOfMs >= open && f.asOfMs < close);
          const got = dailyStats(frames, { date, extended, nowMs: close + 60 * MIN });
          if (inside.length === 0) {
            expect(got).toBeNull();
            return;
          }
          const want = naiveStats(frames, open, close);
          expect(got).toMatchObject({ date, complete: true, ...want, peakAbsMean: got!.peakAbsMean });
          expect(got!.peakAbsMean).toBeCloseTo(want.peakAbsMean, 6);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a frame at 13:05 on an early-close day is outside the session", () => {
    const frames = [
      { asOfMs: etInstant("2024-11-29", "12:59"), spot: 1, values: [1] },
      { asOfMs: etInstant("2024-11-29", "13:05"), spot: 2, values: [100] },
    ];
    const s = dailyStats(frames, { date: "2024-11-29", nowMs: Date.UTC(2025, 0, 1) })!;
    expect(s).toMatchObject({ frames: 1, maxValue: 1, spotClose: 1 });
  });

  it("extended frames count only with extended=true", () => {
    const frames = [
      { asOfMs: etInstant("2025-07-01", "04:00"), spot: 1, values: [-7] },
      { asOfMs: etInstant("2025-07-01", "09:30"), spot: 2, values: [3] },
      { asOfMs: etInstant("2025-07-01", "19:59"), spot: 3, values: [4] },
    ];
    const now = Date.UTC(2025, 6, 5);
    expect(dailyStats(frames, { date: "2025-07-01", nowMs: now })).toMatchObject({ frames: 1, minValue: 3, peakAbsMax: 3 });
    expect(dailyStats(frames, { date: "2025-07-01", extended: true, nowMs: now })).toMatchObject({
      frames: 3,
      minValue: -7,
      maxValue: 4,
      peakAbsMax: 7,
      peakAbsMean: 14 / 3,
      spotOpen: 1,
      spotHigh: 3,
      spotLow: 1,
      spotClose: 3,
      firstAt: "2025-07-01T08:00:00Z",
      lastAt: "2025-07-01T23:59:00Z",
    });
  });

  it("complete becomes true 30 minutes after the close", () => {
    const close = etInstant("2025-03-05", "16:00");
    const frames = [{ asOfMs: etInstant("2025-03-05", "15:59"), spot: 1, values: [1] }];
    expect(dailyStats(frames, { date: "2025-03-05", nowMs: close + 29 * MIN })!.complete).toBe(false);
    expect(dailyStats(frames, { date: "2025-03-05", nowMs: close + 30 * MIN })!.complete).toBe(true);
    // during the session only the frames up to now exist
    const during = dailyStats([...frames, { asOfMs: etInstant("2025-03-05", "10:00"), spot: 1, values: [1] }], {
      date: "2025-03-05",
      nowMs: etInstant("2025-03-05", "12:00"),
    })!;
    expect(during).toMatchObject({ complete: false, frames: 1, lastAt: "2025-03-05T15:00:00Z" });
  });
});

describe("averageDailyStats", () => {
  const day = (frames: number, peakAbsMean: number, peakAbsMax: number, minValue: number, maxValue: number) =>
    ({ frames, peakAbsMean, peakAbsMax, minValue, maxValue }) as DailyStat;
  it("weights peakAbsMean by frames (an early close counts for fewer minutes)", () => {
    const avg = averageDailyStats([day(390, 10, 50, -5, 40), day(210, 20, 30, -9, 20)])!;
    expect(avg).toEqual({ days: 2, frames: 600, peakAbsMean: (390 * 10 + 210 * 20) / 600, peakAbsMax: 50, minValue: -9, maxValue: 40 });
    expect(avg.peakAbsMean).toBe(13.5);
    expect(averageDailyStats([])).toBeNull();
  });
});

describe("statistics agree with replay frames (layout=matrix) of the same session", () => {
  it("minValue/maxValue/peaks are the replayed matrices' cells", () => {
    const date = "2025-03-05";
    const settleMs = { "2025-03-05": etInstant(date, "16:00"), "2025-03-07": etInstant("2025-03-07", "16:00") };
    const rows: Row[] = [];
    for (const e of Object.keys(settleMs))
      for (let k = 570; k <= 590; k += 1) {
        rows.push({ expiry: e, strike: k, right: "C", oi: 500 + 37 * ((k * 7) % 11), iv: 0.18 });
        rows.push({ expiry: e, strike: k, right: "P", oi: 600 + 41 * ((k * 5) % 13), iv: 0.2 });
      }
    const stamps = sessionFrameInstants(date).filter((_, i) => i % 30 === 0); // 13 frames keep the test fast
    const chains = stamps.map((t, i) => buildChain({ symbol: "SPY", asOfMs: t, spot: 580 + Math.sin(i) * 3, settleMs }, rows));
    const grids = chains.map((c) => exposureGrid(c, { layout: "matrix" }, jsKernels));
    const stats = dailyStats(
      grids.map((g) => statFrame(g)),
      { date, nowMs: Date.UTC(2025, 2, 6) },
    )!;
    const replay = grids.map((g) => heatmapFrame(g));
    const cells = replay.flatMap((f) => f.matrix!.flat());
    expect(stats.frames).toBe(13);
    expect(DailyStatSchema.strict().parse(stats)).toEqual(stats);
    expect(stats.minValue).toBe(Math.min(...cells));
    expect(stats.maxValue).toBe(Math.max(...cells));
    expect(stats.peakAbsMax).toBe(Math.max(...replay.map((f) => Math.max(...f.matrix!.flat().map(Math.abs)))));
    expect(stats.spotHigh).toBe(Math.max(...replay.map((f) => f.spot)));
    expect(stats.firstAt).toBe(replay[0].asOf);
    expect(stats.lastAt).toBe(replay[12].asOf);
  });

  it("statFrame can stamp a frame with its session minute and spot (pre-market frames on an older board)", () => {
    const g = { asOfMs: etInstant("2025-07-01", "16:00") - 86_400_000, spot: 500, matrix: Float64Array.of(-2, 5) };
    const t = etInstant("2025-07-02", "05:00");
    const f = statFrame(g, { asOfMs: t, spot: 501.5 });
    expect(f).toEqual({ asOfMs: t, spot: 501.5, values: g.matrix });
    expect(dailyStats([f], { date: "2025-07-02", extended: true, nowMs: t + 60_000 })).toMatchObject({ frames: 1, spotOpen: 501.5, peakAbsMax: 5 });
    expect(dailyStats([statFrame(g)], { date: "2025-07-02", extended: true, nowMs: t + 60_000 })).toBeNull();
  });
});
