// The chart bars' 30-session time-of-day baselines (`avgVolume`, `avgPremium`) recomputed here from
// the raw prints: for each bar, the mean over the 30 trading sessions before the window of the
// volume and premium printed at the same offsets from the open (only that slice of each session is
// read, straight from the market).
import { beforeAll, describe, expect, it } from "vitest";
import { withBaselines } from "../../../../lib/flow";
import type { OptionPrint } from "../../../../lib/market";
import { previousTradingDay, sessionBounds } from "../../../../lib/time";
import { body, flowHarness, NOW_MS, PRIOR, TODAY, type FlowHarness } from "./_flow-harness";

let h: FlowHarness;
const M = 60_000;

/** The 30 trading sessions before `first`, oldest first. */
function baselineDates(first: string): string[] {
  const out: string[] = [];
  for (let d = previousTradingDay(first); out.length < 30; d = previousTradingDay(d)) out.unshift(d);
  return out;
}

/** Mean volume and premium over `dates` of the prints at offsets `[from, to)` from each open. */
async function slotMean(dates: readonly string[], fromOffset: number, toOffset: number, keep: (p: OptionPrint) => boolean = () => true) {
  let v = 0;
  let prem = 0;
  for (const d of dates) {
    const { openMs } = sessionBounds(d);
    for (const p of await h.sim.optionPrints("XOM", openMs + fromOffset, openMs + toOffset)) {
      if (!keep(p)) continue;
      v += p.size;
      prem += p.price * p.size * 100;
    }
  }
  return { avgVolume: v / dates.length, avgPremium: prem / dates.length };
}

beforeAll(() => {
  h = flowHarness({ credits: 10_000 });
});

describe("chart baselines", () => {
  it("underlying 1D at 10min: each bar's avg* is the mean of its time-of-day slot over the 30 prior sessions; 1d agrees for the day so far", async () => {
    const { data } = await body(await h.get("/v1/underlying/XOM/chart?interval=1D&bucket=10min"));
    expect(data).toHaveLength(3);
    const dates = baselineDates(TODAY);
    const open = sessionBounds(TODAY).openMs;
    for (const b of data) {
      const from = Number(b.timestamp) * 1000 - open;
      const want = await slotMean(dates, from, from + 10 * M);
      expect(want.avgVolume).toBeGreaterThan(0);
      expect(b.avgVolume).toBeCloseTo(want.avgVolume, 9);
      expect(b.avgPremium).toBeCloseTo(want.avgPremium, 6);
    }
    const daily = (await body(await h.get("/v1/underlying/XOM/chart?interval=1D&bucket=1d"))).data;
    expect(daily).toHaveLength(1);
    const whole = await slotMean(dates, 0, NOW_MS - open);
    expect(daily[0].avgVolume).toBeCloseTo(whole.avgVolume, 9);
    expect(daily[0].avgVolume).toBeCloseTo(
      data.reduce((s: number, b: any) => s + b.avgVolume, 0),
      9,
    );
  });

  it("a 2D window's baseline is the 30 sessions before its first session, for every bar of both days", async () => {
    const { data } = await body(await h.get("/v1/underlying/XOM/chart?interval=2D&bucket=30min"));
    const dates = baselineDates(PRIOR);
    for (const b of [data[0], data[5], data[data.length - 1]]) {
      const start = Number(b.timestamp) * 1000;
      const open = start >= sessionBounds(TODAY).openMs ? sessionBounds(TODAY).openMs : sessionBounds(PRIOR).openMs;
      const want = await slotMean(dates, start - open, start - open + 30 * M);
      expect(b.avgVolume).toBeCloseTo(want.avgVolume, 9);
      expect(b.avgPremium).toBeCloseTo(want.avgPremium, 6);
    }
  });

  it("contract bars average only that contract's prints", async () => {
    const open = sessionBounds(TODAY).openMs;
    const prior = sessionBounds(PRIOR);
    // A contract that traded yesterday and today, so its baseline is not all zero.
    const counts = new Map<string, number>();
    for (const p of await h.sim.optionPrints("XOM", prior.openMs, prior.closeMs)) counts.set(p.symbol, (counts.get(p.symbol) ?? 0) + 1);
    const symbol = [...counts].sort((a, b) => b[1] - a[1])[0][0];
    const { data } = await body(await h.get(`/v1/contract/${symbol}/chart?interval=1D&bucket=15min`));
    expect(data).toHaveLength(2);
    const dates = baselineDates(TODAY);
    let any = 0;
    for (const b of data) {
      const from = Number(b.timestamp) * 1000 - open;
      const want = await slotMean(dates, from, from + 15 * M, (p) => p.symbol === symbol);
      any += want.avgVolume;
      expect(b.avgVolume).toBeCloseTo(want.avgVolume, 9);
      expect(b.avgPremium).toBeCloseTo(want.avgPremium, 6);
    }
    expect(any).toBeGreaterThan(0);
  });

  it("withBaselines leaves a bar without a baseline without avg fields", () => {
    const bars = withBaselines([{ timestamp: "100" }, { timestamp: "200" }] as any[], new Map([[200_000, { avgVolume: 3, avgPremium: 40 }]]));
    expect(bars[0]).toEqual({ timestamp: "100" });
    expect(bars[1]).toEqual({ timestamp: "200", avgVolume: 3, avgPremium: 40 });
  });
});
