import { groupSweeps, groupSweepsSteps } from "../../lib/flow/sweeps";
import { SWEEP_WINDOW } from "../../lib/flow/params";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scoreFlow, premiumNorm, roundHalfAway, sizeComponent, type ScoredTrade } from "../../lib/flow/flow-score";
import { flowColumns, flowColumnsSteps, scoreFlowColumns, scoreFlowColumnsSteps, type FlowScoreColumns } from "../../lib/flow/flow-columns";
import { FlowScoreWeightsSchema } from "../../lib/flow/score-weights";
import { TRADE_SIDES } from "../../lib/flow/trade-side";
import { DTE_CATEGORIES, MONEYNESS_CATEGORIES } from "../../lib/flow/trade-facts";
import { OPTION_EXCHANGES } from "../../lib/market/prints/conditions";
import type { OptionPrint } from "../../lib/market/prints/schemas";
import { OPEN_MS, print } from "./_prints";
import { violations } from "../_helpers/violations";
import { simulatedMarketAt } from "../_helpers/simulated-market";

/**
 * Asserts each columnar row equals its object trade, field for field (exact: Object.is, as `toBe`
 * and `toEqual` compare numbers). One assertion for all rows: an expect per field of every row
 * costs more than scoring them (test/_helpers/violations.ts).
 */
function expectSame(o: readonly ScoredTrade[], c: FlowScoreColumns, n: number): void {
  const v = violations();
  for (let i = 0; i < n; i++) {
    const t = o[i];
    const same = (field: string, col: unknown, obj: unknown) => v.check(Object.is(col, obj), () => `row ${i} ${field}: columns ${String(col)}, object ${String(obj)}`);
    same("side", TRADE_SIDES[c.side[i]], t.side);
    same("aggression", c.aggression[i], t.aggression);
    same("premiumUsd", c.premiumUsd[i], t.premiumUsd);
    same("moneynessPct", c.moneynessPct[i], t.moneynessPct);
    same("moneyness", MONEYNESS_CATEGORIES[c.moneyness[i]], t.moneyness);
    same("dteCategory", DTE_CATEGORIES[c.dteCategory[i]], t.dteCategory);
    same("sweepGroup", c.sweepGroup[i], t.sweepGroup);
    same("dailyVolume", c.dailyVolume[i], t.dailyVolume);
    same("volOiRatio", Number.isNaN(c.volOiRatio[i]) ? null : c.volOiRatio[i], t.volOiRatio);
    same("sizeRatio", c.sizeRatio[i], t.sizeRatio);
    same("repeatCount", c.repeatCount[i], t.repeatCount);
    same("components.size", c.size[i], t.components.size);
    same("components.sweep", c.sweep[i], t.components.sweep);
    same("components.moneyness", c.moneynessC[i], t.components.moneyness);
    same("components.dte", c.dteC[i], t.components.dte);
    same("components.volOi", c.volOi[i], t.components.volOi);
    same("components.repeat", c.repeat[i], t.components.repeat);
    same("baseDirection", c.baseDirection[i], t.baseDirection);
    same("conviction", c.conviction[i], t.conviction);
    same("flowScore", c.flowScore[i], t.flowScore);
    same("flowBonus", c.flowBonus[i], t.flowBonus);
  }
  v.expectNone("columnar rows vs object trades");
}

const W = { size: 0.25, sweep: 0.15, moneyness: 0.1, dte: 0.1, volOi: 0.2, repeat: 0.2 };

describe("Flow Score: hand-computed trades", () => {
  it("an ATM weekly call bought at the ask, 10.5x the norm, volume = OI", () => {
    // SPY 2024-03-22 510 C, spot 500: moneyness 100 * 10 / 500 = 2% -> ATM (0.7); 7 DTE -> WEEKLY (0.85)
    // premium 1.05 * 100 * 100 = 10,500; norm 1,000 -> ratio 10.5 -> size ln(10.5) / ln(100)
    // OI 100, volume 100 -> vol/OI 1 -> component 1 / 2 = 0.5; no sweep, no earlier orders
    const p = print({ size: 100, price: 1.05 });
    const [t] = scoreFlow([p], { normPremiumUsd: 1_000, openInterest: new Map([[p.symbol, 100]]) });
    const size = Math.log(10.5) / Math.log(100);
    const conviction = W.size * size + W.moneyness * 0.7 + W.dte * 0.85 + W.volOi * 0.5;
    expect(t.side).toBe("A");
    expect(t.premiumUsd).toBeCloseTo(10_500, 9);
    expect(t.components.size).toBeCloseTo(size, 12);
    expect(t.components).toMatchObject({ sweep: 0, moneyness: 0.7, dte: 0.85, volOi: 0.5, repeat: 0 });
    expect(t.conviction).toBeCloseTo(conviction, 12); // 0.3826...
    expect(t.convictionMultiplier).toBeCloseTo(0.25 + 0.75 * conviction, 12); // 0.5370...
    expect(t.baseDirection).toBe(100);
    expect(t.flowScore).toBe(Math.round(100 * (0.25 + 0.75 * conviction))); // 54
    expect(t.flowScore).toBe(54);
    expect(t.flowBonus).toBe(38); // round(38.26)
    expect(t.flowScoreInterpretation).toBe("bullish");
    expect(t.flowBonusInterpretation).toBe("low_conviction");
    expect(t.volOiRatio).toBe(1);
  });

  it("a put sweep, then two repeat buys: sweep, repeat window, running vol/OI", () => {
    const t0 = OPEN_MS + 10_000;
    const put = { right: "P" as const, strike: 490, price: 2, nbboBid: 1.9, nbboAsk: 2, size: 10 };
    const prints = [
      print({ ...put, tsMs: t0, exchange: "CBOE" }),
      print({ ...put, tsMs: t0 + 1, exchange: "PHLX" }),
      print({ ...put, tsMs: t0 + 2, exchange: "ISE" }),
      print({ ...put, tsMs: t0 + 60_000 }), // 1 min later: one earlier order (the sweep)
      print({ ...put, tsMs: t0 + 360_000 }), // 6 min later: the sweep has left the 5-min window
    ];
    const s = scoreFlow(prints, { normPremiumUsd: 1_000, openInterest: new Map([[prints[0].symbol, 1_000]]) });
    // premium 2 * 10 * 100 = 2,000 -> ratio 2 -> size ln 2 / ln 100; moneyness (500 - 490) / 500 = 2% ATM
    const size = Math.log(2) / Math.log(100);
    const conv = (sweep: number, volume: number, repeat: number) =>
      W.size * size + W.sweep * sweep + W.moneyness * 0.7 + W.dte * 0.85 + W.volOi * Math.min(1, volume / 1_000 / 2) + W.repeat * repeat;
    const expected = [conv(1, 10, 0), conv(1, 20, 0), conv(1, 30, 0), conv(0, 40, 1 / 5), conv(0, 50, 1 / 5)];
    expect(s.map((t) => t.sweepGroup)).toEqual([0, 0, 0, -1, -1]);
    expect(s.map((t) => t.repeatCount)).toEqual([0, 0, 0, 1, 1]);
    expect(s.map((t) => t.dailyVolume)).toEqual([10, 20, 30, 40, 50]);
    s.forEach((t, i) => {
      expect(t.conviction).toBeCloseTo(expected[i], 12);
      expect(t.baseDirection).toBe(-100); // bought puts: bearish
      expect(t.flowScore).toBe(-Math.round(100 * (0.25 + 0.75 * expected[i])));
    });
    expect(s.map((t) => t.flowScore)).toEqual([-51, -51, -51, -43, -43]);
    expect(s.map((t) => t.flowBonus)).toEqual([34, 34, 35, 24, 24]);
  });

  it("sold calls are bearish, sold puts bullish, mid and crosses 0, multi-leg legs at half weight", () => {
    const oi = new Map<string, number>();
    const base = (p: OptionPrint) => scoreFlow([p], { normPremiumUsd: 1_000, openInterest: oi })[0].baseDirection;
    expect(base(print({ price: 1.0 }))).toBe(-100);
    expect(base(print({ right: "P", price: 1.0 }))).toBe(100);
    expect(base(print({ price: 1.025 }))).toBe(0);
    expect(base(print({ conditions: ["SLCN"] }))).toBe(0);
    expect(base(print({ conditions: ["MLET"] }))).toBe(50);
    expect(base(print({ price: 1.04 }))).toBe(50); // BA: above the mid zone (mid 1.025, tol 0.005)
    // unknown OI: vol/OI component 0 and ratio null; known zero OI: component 1
    const [unknown] = scoreFlow([print()], { normPremiumUsd: 1_000, openInterest: oi });
    expect([unknown.components.volOi, unknown.volOiRatio, unknown.openInterest]).toEqual([0, null, null]);
    const p = print();
    const [zero] = scoreFlow([p], { normPremiumUsd: 1_000, openInterest: new Map([[p.symbol, 0]]) });
    expect([zero.components.volOi, zero.volOiRatio, zero.openInterest]).toEqual([1, null, 0]);
  });

  it("helpers: size component, median norm, rounding, weight validation", () => {
    expect(sizeComponent(1)).toBe(0);
    expect(sizeComponent(10)).toBeCloseTo(0.5, 12); // ln 10 / ln 100
    expect(sizeComponent(1_000)).toBe(1);
    expect(
      premiumNorm([
        { price: 1, size: 1 },
        { price: 3, size: 1 },
        { price: 2, size: 2 },
        { price: 10, size: 1 },
      ]),
    ).toBe(350); // (300 + 400) / 2
    expect([roundHalfAway(2.5), roundHalfAway(-2.5), roundHalfAway(-0.4), Object.is(roundHalfAway(-0.4), 0)]).toEqual([3, -3, 0, true]);
    expect(FlowScoreWeightsSchema.safeParse({}).success).toBe(true);
    expect(FlowScoreWeightsSchema.safeParse({ size: 0.5 }).success).toBe(false); // sums to 1.25
    expect(FlowScoreWeightsSchema.safeParse({ size: 0.2, repeat: 0.25 }).success).toBe(true);
    expect(FlowScoreWeightsSchema.safeParse({ size: -0.1, repeat: 0.55 }).success).toBe(false);
  });
});

describe("Flow Score: the columnar batch equals the per-object oracle", () => {
  it.each([
    ["SPXW", 30], // one exchange (CBOE): no sweeps, many multi-leg legs and 0DTE prints
    ["SPY", 20], // multi-listed: sweeps across exchanges
  ])("on simulated %s prints (%i minutes)", async (ticker, minutes) => {
    const from = Date.UTC(2024, 2, 15, 13, 30);
    const market = simulatedMarketAt(11, Date.UTC(2024, 3, 1));
    const prints = await market.optionPrints(ticker, from, from + minutes * 60_000);
    const oi = new Map<string, number>();
    // every third traded contract's open interest is left unknown, every fifth is zero
    prints.forEach((p, i) => {
      if (i % 3) oi.set(p.symbol, i % 5 ? 50 + (i % 7) * 40 : 0);
    });
    const ctx = { normPremiumUsd: premiumNorm(prints), openInterest: oi };
    const o = scoreFlow(prints, ctx);
    const c = scoreFlowColumns(flowColumns(prints, oi), ctx);
    expect(prints.length).toBeGreaterThan(300);
    expectSame(o, c, prints.length);
    expect(new Set(o.map((t) => t.flowScoreInterpretation)).size).toBeGreaterThanOrEqual(4);
    if (ticker === "SPY") expect(o.filter((t) => t.isSweep).length).toBeGreaterThan(20);
    expect(o.filter((t) => t.repeatCount > 0).length).toBeGreaterThan(10);
    // The sweeps grouped in pieces (the server's loop runs other work between them) equal one pass.
    const whole = groupSweeps(prints);
    const steps = groupSweepsSteps(prints, SWEEP_WINDOW, 97);
    let pauses = 0;
    let r = steps.next();
    while (!r.done) {
      pauses++;
      r = steps.next();
    }
    expect(pauses).toBeGreaterThanOrEqual(Math.floor((prints.length - 1) / 97));
    expect(r.value).toEqual(whole);
    // So are the columns and their scores.
    const piecewise = <T>(gen: Generator<void, T, void>) => {
      let n = 0;
      let step = gen.next();
      while (!step.done) {
        n++;
        step = gen.next();
      }
      return { value: step.value, pauses: n };
    };
    const cols = piecewise(flowColumnsSteps(prints, oi, 97));
    expect(cols.pauses).toBe(Math.ceil(prints.length / 97) - 1);
    expect(cols.value).toEqual(flowColumns(prints, oi));
    const scored = piecewise(scoreFlowColumnsSteps(cols.value, ctx, 97));
    expect(scored.pauses).toBe(2 * Math.ceil(prints.length / 97) - 1);
    expect(scored.value).toEqual(c);
  });

  it("property: on random tapes (contracts, sides, exchanges, conditions, bursts)", () => {
    const conditions = ["AUTO", "ISOI", "MLET", "SLCN", "SLAN"] as const;
    const tape = fc.array(
      fc.record({
        dtMs: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 400_000 })),
        contract: fc.integer({ min: 0, max: 3 }),
        priceC: fc.integer({ min: 95, max: 111 }),
        size: fc.integer({ min: 1, max: 500 }),
        ex: fc.integer({ min: 0, max: OPTION_EXCHANGES.length - 1 }),
        cond: fc.constantFrom(...conditions),
      }),
      { maxLength: 120 },
    );
    fc.assert(
      fc.property(tape, fc.integer({ min: 0, max: 5_000 }), (rows, norm) => {
        let t = OPEN_MS;
        const prints = rows.map((r) => {
          t += r.dtMs;
          return print({
            tsMs: t,
            strike: 495 + 5 * r.contract,
            right: r.contract % 2 ? "P" : "C",
            price: r.priceC / 100,
            nbboBid: 1.0,
            nbboAsk: 1.05,
            size: r.size,
            exchange: OPTION_EXCHANGES[r.ex],
            conditions: [r.cond],
          });
        });
        const oi = new Map([[prints[0]?.symbol ?? "", 300]]);
        const o = scoreFlow(prints, { normPremiumUsd: norm, openInterest: oi });
        const c = scoreFlowColumns(flowColumns(prints, oi), { normPremiumUsd: norm });
        expectSame(o, c, prints.length);
        return o.every((x) => x.flowScore >= -100 && x.flowScore <= 100 && x.flowBonus >= 0 && x.flowBonus <= 100);
      }),
      { numRuns: 150 },
    );
  });
});
