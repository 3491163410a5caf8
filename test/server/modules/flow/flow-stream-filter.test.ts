// The live-feed filters of /v1/flow/stream on hand-made trades: side buckets, null values against
// bounds, score bands, percentile bands and the multi-leg/sweep/cross toggles; the query's
// cross-field rules.
import { describe, expect, it } from "vitest";
import { FlowStreamQuerySchema } from "../../../../lib/api/flow-stream";
import type { ScoredTrade } from "../../../../lib/flow";
import { checkStreamQuery, streamFilterOf, streamTradePasses } from "../../../../server/modules/flow/streams/flow-stream-filter";

const filterOf = (q: Record<string, string>) => streamFilterOf(FlowStreamQuerySchema.parse(q));

/** A trade with only what the filters read. */
function trade(o: Partial<ScoredTrade>): ScoredTrade {
  return {
    right: "C",
    premiumUsd: 10_000,
    size: 10,
    dte: 5,
    openInterest: 100,
    volOiRatio: 0.5,
    iv: 0.3,
    side: "A",
    isSweep: false,
    isCross: false,
    isMultiLeg: false,
    flowScore: 20,
    ...o,
  } as ScoredTrade;
}

describe("streamTradePasses", () => {
  it("defaults let every trade through", () => {
    const f = filterOf({});
    for (const side of ["N", "BB", "B", "AB", "M", "BA", "A", "AA"] as const) expect(streamTradePasses(trade({ side }), null, f)).toBe(true);
    expect(streamTradePasses(trade({ right: "P", openInterest: null, volOiRatio: null, iv: null }), null, f)).toBe(true);
  });

  it("side toggles are independent buckets; N and crosses are not gated", () => {
    const f = filterOf({ show_mid: "false", show_above_ask: "false" });
    const pass = (side: ScoredTrade["side"], isCross = false) => streamTradePasses(trade({ side, isCross }), null, f);
    expect([pass("BB"), pass("B"), pass("AB"), pass("M"), pass("BA"), pass("A"), pass("AA"), pass("N")]).toEqual([true, true, false, false, false, true, false, true]);
    expect(pass("M", true)).toBe(true);
  });

  it("a bound excludes trades without the value; inclusive bounds", () => {
    const f = filterOf({ min_oi: "100", max_vol_oi: "0.5", min_iv: "0.3" });
    expect(streamTradePasses(trade({}), null, f)).toBe(true);
    expect(streamTradePasses(trade({ openInterest: null }), null, f)).toBe(false);
    expect(streamTradePasses(trade({ openInterest: 99 }), null, f)).toBe(false);
    expect(streamTradePasses(trade({ volOiRatio: null }), null, f)).toBe(false);
    expect(streamTradePasses(trade({ volOiRatio: 0.51 }), null, f)).toBe(false);
    expect(streamTradePasses(trade({ iv: null }), null, f)).toBe(false);
  });

  it("scores, percentile bands, 0DTE and the trade-type toggles", () => {
    expect(streamTradePasses(trade({ flowScore: -40 }), null, filterOf({ abs_min_flow_score: "40" }))).toBe(true);
    expect(streamTradePasses(trade({ flowScore: 39 }), null, filterOf({ abs_min_flow_score: "40" }))).toBe(false);
    expect(streamTradePasses(trade({ flowScore: -40 }), null, filterOf({ min_flow_score: "-39" }))).toBe(false);
    expect(streamTradePasses(trade({}), 90, filterOf({ min_percentile: "90" }))).toBe(true);
    expect(streamTradePasses(trade({}), 75, filterOf({ min_percentile: "90" }))).toBe(false);
    expect(streamTradePasses(trade({}), null, filterOf({ min_percentile: "0" }))).toBe(false);
    expect(streamTradePasses(trade({ dte: 0 }), null, filterOf({ only_0dte: "true" }))).toBe(true);
    expect(streamTradePasses(trade({ dte: 1 }), null, filterOf({ only_0dte: "true" }))).toBe(false);
    expect(streamTradePasses(trade({ isMultiLeg: true }), null, filterOf({ exclude_multi_leg: "true" }))).toBe(false);
    expect(streamTradePasses(trade({ isMultiLeg: false }), null, filterOf({ only_multi_leg: "true" }))).toBe(false);
    expect(streamTradePasses(trade({ isSweep: true }), null, filterOf({ only_sweeps: "true" }))).toBe(true);
    expect(streamTradePasses(trade({ isCross: false }), null, filterOf({ only_crosses: "true" }))).toBe(false);
    expect(streamTradePasses(trade({ right: "P" }), null, filterOf({ show_puts: "false" }))).toBe(false);
    expect(streamTradePasses(trade({ size: 9 }), null, filterOf({ min_size: "10" }))).toBe(false);
  });

  it("equal filters give equal keys whatever the parameter order", () => {
    expect(JSON.stringify(filterOf({ min_size: "2", show_puts: "false" }))).toBe(JSON.stringify(filterOf({ show_puts: "false", min_size: "2" })));
  });
});

describe("checkStreamQuery", () => {
  const check = (q: Record<string, string>) => () => checkStreamQuery(FlowStreamQuerySchema.parse(q));
  it("refuses inverted bounds and contradictory toggles, naming the parameter", () => {
    expect(check({ min_size: "5", max_size: "4" })).toThrow(/min_size/);
    expect(check({ min_iv: "0.5", max_iv: "0.4" })).toThrow(/min_iv/);
    expect(check({ show_stocks: "false", show_etf: "false", show_indices: "false" })).toThrow(/show_stocks/);
    expect(check({ min_size: "4", max_size: "4" })).not.toThrow();
  });
});
