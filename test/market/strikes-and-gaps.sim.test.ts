// Strikes after gaps and the size of earnings gaps (docs/methodology.md#strikes,
// docs/methodology.md#earnings-gaps).
//
// 1. Exchanges list new strikes after large moves, so the front expiration always has strikes on
//    both sides of spot: checked against each sampled session's regular-session high and low
//    (every minute's price lies in [low, high]), on every stock's earnings reaction sessions and
//    on spread sessions of index/ETF roots and stocks.
// 2. Earnings gaps are sized per name: large caps typically move 3-5% on earnings, high-beta names
//    such as NVDA and TSLA 6-9% (sd of the earnings-day move).
import { describe, expect, it } from "vitest";
import { symbolSpecs } from "../../lib/market";
import { simCalendar } from "../../lib/market/simulated/_calendar";
import { EARN_AMC, EARN_BMO, earningsGapSd } from "../../lib/market/simulated/daily-path";
import { SimEngine } from "../../lib/market/simulated/engine";
import { OVERNIGHT_VARIANCE_SHARE } from "../../lib/market/simulated/params";
import { nextTradingDay, sessionBounds, tradingDaysBetween } from "../../lib/time";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const market = simulatedMarketAt(42, Date.parse("2026-11-20T21:30:00Z"));
const STOCKS = symbolSpecs()
  .filter((s) => s.type === "stock")
  .map((s) => s.ticker);

/** Lowest and highest strike of the front expiration at the session's open, and the session's low and high. */
function frontCoverage(symbol: string, date: string) {
  const { openMs, closeMs } = sessionBounds(date);
  const c = market.chainWindowSync(symbol, openMs, { maxExpirations: 1, strikeWindow: (k) => ({ lo: 0, hi: k.length }) })!;
  let kLo = Infinity;
  let kHi = -Infinity;
  for (let i = 0; i < c.strikeIndex.length; i++) {
    const k = c.strikes[c.strikeIndex[i]];
    kLo = Math.min(kLo, k);
    kHi = Math.max(kHi, k);
  }
  const bars = market.minuteBarsSync(symbol, openMs, closeMs);
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < bars.t.length; i++) {
    lo = Math.min(lo, bars.l[i], bars.o[i]);
    hi = Math.max(hi, bars.h[i], bars.c[i]);
  }
  return { front: c.expirations[0], settleMs: c.expirySettleMs[0], kLo, kHi, lo, hi, closeMs, bars: bars.t.length };
}

describe("strikes follow the session's range", () => {
  const sessions: [string, string][] = [];
  for (const t of STOCKS)
    for (const ev of market.earningsSync(t, "2023-04-01", "2026-11-13")) sessions.push([t, ev.timing === "amc" ? nextTradingDay(ev.date) : ev.date]);
  const days = tradingDaysBetween("2023-03-28", "2026-11-20");
  for (const t of ["SPXW", "SPY", "QQQ", "IWM", "AAPL", "NVDA", "TSLA", "SMCI"])
    for (let i = 0; i < 25; i++) sessions.push([t, days[Math.round((i * (days.length - 1)) / 24)]]);

  it(`the front expiration has strikes below and above every minute's price (${sessions.length} sessions)`, () => {
    expect(sessions.length).toBeGreaterThan(1000);
    for (const [t, date] of sessions) {
      const r = frontCoverage(t, date);
      const label = `${t} ${date} front ${r.front} strikes [${r.kLo}, ${r.kHi}] range [${r.lo}, ${r.hi}]`;
      expect(r.bars, label).toBeGreaterThan(0);
      // The front expiration lives through the session (PM-settled roots only are sampled).
      expect(r.settleMs, label).toBeGreaterThanOrEqual(r.closeMs);
      expect(r.kLo, label).toBeLessThan(r.lo);
      expect(r.kHi, label).toBeGreaterThan(r.hi);
    }
  });
});

describe("earnings gaps are sized per name", () => {
  const engine = new SimEngine(42);
  const cal = simCalendar();
  const spec = (t: string) => engine.spec(t)!;

  it("uses 0.15 x vol by default and a per-name sd where the universe gives one", () => {
    // Large caps 3-5%, high-beta names 6-9% (sd of the earnings-day move).
    for (const t of ["AAPL", "MSFT", "JPM", "KO"]) {
      expect(earningsGapSd(spec(t)), t).toBeGreaterThanOrEqual(0.02);
      expect(earningsGapSd(spec(t)), t).toBeLessThanOrEqual(0.05);
    }
    for (const t of ["NVDA", "TSLA", "AMD"]) {
      expect(earningsGapSd(spec(t)), t).toBeGreaterThanOrEqual(0.06);
      expect(earningsGapSd(spec(t)), t).toBeLessThanOrEqual(0.09);
    }
    // MSFT has no per-name sd (AAPL has since issue 35: 4% against its 0.20 vol).
    expect(earningsGapSd(spec("MSFT"))).toBeCloseTo(0.15 * spec("MSFT").vol, 12);
    expect(earningsGapSd(spec("AAPL"))).toBe(0.04);
    expect(earningsGapSd(spec("META"))).toBe(spec("META").earningsGapSd);
  });

  /** Overnight log returns of a stock's earnings reaction sessions, with their model variance. */
  function reactions(t: string): { r: number; v: number }[] {
    const p = engine.dailyPath(t);
    const g = earningsGapSd(spec(t));
    const out: { r: number; v: number }[] = [];
    for (let d = 0; d + 1 < p.n; d++) {
      const reaction = p.earn[d] === EARN_BMO ? d : p.earn[d] === EARN_AMC ? d + 1 : -1;
      if (reaction < 0) continue;
      // Without the gap the overnight return has variance phi * h_total (jumps aside).
      out.push({ r: p.retOn[reaction], v: g * g + OVERNIGHT_VARIANCE_SHARE * p.hTotal[reaction] });
    }
    return out;
  }

  it("realises gaps of that size: pooled standardised reaction-day overnight returns have sd ~1", () => {
    const z = STOCKS.flatMap((t) => reactions(t).map((x) => x.r / Math.sqrt(x.v)));
    expect(z.length).toBeGreaterThan(2000);
    const sd = Math.sqrt(z.reduce((a, b) => a + b * b, 0) / z.length);
    // Standard error of a sample sd over ~2,500 normal draws is ~1.4%; jumps add a little.
    expect(sd).toBeGreaterThan(0.92);
    expect(sd).toBeLessThan(1.08);
    expect(cal.days.length).toBe(engine.dailyPath("AAPL").n);
  });

  it("gives AAPL 3-5% and NVDA 6-9% moves over 2023-2030", () => {
    const rms = (t: string) => {
      const x = reactions(t);
      return Math.sqrt(x.reduce((a, b) => a + b.r * b.r, 0) / x.length);
    };
    expect(rms("AAPL")).toBeGreaterThanOrEqual(0.03);
    expect(rms("AAPL")).toBeLessThanOrEqual(0.05);
    expect(rms("NVDA")).toBeGreaterThanOrEqual(0.06);
    expect(rms("NVDA")).toBeLessThanOrEqual(0.09);
  });
});
