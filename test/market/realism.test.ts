// The simulated market as a trader sees it (issue 20): every statistic of the table,
// computed over the window the server shows (seed 42, 2023-03-28 .. 2025-10-31), against its
// target band. Bands and their sources: docs/methodology.md#realism-targets.
import { describe, expect, it } from "vitest";
import { SPX_ANCHORS } from "../../lib/market/simulated/anchors";
import { sessionBounds } from "../../lib/time";
import { closes, correlation, excessKurtosis, logReturns, WINDOW_DAYS, windowMarket } from "./_realism-stats";

const market = windowMarket();
const spx = closes(market, "SPX");
const simple = spx.slice(1).map((c, i) => c / spx[i] - 1);

describe("levels line up with real ones (docs/methodology.md#level-anchors)", () => {
  it("passes through the real SPX closes of the issue's table", () => {
    const at = (d: string) => spx[WINDOW_DAYS.indexOf(d)];
    expect(at("2023-12-29")).toBeCloseTo(4769.83, 2);
    expect(at("2024-12-31")).toBeCloseTo(5881.63, 2);
    expect(Math.abs(at("2025-06-13") / 5977 - 1)).toBeLessThan(0.001);
  });

  it("passes through every anchor and opens at the anchored opens; SPY and XSP follow at their ratios", () => {
    for (const a of SPX_ANCHORS) {
      expect(spx[WINDOW_DAYS.indexOf(a.date)]).toBeCloseTo(a.close, 2);
      if (a.open !== undefined) expect(market.spotSync("SPX", sessionBounds(a.date).openMs)).toBeCloseTo(a.open, 2);
    }
    const spy = closes(market, "SPY");
    for (let i = 0; i < spy.length; i += 40) expect(spx[i] / spy[i]).toBeCloseTo(3977.53 / 396.49, 1);
  });

  it("stays random between anchors: daily returns are not a smooth interpolation", () => {
    // Between 2023-07-31 and 2023-09-29 the path has up and down days, not a straight line.
    const i0 = WINDOW_DAYS.indexOf("2023-07-31");
    const i1 = WINDOW_DAYS.indexOf("2023-09-29");
    const seg = simple.slice(i0, i1);
    expect(seg.filter((r) => r > 0).length).toBeGreaterThan(0.3 * seg.length);
    expect(seg.filter((r) => r < 0).length).toBeGreaterThan(0.3 * seg.length);
    expect(Math.sqrt(seg.reduce((s, r) => s + r * r, 0) / seg.length)).toBeGreaterThan(0.004);
  });

  it("moves correlated names through their betas", () => {
    const r = logReturns(spx);
    expect(correlation(r, logReturns(closes(market, "NDX")))).toBeGreaterThan(0.8);
    const aapl = correlation(r, logReturns(closes(market, "AAPL")));
    expect(aapl).toBeGreaterThan(0.45);
    expect(aapl).toBeLessThan(0.9);
  });
});

describe("fat tails and volatility clustering inside the window (docs/methodology.md#realism-targets)", () => {
  const r = logReturns(spx);

  it("has clearly positive excess kurtosis of daily SPX returns (band 3-25)", () => {
    const k = excessKurtosis(r);
    expect(k).toBeGreaterThan(3);
    expect(k).toBeLessThan(25);
  });

  it("has its worst day near -6% and its best near +9.5%, both in April 2025", () => {
    const worst = Math.min(...simple);
    const best = Math.max(...simple);
    expect(worst).toBeGreaterThan(-0.07);
    expect(worst).toBeLessThan(-0.05);
    expect(best).toBeGreaterThan(0.085);
    expect(best).toBeLessThan(0.105);
    expect(WINDOW_DAYS[simple.indexOf(worst) + 1].slice(0, 7)).toBe("2025-04");
    expect(WINDOW_DAYS[simple.indexOf(best) + 1].slice(0, 7)).toBe("2025-04");
  });

  it("clusters volatility: lag-1 autocorrelation of |r| in 0.2-0.3", () => {
    const a = r.map(Math.abs);
    const ac = correlation(a.slice(1), a.slice(0, -1));
    expect(ac).toBeGreaterThanOrEqual(0.2);
    expect(ac).toBeLessThanOrEqual(0.3);
  });
});
