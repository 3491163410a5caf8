import { describe, expect, it } from "vitest";
import { normCdf } from "../../lib/math";
import { previousTradingDay, sessionBounds, tradingDaysBetween } from "../../lib/time";
import { VolError, chainTerms, impliedMove, sigma, type SigmaHistoryRow, type SigmaInput } from "../../lib/vol";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const day = "2024-05-01";
const { openMs, closeMs } = sessionBounds(day);
const priorCloseMs = sessionBounds(previousTradingDay(day)).closeMs;

/** A history whose session sigmas are exactly `sigmas` (priced move 1%). */
function historyOf(sigmas: number[]): SigmaHistoryRow[] {
  const rows: SigmaHistoryRow[] = [{ date: "d0", close: 100, em1dPct: null }];
  sigmas.forEach((s, i) => {
    rows.push({ date: `d${i + 1}`, close: rows[i].close * (1 + s / 100), em1dPct: 1 });
  });
  return rows;
}

const base = (over: Partial<SigmaInput> = {}): SigmaInput => ({
  asOfMs: openMs + 120 * 60_000,
  spot: 5030,
  priorClose: 5000,
  priorCloseMs,
  sessionOpenMs: openMs,
  sessionCloseMs: closeMs,
  em1dPct: 1,
  emRestNowPct: 0.7,
  history: historyOf([0.5, -1.5, 2.5, 0.2, -0.8, 1.0, -2.0, 0.1]),
  ...over,
});

describe("sigma", () => {
  it("measures today's move in priced one-day moves and the budget left", () => {
    const s = sigma(base());
    expect(s.move_pct).toBeCloseTo(0.6, 12);
    expect(s.running_sigma).toBeCloseTo(0.6, 12);
    expect(s.budget_used_pct).toBeCloseTo(60, 10);
    expect(s.budget_left_pct).toBeCloseTo(0.4, 12);
    expect(sigma(base({ spot: 4900 })).budget_left_pct).toBe(0);
    expect(sigma(base({ spot: 4900 })).running_sigma).toBeCloseTo(-2, 12);
  });

  it("gives normal and historical odds of 1- and 2-sigma days", () => {
    const s = sigma(base());
    expect(s.odds.theo_1s_pct).toBeCloseTo(31.7310507863, 8);
    expect(s.odds.theo_2s_pct).toBeCloseTo(4.5500263896, 8);
    // |sigma| >= 1: -1.5, 2.5, 1.0, -2.0 of 8; >= 2: 2.5, -2.0.
    expect(s.odds.sessions).toBe(8);
    expect(s.odds.hist_1s_pct).toBeCloseTo(50, 8);
    expect(s.odds.hist_2s_pct).toBeCloseTo(25, 8);
    // |sigma| >= 0.6: 5 of 8.
    expect(s.sigma_odds_pct).toBeCloseTo(62.5, 8);
    expect(s.sigma_odds_theo_pct).toBeCloseTo(200 * normCdf(-0.6), 12);
  });

  it("historical odds: the trailing 252 sessions that have a sigma; a 252-session history gives 251", () => {
    const sigmas = Array.from({ length: 300 }, (_, i) => (i < 48 ? 3 : 0.5));
    // 301 rows: 300 sigmas, the last 252 counted (all 0.5 but the 48 oldest, which fall out).
    const long = sigma(base({ history: historyOf(sigmas) }));
    expect(long.odds.sessions).toBe(252);
    expect(long.odds.hist_1s_pct).toBe(0);
    const rows252 = historyOf(sigmas.slice(-251)); // 252 rows: the oldest has no prior close
    expect(rows252).toHaveLength(252);
    expect(sigma(base({ history: rows252 })).odds.sessions).toBe(251);
  });

  it("keeps the last 60 sessions with their sigma", () => {
    const sigmas = Array.from({ length: 80 }, (_, i) => Math.sin(i));
    const s = sigma(base({ history: historyOf(sigmas) }));
    expect(s.days).toHaveLength(60);
    s.days.forEach((d, i) => {
      expect(d.sigma).toBeCloseTo(sigmas[20 + i], 9);
    });
    expect(s.odds.sessions).toBe(80);
  });

  it("paces the move on the calendar-minute variance clock and reads repricing", () => {
    const s = sigma(base());
    const f = (openMs + 120 * 60_000 - priorCloseMs) / (closeMs - priorCloseMs);
    expect(s.elapsed_frac).toBeCloseTo(f, 14);
    expect(s.day_pace).toBeCloseTo(0.6 / Math.sqrt(f), 12);
    // No repricing: the rest of the day priced now equals what the prior close priced for it.
    expect(sigma(base({ emRestNowPct: Math.sqrt(1 - f) })).day_reprice).toBeCloseTo(1, 12);
    expect(s.day_reprice).toBeCloseTo(0.7 / Math.sqrt(1 - f), 12);
  });

  it("has no pace or reprice outside regular hours", () => {
    for (const asOfMs of [openMs - 60_000, closeMs, closeMs + 3_600_000]) {
      const s = sigma(base({ asOfMs }));
      expect(s.day_pace).toBeNull();
      expect(s.day_reprice).toBeNull();
      expect(s.running_sigma).not.toBeNull();
    }
  });

  it("rejects invalid input with a typed error", () => {
    expect(() => sigma(base({ spot: -1 }))).toThrow(VolError);
  });
});

describe("sigma on the simulated market", () => {
  it("prices moves that cover the realized ones on most days (positive VRP)", () => {
    const market = simulatedMarketAt(42, Date.parse("2026-01-01T00:00:00Z"));
    const days = tradingDaysBetween("2024-02-01", "2024-06-28");
    const history: SigmaHistoryRow[] = [];
    let prevBoard: ReturnType<typeof market.chainSync> = null;
    for (const d of days) {
      const close = sessionBounds(d).closeMs;
      const board = market.chainSync("SPY", close)!;
      const em = prevBoard ? impliedMove(chainTerms(prevBoard), close)!.em1Pct : null;
      history.push({ date: d, close: market.spotSync("SPY", close)!, em1dPct: em });
      prevBoard = board;
    }
    const s = sigma({ ...base(), history });
    expect(s.odds.sessions).toBe(days.length - 1);
    // Realized variance below priced variance in aggregate (the simulator's variance premium).
    const realized = s.days.reduce((a, d) => a + d.move_pct ** 2, 0);
    const priced = s.days.reduce((a, d) => a + d.em_1d_pct ** 2, 0);
    expect(realized / priced).toBeLessThan(1);
    expect(s.odds.hist_1s_pct!).toBeLessThan(s.odds.theo_1s_pct);
    for (const d of s.days) expect(d.em_1d_pct).toBeGreaterThan(0.2);
  });
});
