// SVX and cones on an AM-settled root (SPX monthlies), against the Cboe's own way of counting T
// (white paper: minutes left today + minutes from midnight to settlement + 1,440 per day between,
// in the exchange's local clock) and the slow reference VIX term (test/vol/_reference-vix.ts).
import { describe, expect, it } from "vitest";
import { chainTerms, cones, expirationQuotes, impliedMove, svxAll } from "../../lib/vol";
import { boardSettlement } from "../../lib/vol/_board-settlement";
import { referenceVixTerm } from "./_reference-vix";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const market = simulatedMarketAt(42, Date.parse("2026-01-01T00:00:00Z"));

/** Whole calendar days from `a` to `b` (ISO dates). */
const daysBetween = (a: string, b: string) => (Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000;

/**
 * The white paper's N for a quote at `hh:mm` local time on `today`, settling at `settleHHMM` on
 * `expiry`: M_current + M_settlement + M_other (wall-clock minutes, ignoring DST changes).
 */
function cboeMinutes(today: string, hh: number, mm: number, expiry: string, settleHHMM: [number, number]): number {
  const current = 1440 - (hh * 60 + mm);
  const settle = settleHHMM[0] * 60 + settleHHMM[1];
  return current + settle + 1440 * (daysBetween(today, expiry) - 1);
}

describe("SVX on SPX (AM-settled monthlies)", () => {
  // 2024-04-22 09:46 ET (EDT): the white paper's quote time; the May standard is 25 days out.
  const asOfMs = Date.parse("2024-04-22T13:46:00Z");
  const board = market.chainSync("SPX", asOfMs)!;
  const terms = chainTerms(board);

  it("is an AM-settled board of monthlies only", () => {
    expect(board.asOfMs).toBe(asOfMs);
    expect(boardSettlement(board)).toBe("AM");
    expect(boardSettlement(market.chainSync("SPXW", asOfMs)!)).toBe("PM");
    expect(board.expirations[0]).toBe("2024-05-17");
    expect(board.expirations[1]).toBe("2024-06-21");
  });

  it("counts every term to 09:30 ET of its expiration, as the Cboe counts the standard SPX", () => {
    // Before the 2024-11-03 DST change, elapsed minutes equal the local wall-clock count.
    const before = terms.expirations.filter((e) => e.expiration < "2024-11-03");
    expect(before.length).toBeGreaterThanOrEqual(6);
    for (const e of before) expect(e.tMinutes, e.expiration).toBe(cboeMinutes("2024-04-22", 9, 46, e.expiration, [9, 30]));
    expect(terms.expirations[0].tMinutes).toBe(854 + 570 + 24 * 1440);
    // Across the fall-back change the day has 25 hours: one more elapsed hour than the wall clock shows.
    const after = terms.expirations.find((e) => e.expiration > "2024-11-03" && e.expiration < "2025-03-09")!;
    expect(after.tMinutes).toBe(cboeMinutes("2024-04-22", 9, 46, after.expiration, [9, 30]) + 60);
  });

  it("svx30 equals the white paper's formula on the two standard terms around 30 days", () => {
    const s = svxAll(terms).svx30!;
    expect(s.method).toBe("interpolated");
    expect(s.near!.expiration).toBe("2024-05-17");
    expect(s.next!.expiration).toBe("2024-06-21");
    const n1 = cboeMinutes("2024-04-22", 9, 46, "2024-05-17", [9, 30]);
    const n2 = cboeMinutes("2024-04-22", 9, 46, "2024-06-21", [9, 30]);
    const v1 = referenceVixTerm(expirationQuotes(board, 0), n1, board.rate)!.variance;
    const v2 = referenceVixTerm(expirationQuotes(board, 1), n2, board.rate)!.variance;
    const n30 = 43_200;
    const t1 = n1 / 525_600;
    const t2 = n2 / 525_600;
    const vix = 100 * Math.sqrt((t1 * v1 * ((n2 - n30) / (n2 - n1)) + t2 * v2 * ((n30 - n1) / (n2 - n1))) * (525_600 / n30));
    expect(s.value).toBeCloseTo(vix, 10);
    // The same market priced on the PM-settled root reads close to it (one S&P surface underneath).
    const pm = svxAll(market.chainSync("SPXW", asOfMs)!).svx30!.value;
    expect(Math.abs(s.value - pm) / pm).toBeLessThan(0.05);
  });

  it("holds the front standard's variance flat for the tenors before it (no 0DTE on the root)", () => {
    const all = svxAll(terms);
    const n1 = terms.expirations[0].tMinutes;
    const v1 = referenceVixTerm(expirationQuotes(board, 0), n1, board.rate)!.variance;
    for (const tenor of ["svx1d", "svx9"] as const) {
      expect(all[tenor]!.method, tenor).toBe("extrapolated");
      expect(all[tenor]!.value, tenor).toBeCloseTo(100 * Math.sqrt(v1), 10);
    }
  });

  it("the cones' opex horizon ends at the standard's 09:30 settlement, where the term stands alone", () => {
    const c = cones(board, { terms });
    const opex = c.horizons.find((h) => h?.name === "opex")!;
    expect(opex.settle_at).toBe("2024-05-17T13:30:00Z");
    const term = terms.term(0)!;
    expect(opex.em1_pct).toBeCloseTo(100 * Math.sqrt(term.varianceAnnual * (terms.expirations[0].tMinutes / 525_600)), 10);
    expect(impliedMove(terms, Date.parse("2024-05-17T13:30:00Z"))!.read.method).toBe("single");
    // A PM-settled board at the same instant runs its opex horizon to that day's close.
    const pm = cones(market.chainSync("SPXW", asOfMs)!).horizons.find((h) => h?.name === "opex")!;
    expect(pm.settle_at).toBe("2024-05-17T20:00:00Z");
  });
});

describe("SPX around its monthly expiration", () => {
  it("the eve of expiration: the standard settles at the next open, 1,110 minutes after 15:00", () => {
    const board = market.chainSync("SPX", Date.parse("2024-05-16T19:00:00Z"))!; // Thu 15:00 EDT
    const terms = chainTerms(board);
    expect(terms.expirations[0].expiration).toBe("2024-05-17");
    expect(terms.expirations[0].tMinutes).toBe(cboeMinutes("2024-05-16", 15, 0, "2024-05-17", [9, 30]));
    expect(terms.expirations[0].tMinutes).toBe(1110);
    // svx1d brackets one day with the expiring standard and the next monthly.
    const one = svxAll(terms).svx1d!;
    expect(one.method).toBe("interpolated");
    expect(one.near!.expiration).toBe("2024-05-17");
    expect(one.next!.expiration).toBe("2024-06-21");
  });

  it("expiration morning after 09:30: the standard has settled and opex rolls to the next month", () => {
    const asOfMs = Date.parse("2024-05-17T14:00:00Z"); // Fri 10:00 EDT
    const board = market.chainSync("SPX", asOfMs)!;
    expect(board.expirations).not.toContain("2024-05-17");
    expect(chainTerms(board).expirations[0].expiration).toBe("2024-06-21");
    const opex = cones(board).horizons.find((h) => h?.name === "opex")!;
    expect(opex.settle_at).toBe("2024-06-21T13:30:00Z");
    // SPXW's own May 17 expiration is still live until 16:00, and so is its opex horizon.
    const pm = cones(market.chainSync("SPXW", asOfMs)!).horizons.find((h) => h?.name === "opex")!;
    expect(pm.settle_at).toBe("2024-05-17T20:00:00Z");
  });
});
