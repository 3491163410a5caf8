import { describe, expect, it } from "vitest";
import { sessionBounds } from "../../lib/time";
import { chainTerms, eventImpliedMove, pastMoveStats, reactionSessions, reportInstantMs, vrp, type ChainTerms, type VixTerm } from "../../lib/vol";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const market = simulatedMarketAt(42, Date.parse("2026-01-01T00:00:00Z"));

describe("eventImpliedMove", () => {
  const e = market.earningsSync("AAPL", "2024-04-01", "2024-06-30")[0];
  const before = reactionSessions(e).before;
  const chain = market.chainSync("AAPL", sessionBounds(before).closeMs - 60_000)!;
  const real = chainTerms(chain);

  it("separates event variance exactly when total variance is linear in time plus a jump", () => {
    const v = 0.09;
    const jump = 0.0016;
    const fake: ChainTerms = {
      ...real,
      term: (k) => {
        const t = real.term(k);
        if (!t) return null;
        const tYears = real.expirations[k].tMinutes / 525_600;
        const total = real.expirations[k].settleMs > reportInstantMs(e) ? v * tYears + jump : v * tYears;
        return { ...t, totalVariance: total, varianceAnnual: total / tYears } as VixTerm;
      },
    };
    const m = eventImpliedMove(chain, fake, reportInstantMs(e))!;
    expect(m.estimate).toBe(false);
    expect(m.implied_move_pct).toBeCloseTo(100 * Math.sqrt(jump), 10);
    expect(m.varianceRateAnnual).toBeCloseTo(v, 10);
  });

  it("prices the simulated report well above a normal day's move", () => {
    const m = eventImpliedMove(chain, real, reportInstantMs(e))!;
    expect(m.estimate).toBe(false);
    const dayMove = 100 * Math.sqrt(m.varianceRateAnnual! / 365);
    expect(m.implied_move_pct!).toBeGreaterThan(1.5 * dayMove);
    expect(m.estimate_move_pct!).toBeGreaterThan(0);
  });

  it("falls back to the straddle estimate when one expiration spans the report", () => {
    const last = real.expirations.length - 1;
    const one: ChainTerms = { ...real, expirations: real.expirations.filter((x, k) => x.settleMs <= reportInstantMs(e) || k === last) };
    const m = eventImpliedMove(chain, { ...one, term: (k) => real.term(real.expirations.indexOf(one.expirations[k])) }, reportInstantMs(e))!;
    expect(m.estimate).toBe(true);
    expect(m.implied_move_pct).toBeNull();
    expect(m.estimate_move_pct!).toBeGreaterThan(0);
  });
});

describe("past moves and VRP", () => {
  it("summarises absolute reaction moves", () => {
    const s = pastMoveStats([3.1, -5.2, 1.4, -2.0], 4);
    expect(s.median_move_pct).toBeCloseTo(2.55, 12);
    expect(s.mean_move_pct).toBeCloseTo(11.7 / 4, 12);
    expect(s.implied_vs_median).toBeCloseTo(4 / 2.55, 12);
    expect(pastMoveStats([], 4).median_move_pct).toBeNull();
    expect(reactionSessions({ date: "2024-05-02", timing: "amc" })).toEqual({ before: "2024-05-02", after: "2024-05-03" });
    expect(reactionSessions({ date: "2024-05-02", timing: "bmo" })).toEqual({ before: "2024-05-01", after: "2024-05-02" });
  });

  it("reads realized vol, expected VRP and the overpaid share", () => {
    const r = 0.01;
    const closes = Array.from({ length: 300 }, (_, i) => 100 * Math.exp(r * (i % 2 ? 1 : -1) * (i % 2)));
    const rv = 100 * r * Math.sqrt(252);
    const svx = new Array(300).fill(rv + 3);
    const x = vrp(closes, svx);
    expect(x.rv20).toBeCloseTo(rv, 9);
    expect(x.expected_vrp).toBeCloseTo(3, 9);
    expect(x.overpaid_share_pct).toBe(100);
    expect(vrp(closes, new Array(300).fill(rv - 3)).overpaid_share_pct).toBe(0);
  });

  it("vrp_pct_1y: percentile over the previous 252 sessions that have an expected VRP (the server's 253 closes: 232)", () => {
    // 253 closes (252 history sessions and today): sessions 0-19 have no rv20, 20-251 do (232).
    const n = 253;
    const closes = Array.from({ length: n }, (_, i) => 100 * Math.exp(0.01 * (i % 2)));
    // SVX30 rises along the history, so expected VRP does too; today's sits above the first 116 of the 232.
    const svx = Array.from({ length: n }, (_, i) => 10 + i);
    svx[n - 1] = svx[20 + 116] - 0.5;
    const x = vrp(closes, svx);
    expect(x.vrp_pct_1y).toBeCloseTo((100 * 116) / 232, 12);
  });
});
