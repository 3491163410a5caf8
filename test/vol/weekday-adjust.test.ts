import { describe, expect, it } from "vitest";
import { tradingDaysBetween } from "../../lib/time";
import { weekdayFactors, weekdayOf, weekendAdjusted } from "../../lib/vol";
import { rng } from "./_boards";

const dates = tradingDaysBetween("2023-01-03", "2024-05-31");
// A known weekly pattern (Monday .. Friday) on a slow trend: Fridays read low, as a one-day reading
// that spans the weekend does on a calendar-time clock.
const PATTERN = [Number.NaN, 1.04, 1.01, 1.0, 0.99, 0.96];
const trend = (i: number) => 20 + 4 * Math.sin(i / 60);

// Reference: the definition written out per weekday group, over the same 252-session window.
function refFactors(d: string[], x: number[]): number[] {
  const from = Math.max(0, x.length - 252);
  const groups: number[][] = [[], [], [], [], [], [], []];
  for (let i = from + 2; i <= x.length - 3; i++) {
    const win = x.slice(i - 2, i + 3);
    groups[new Date(`${d[i]}T12:00:00Z`).getUTCDay()].push(x[i] / (win.reduce((a, b) => a + b) / 5));
  }
  const raw = [1, 2, 3, 4, 5].map((w) => groups[w].reduce((a, b) => a + b) / groups[w].length);
  const m = raw.reduce((a, b) => a + b) / 5;
  return [Number.NaN, ...raw.map((r) => r / m), Number.NaN];
}

describe("weekend-adjusted readings", () => {
  it("recovers a weekly pattern laid on a slow trend, and the trend once removed", () => {
    const x = dates.map((d, i) => trend(i) * PATTERN[weekdayOf(d)]);
    const f = weekdayFactors(dates, x)!;
    const mean = (PATTERN[1] + PATTERN[2] + PATTERN[3] + PATTERN[4] + PATTERN[5]) / 5;
    for (let w = 1; w <= 5; w++) expect(Math.abs(f[w] - PATTERN[w] / mean)).toBeLessThan(0.004);
    expect((f[1] + f[2] + f[3] + f[4] + f[5]) / 5).toBeCloseTo(1, 12);
    // The last reading, adjusted with factors from the readings before it, is back on the trend
    // (times the pattern's mean, which the normalisation leaves in the level).
    const n = x.length - 1;
    const adj = weekendAdjusted(dates.slice(0, n), x.slice(0, n), dates[n], x[n])!;
    expect(Math.abs(adj / (trend(n) * mean) - 1)).toBeLessThan(0.004);
  });

  it("matches the definition computed per weekday group on noisy series", () => {
    const rand = rng(11);
    for (let t = 0; t < 20; t++) {
      const x = dates.map(() => 10 + 30 * rand());
      const f = weekdayFactors(dates, x)!;
      const ref = refFactors(dates, x);
      for (let w = 1; w <= 5; w++) expect(f[w]).toBeCloseTo(ref[w], 12);
    }
  });

  it("leaves a series without a pattern unchanged, and needs eight ratios per weekday", () => {
    const flat = dates.map(() => 17.5);
    expect(weekendAdjusted(dates, flat, "2024-06-03", 18)).toBeCloseTo(18, 12);
    // 40 sessions: five centred ratios short of 8 per weekday for some days.
    const short = dates.slice(0, 40);
    expect(
      weekdayFactors(
        short,
        short.map(() => 20),
      ),
    ).toBeNull();
    expect(
      weekendAdjusted(
        short,
        short.map(() => 20),
        "2023-03-01",
        20,
      ),
    ).toBeNull();
    // A gap (NaN) leaves its five windows out instead of poisoning the factors.
    const gappy = flat.map((v, i) => (i % 37 === 0 ? Number.NaN : v));
    expect(
      weekdayFactors(dates, gappy)!
        .slice(1, 6)
        .every((v) => Math.abs(v - 1) < 1e-12),
    ).toBe(true);
    expect(weekendAdjusted(dates, flat, "2024-06-03", null)).toBeNull();
  });
});

describe("ivModule's *_adj", () => {
  it("divides today's reading by today's weekday factor of that tenor's own history", async () => {
    const { ivModule } = await import("../../lib/vol");
    const d = dates.slice(0, 300);
    const x30 = d.map((day, i) => trend(i) * PATTERN[weekdayOf(day)]);
    const reading = (value: number) => ({ value, near: null, next: null }) as never;
    const readings = { svx1d: null, svx9: null, svx30: reading(x30[x30.length - 1]), svx3m: reading(20), svx6m: null } as never;
    const iv = ivModule(readings, { daily: { svx30: x30, svx3m: d.map(() => 20) }, dates: d });
    const f = weekdayFactors(d.slice(0, -1), x30.slice(0, -1))!;
    expect(iv.svx30_adj).toBeCloseTo(x30[x30.length - 1] / f[weekdayOf(d[d.length - 1])], 12);
    expect(iv.svx3m_adj).toBeCloseTo(20, 12);
    expect(iv.svx1d_adj).toBeNull();
    // Without dates there are no weekdays to adjust by.
    expect(ivModule(readings, { daily: { svx30: x30 } }).svx30_adj).toBeNull();
    expect(iv.reversion?.samples).toBeGreaterThan(0);
  });
});
