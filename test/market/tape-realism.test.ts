import { describe, expect, it } from "vitest";
import { groupSweeps } from "../../lib/flow/sweeps";
import { isMultiLegPrint, isSweepPrint, type OptionPrint } from "../../lib/market";
import { optionPrintProfile } from "../../lib/market/prints/print-profile";
import { dayTilt } from "../../lib/market/prints/simulated-option-minute";
import { sessionBounds, tradingDaysBetween } from "../../lib/time";
import { simulatedMarketAt } from "../_helpers/simulated-market";

// What a flow trader reads off the simulated tape, over many sessions (seed 42): the shares of
// docs/methodology.md#tape-realism, each against the band stated there.

const market = simulatedMarketAt(42, Date.parse("2025-11-01T00:00:00Z"));
const DAYS = tradingDaysBetween("2024-01-02", "2025-10-31").filter((_, i) => i % 36 === 5);
/** The sampled part of each session: minutes [FROM, TO) after the open. */
const FROM = 30;
const TO = 60;

interface DayTape {
  day: string;
  prints: OptionPrint[];
  /** ln(last print's underlying price / the underlying at the open). */
  move: number;
}

/** The sampled prints of each session, with the underlying's move since the open. */
async function tapes(symbol: string, underlying: string): Promise<DayTape[]> {
  const out: DayTape[] = [];
  for (const day of DAYS) {
    const { openMs } = sessionBounds(day);
    const prints = await market.optionPrints(symbol, openMs + FROM * 60_000, openMs + TO * 60_000);
    out.push({ day, prints, move: Math.log(prints.at(-1)!.underlyingPrice / market.spotSync(underlying, openMs)!) });
  }
  return out;
}

const premium = (p: OptionPrint) => p.price * p.size * 100;
const mean = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;

function correlation(xs: number[], ys: number[]): number {
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0,
    sxx = 0,
    syy = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/** Share of a day's premium carried by its largest 1% of prints. */
function topPercentShare(prints: readonly OptionPrint[]): number {
  const p = prints.map(premium).sort((a, b) => b - a);
  return p.slice(0, Math.ceil(p.length / 100)).reduce((a, b) => a + b, 0) / p.reduce((a, b) => a + b, 0);
}

/** (bullish - bearish) / both among single-leg prints at the touch: calls bought or puts sold are bullish. */
function sentiment(prints: readonly OptionPrint[]): number {
  let bull = 0,
    bear = 0;
  for (const p of prints) {
    if (isMultiLegPrint(p)) continue;
    const atAsk = p.price >= p.nbboAsk;
    const atBid = p.price <= p.nbboBid;
    if ((p.right === "C" && atAsk) || (p.right === "P" && atBid)) bull++;
    else if ((p.right === "C" && atBid) || (p.right === "P" && atAsk)) bear++;
  }
  return (bull - bear) / (bull + bear);
}

const share = (prints: readonly OptionPrint[], test: (p: OptionPrint) => boolean, weight: (p: OptionPrint) => number = () => 1) =>
  prints.reduce((a, p) => a + (test(p) ? weight(p) : 0), 0) / prints.reduce((a, p) => a + weight(p), 0);

describe("tape realism over many sessions (docs/methodology.md#tape-realism)", async () => {
  const spxw = await tapes("SPXW", "SPX");
  const spy = await tapes("SPY", "SPY");
  const aapl = await tapes("AAPL", "AAPL");
  const all = { SPXW: spxw, SPY: spy, AAPL: aapl };

  it("samples enough sessions and prints", () => {
    expect(DAYS.length).toBeGreaterThanOrEqual(12);
    for (const days of Object.values(all)) for (const d of days) expect(d.prints.length).toBeGreaterThan(100);
  });

  it("has fat-tailed premium: the largest 1% of prints carry 35-85% of a session's premium", () => {
    for (const [symbol, days] of Object.entries(all)) {
      const top = mean(days.map((d) => topPercentShare(d.prints)));
      expect(top, symbol).toBeGreaterThan(0.35);
      expect(top, symbol).toBeLessThan(0.85);
      // And a typical print is small: the largest is over 1,000 times the median.
      const p = days.flatMap((d) => d.prints.map(premium)).sort((a, b) => a - b);
      expect(p[p.length - 1] / p[Math.floor(p.length / 2)], symbol).toBeGreaterThan(1_000);
    }
  });

  it("has sweeps that the flow library groups: several exchanges within ms on SPY, the one book on SPXW", () => {
    for (const [symbol, days, lo, hi] of [
      ["SPY", spy, 0.08, 0.3],
      ["AAPL", aapl, 0.08, 0.35],
      ["SPXW", spxw, 0.03, 0.15],
    ] as const) {
      const prints = days.flatMap((d) => d.prints);
      const s = share(prints, isSweepPrint);
      expect(s, symbol).toBeGreaterThan(lo);
      expect(s, symbol).toBeLessThan(hi);
      let swept = 0;
      for (const d of days) {
        const { groups } = groupSweeps(d.prints);
        for (const g of groups) {
          const members = g.printIndices.map((i) => d.prints[i]);
          if (!members.every(isSweepPrint)) continue;
          swept++;
          expect(g.executionTimeMs, symbol).toBeLessThanOrEqual(6);
          const buy = members[0].price >= members[0].nbboAsk;
          for (const m of members) expect(buy ? m.price >= m.nbboAsk : m.price <= m.nbboBid, symbol).toBe(true);
          if (symbol === "SPXW") {
            expect(g.exchanges, symbol).toEqual(["CBOE"]);
            // Every level taken is on SPX's grid ($0.05 below $3, $0.10 above).
            for (const m of members) if (m.price > 0.01) expect(Math.round(m.price * 100) % (m.price < 3 ? 5 : 10), `${m.price}`).toBe(0);
          } else expect(g.exchangeCount, symbol).toBeGreaterThanOrEqual(Math.min(3, members.length));
        }
      }
      expect(swept, symbol).toBeGreaterThan(20 * days.length * (symbol === "SPXW" ? 0.5 : 1));
    }
  });

  it("has multi-leg prints at plausible shares: index 15-40% of prints, ETF and stock 8-25%", () => {
    for (const [symbol, days, lo, hi] of [
      ["SPXW", spxw, 0.15, 0.4],
      ["SPY", spy, 0.08, 0.25],
      ["AAPL", aapl, 0.08, 0.25],
    ] as const) {
      const s = share(
        days.flatMap((d) => d.prints),
        isMultiLegPrint,
      );
      expect(s, symbol).toBeGreaterThan(lo);
      expect(s, symbol).toBeLessThan(hi);
    }
  });

  it("has sides that follow the day: bullish share correlates with the move since the open above 0.5", () => {
    for (const [symbol, days] of Object.entries(all)) {
      const r = correlation(
        days.map((d) => d.move),
        days.map((d) => sentiment(d.prints)),
      );
      expect(r, symbol).toBeGreaterThan(0.5);
    }
  });

  it("is 0DTE-heavy on the index: 45-70% of SPXW contracts on the session's expiration, SPY 25-50%", () => {
    const zero = (days: DayTape[]) =>
      mean(
        days.map((d) =>
          share(
            d.prints,
            (p) => p.expiry === d.day,
            (p) => p.size,
          ),
        ),
      );
    expect(zero(spxw)).toBeGreaterThan(0.45);
    expect(zero(spxw)).toBeLessThan(0.7);
    expect(zero(spy)).toBeGreaterThan(0.25);
    expect(zero(spy)).toBeLessThan(0.5);
    expect(zero(spxw)).toBeGreaterThan(zero(spy));
  });

  it("trades 0DTE strikes near the money beyond their open interest within the hour, back months far below it", () => {
    for (const day of DAYS.slice(0, 4)) {
      const board = market.chainSync("SPXW", sessionBounds(day).openMs + TO * 60_000)!;
      let zeroVol = 0,
        zeroOi = 0,
        backVol = 0,
        backOi = 0;
      for (let i = 0; i < board.right.length; i++) {
        if (Math.abs(board.strikes[board.strikeIndex[i]] / board.spot - 1) > 0.005) continue;
        const dte = (board.expirySettleMs[board.expIndex[i]] - board.asOfMs) / 86_400_000;
        if (board.expirations[board.expIndex[i]] === day) {
          zeroVol += board.volume[i];
          zeroOi += board.oi[i];
        } else if (dte > 30 && dte < 120) {
          backVol += board.volume[i];
          backOi += board.oi[i];
        }
      }
      // 0DTE contracts are opened and closed the same day: an hour in, volume is past open interest.
      expect(zeroVol / zeroOi, day).toBeGreaterThan(1);
      expect(backVol / backOi, day).toBeLessThan(0.05);
    }
  });
});

describe("the day's lean (docs/methodology.md#sides-follow-the-day)", () => {
  const index = optionPrintProfile("SPXW", "index");
  it("is directionTilt per daily standard deviation of the move since the open, capped at 0.25 each way", () => {
    const sd = 0.16 / Math.sqrt(252); // SPXW: ivRef 0.16
    expect(dayTilt(5000 * Math.exp(0.5 * sd), 5000, index)).toBeCloseTo(0.3 * 0.5, 12);
    expect(dayTilt(5000 * Math.exp(-0.5 * sd), 5000, index)).toBeCloseTo(-0.15, 12);
    expect(dayTilt(5000 * Math.exp(3 * sd), 5000, index)).toBe(0.25);
    expect(dayTilt(5000 * Math.exp(-3 * sd), 5000, index)).toBe(-0.25);
  });
  it("is zero on a flat day and without an opening price", () => {
    expect(dayTilt(5000, 5000, index)).toBe(0);
    expect(dayTilt(5010, undefined, index)).toBe(0);
    expect(dayTilt(5010, 0, index)).toBe(0);
  });
});
