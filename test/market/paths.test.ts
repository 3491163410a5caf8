import { correlation } from "./_realism-stats";
import { describe, expect, it } from "vitest";
import { MinuteBarRowSchema } from "../../lib/market";
import { fixedClock } from "../../lib/market/clock";
import { createSimulatedMarket } from "../../lib/market/simulated";
import { etInstant, sessionBounds, tradingDaysBetween } from "../../lib/time";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const market = simulatedMarketAt(42, Date.parse("2025-06-02T20:30:00Z"));
const DAYS = tradingDaysBetween("2023-03-28", "2025-05-30");

function closes(ticker: string): number[] {
  return DAYS.map((d) => market.spotSync(ticker, sessionBounds(d).closeMs)!);
}

function logReturns(x: number[]): number[] {
  return x.slice(1).map((v, i) => Math.log(v / x[i]));
}

function kurtosis(r: number[]): number {
  const m = r.reduce((a, b) => a + b, 0) / r.length;
  const v = r.reduce((a, b) => a + (b - m) ** 2, 0) / r.length;
  return r.reduce((a, b) => a + (b - m) ** 4, 0) / r.length / (v * v);
}

describe("daily spot paths", () => {
  const spx = closes("SPX");

  it("has fat tails: daily return kurtosis above a normal's 3 over the whole calendar (four seeds)", () => {
    const days = tradingDaysBetween("2023-03-28", "2030-12-30");
    for (const seed of [1, 2, 3, 4]) {
      const m = createSimulatedMarket({ seed, clock: fixedClock(Date.parse("2031-01-01T00:00:00Z")) });
      const c = days.map((d) => m.spotSync("SPX", sessionBounds(d).closeMs)!);
      expect(kurtosis(logReturns(c))).toBeGreaterThan(3.3);
    }
  });

  it("clusters volatility: |returns| are autocorrelated", () => {
    const a = logReturns(spx).map(Math.abs);
    expect(correlation(a.slice(1), a.slice(0, -1))).toBeGreaterThan(0.05);
  });

  it("has an annualised volatility near the symbol's level", () => {
    const r = logReturns(spx);
    const vol = Math.sqrt((r.reduce((s, x) => s + x * x, 0) / r.length) * 252);
    expect(vol).toBeGreaterThan(0.1);
    expect(vol).toBeLessThan(0.3);
  });

  it("moves index/ETF pairs together at their real price ratios", () => {
    for (const [index, etf, ratio] of [
      ["SPX", "SPY", 10.03],
      ["NDX", "QQQ", 40.9],
      ["RUT", "IWM", 10.02],
    ] as const) {
      const a = closes(index);
      const b = closes(etf);
      expect(correlation(logReturns(a), logReturns(b))).toBeGreaterThan(0.999);
      for (let i = 0; i < a.length; i += 50) expect(a[i] / b[i]).toBeCloseTo(ratio, 1);
    }
    const at = Date.parse("2024-05-01T17:03:00Z");
    expect(market.spotSync("SPXW", at)).toBe(market.spotSync("SPX", at));
  });

  it("correlates single names with the market (positive beta) but not perfectly", () => {
    const c = correlation(logReturns(spx), logReturns(closes("AAPL")));
    expect(c).toBeGreaterThan(0.3);
    expect(c).toBeLessThan(0.95);
  });

  it("gaps single names on earnings more than on typical days", async () => {
    const events = await market.earnings("NVDA", DAYS[0], DAYS[DAYS.length - 1]);
    expect(events.length).toBeGreaterThanOrEqual(7);
    const c = closes("NVDA");
    const r = logReturns(c).map(Math.abs);
    const reaction = events.map((e) => {
      const i = DAYS.indexOf(e.date);
      return e.timing === "bmo" ? r[i - 1] : r[i];
    });
    const median = (x: number[]) => [...x].sort((p, q) => p - q)[Math.floor(x.length / 2)];
    expect(median(reaction)).toBeGreaterThan(2 * median(r));
  });
});

describe("minute bars", () => {
  const day = "2024-05-01";
  const reg = sessionBounds(day);
  const spy = market.minuteBarsSync("SPY", reg.openMs, reg.closeMs);

  it("has 390 regular bars with valid OHLC and bv + sv + uv = v", () => {
    expect(spy.t.length).toBe(390);
    expect(spy.simulated).toBe(true);
    for (let i = 0; i < spy.t.length; i++) {
      const row = { t: spy.t[i], o: spy.o[i], h: spy.h[i], l: spy.l[i], c: spy.c[i], v: spy.v[i], bv: spy.bv[i], sv: spy.sv[i], uv: spy.uv[i] };
      expect(MinuteBarRowSchema.safeParse(row).success).toBe(true);
      if (i > 0) expect(spy.o[i]).toBe(spy.c[i - 1]);
    }
  });

  it("agrees with spot: a bar opens at the spot of its start", () => {
    for (const i of [0, 17, 200, 389]) expect(market.spotSync("SPY", spy.t[i] + 30_000)).toBe(spy.o[i]);
    expect(market.spotSync("SPY", reg.closeMs)).toBe(spy.c[389]);
  });

  it("has a U-shaped intraday volume curve (averaged over sessions)", () => {
    let open = 0,
      mid = 0,
      close = 0;
    for (const d of DAYS.slice(100, 140)) {
      const b = sessionBounds(d);
      if (b.closeMs - b.openMs !== 390 * 60_000) continue;
      const v = market.minuteBarsSync("SPY", b.openMs, b.closeMs).v;
      for (let i = 0; i < 30; i++) open += v[i];
      for (let i = 180; i < 210; i++) mid += v[i];
      for (let i = 360; i < 390; i++) close += v[i];
    }
    expect(open).toBeGreaterThan(1.5 * mid);
    expect(close).toBeGreaterThan(1.5 * mid);
  });

  it("adds extended-hours bars for ETFs and stocks, with lower volume, but not for indices", () => {
    const ext = sessionBounds(day, { extended: true });
    const all = market.minuteBarsSync("SPY", ext.openMs, ext.closeMs, { extended: true });
    expect(all.t.length).toBe(960);
    expect(all.t[0]).toBe(etInstant(day, "04:00"));
    const pre = all.v.slice(0, 330).reduce((a, b) => a + b, 0) / 330;
    const regular = all.v.slice(330, 720).reduce((a, b) => a + b, 0) / 390;
    expect(pre).toBeLessThan(regular / 3);
    const spx = market.minuteBarsSync("SPX", ext.openMs, ext.closeMs, { extended: true });
    expect(spx.t.length).toBe(390);
    expect(Array.from(spx.v).every((v) => v === 0)).toBe(true);
  });

  it("returns only bars that have completed by the clock's now, within [from, to)", () => {
    const now = reg.openMs + 10 * 60_000 + 5_000;
    const m = simulatedMarketAt(42, now);
    const b = m.minuteBarsSync("SPY", reg.openMs, reg.closeMs);
    expect(b.t.length).toBe(10);
    expect(market.minuteBarsSync("SPY", reg.openMs + 60_000, reg.openMs + 3 * 60_000).t.length).toBe(2);
  });

  it("returns nothing for unknown tickers or before a product's first session", () => {
    expect(market.minuteBarsSync("ZZZZ", reg.openMs, reg.closeMs).t.length).toBe(0);
    const b = sessionBounds("2024-01-10");
    expect(market.minuteBarsSync("IBIT", b.openMs, b.closeMs).t.length).toBe(0);
    expect(market.chainSync("IBIT", b.openMs + 3_600_000)).toBeNull();
  });
});
