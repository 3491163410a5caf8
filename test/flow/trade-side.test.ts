import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifySide, sideToleranceUsd, aggressionOf, TRADE_SIDES, SIDE_AGGRESSION, sideCode } from "../../lib/flow/trade-side";
import { dteCategoryOf, dteDays, moneynessOf, moneynessPct, premiumUsd, tradeFacts } from "../../lib/flow/trade-facts";
import { print } from "./_prints";

describe("trade side against the NBBO", () => {
  it("tolerance: 10% of the spread, floored at half a cent, capped at a quarter spread", () => {
    expect(sideToleranceUsd(0.5)).toBeCloseTo(0.05, 12); // 0.1 * 0.5
    expect(sideToleranceUsd(0.03)).toBeCloseTo(0.005, 12); // 0.1 * 0.03 = 0.003 < floor 0.005
    expect(sideToleranceUsd(0.01)).toBeCloseTo(0.0025, 12); // floor 0.005 > 0.01 / 4
    expect(sideToleranceUsd(0)).toBe(0.005); // locked market: the floor
  });

  it("bid 10.00 / ask 10.50 (tol 0.05, mid 10.25): every band", () => {
    const s = (p: number) => classifySide(p, 10, 10.5);
    expect(s(10.6)).toBe("AA"); // > 10.50 + 0.05
    expect(s(10.55)).toBe("A"); // = ask + tol: still at
    expect(s(10.5)).toBe("A");
    expect(s(10.45)).toBe("A"); // = ask - tol
    expect(s(10.4)).toBe("BA"); // above mid + tol (10.30), below ask - tol
    expect(s(10.3)).toBe("M"); // |10.30 - 10.25| = 0.05 <= tol
    expect(s(10.25)).toBe("M");
    expect(s(10.2)).toBe("M");
    expect(s(10.1)).toBe("AB");
    expect(s(10.05)).toBe("B"); // = bid + tol
    expect(s(10)).toBe("B");
    expect(s(9.95)).toBe("B"); // = bid - tol
    expect(s(9.9)).toBe("BB");
  });

  it("penny-wide market 1.00 / 1.01: tol 0.0025, so a half-penny print is mid", () => {
    expect(classifySide(1.005, 1.0, 1.01)).toBe("M");
    expect(classifySide(1.01, 1.0, 1.01)).toBe("A");
    expect(classifySide(1.0, 1.0, 1.01)).toBe("B");
  });

  it("no usable NBBO is N; a locked market is M unless the print is beyond it", () => {
    expect(classifySide(1, 0, 0)).toBe("N");
    expect(classifySide(1, 1.2, 1.1)).toBe("N"); // crossed
    expect(classifySide(1, Number.NaN, 1.1)).toBe("N");
    expect(classifySide(1.0, 1.0, 1.0)).toBe("M");
    expect(classifySide(1.01, 1.0, 1.0)).toBe("AA");
    expect(classifySide(0.99, 1.0, 1.0)).toBe("BB");
    expect(classifySide(0.05, 0, 0.05)).toBe("A"); // zero bid is a valid quote
  });

  it("aggression: +1 at/above ask, +0.5 below ask, 0 mid and no NBBO, mirror on the bid", () => {
    expect(TRADE_SIDES.map((s) => aggressionOf(s))).toEqual([0, -1, -1, -0.5, 0, 0.5, 1, 1]);
  });

  it("property: aggression never decreases as the price rises through a valid quote", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5_000 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: -300, max: 5_300 }),
        fc.integer({ min: -300, max: 5_300 }),
        (bidC, spreadC, p1, p2) => {
          const bid = bidC / 100;
          const ask = (bidC + spreadC) / 100;
          const [lo, hi] = p1 <= p2 ? [p1 / 100, p2 / 100] : [p2 / 100, p1 / 100];
          const a = SIDE_AGGRESSION[sideCode(lo, bid, ask)];
          const b = SIDE_AGGRESSION[sideCode(hi, bid, ask)];
          return a <= b && sideCode(lo, bid, ask) <= sideCode(hi, bid, ask);
        },
      ),
    );
  });
});

describe("premium, moneyness, DTE", () => {
  it("premium is price x size x 100", () => {
    expect(premiumUsd(2.5, 10)).toBe(2_500); // 2.5 * 10 * 100
    expect(premiumUsd(0.05, 1)).toBeCloseTo(5, 12);
  });

  it("moneynessPct: calls (K - S) / S, puts (S - K) / S, in percent", () => {
    expect(moneynessPct("C", 110, 100)).toBeCloseTo(10, 12); // 100 * 10 / 100
    expect(moneynessPct("P", 110, 100)).toBeCloseTo(-10, 12);
    expect(moneynessPct("P", 485, 500)).toBeCloseTo(3, 12); // 100 * 15 / 500
  });

  it("categories: ATM within +-3% inclusive, DEEP beyond +-10% inclusive", () => {
    expect([-10, -9.99, -3.01, -3, 0, 3, 3.01, 9.99, 10].map(moneynessOf)).toEqual(["DEEP_ITM", "ITM", "ITM", "ATM", "ATM", "ATM", "OTM", "OTM", "DEEP_OTM"]);
  });

  it("DTE in calendar days from the ET session date, never negative, with the reference's categories", () => {
    expect(dteDays("2024-03-15", "2024-03-15")).toBe(0);
    expect(dteDays("2024-03-15", "2024-03-22")).toBe(7);
    expect(dteDays("2024-03-08", "2024-03-15")).toBe(7); // across the DST change (2024-03-10)
    expect(dteDays("2024-03-15", "2024-03-14")).toBe(0);
    expect([0, 1, 7, 8, 30, 31, 90, 91, 180, 181].map(dteCategoryOf)).toEqual([
      "0DTE",
      "WEEKLY",
      "WEEKLY",
      "SHORT_TERM",
      "SHORT_TERM",
      "MEDIUM_TERM",
      "MEDIUM_TERM",
      "LONG_TERM",
      "LONG_TERM",
      "LEAPS",
    ]);
  });

  it("tradeFacts of a print: 20:59 ET on the 15th is still the 15th; a cross has aggression 0", () => {
    const p = print({ tsMs: Date.UTC(2024, 2, 15, 19, 59), price: 1.05, size: 20, right: "P", strike: 480, expiry: "2024-03-18" });
    const f = tradeFacts(p);
    expect(f.side).toBe("A");
    expect(f.aggression).toBe(1);
    expect(f.premiumUsd).toBeCloseTo(2_100, 9); // 1.05 * 20 * 100
    expect(f.moneynessPct).toBeCloseTo(4, 12); // 100 * (500 - 480) / 500
    expect(f.moneyness).toBe("OTM");
    expect(f.dte).toBe(3);
    expect(f.midUsd).toBeCloseTo(1.025, 12);
    const cross = tradeFacts(print({ conditions: ["SLCN"] }));
    expect(cross.side).toBe("A");
    expect(cross.aggression).toBe(0);
    expect(cross.isCross).toBe(true);
    expect(tradeFacts(print({ conditions: ["ISOI"] })).isSweepCondition).toBe(true);
    expect(tradeFacts(print({ conditions: ["MLET"] })).isMultiLeg).toBe(true);
  });
});
