// Trade rows (epoch days, instrument id, IV direction, row fields) and the trade score detail
// against hand-computed cases, on prints scored by the object path.
import { describe, expect, it } from "vitest";
import { scoreFlow } from "../../lib/flow/flow-score";
import { epochDay, instrumentIdOf, ivChanges, optionTradeRow, OptionTradeRowSchema } from "../../lib/flow/trade-rows";
import { parseTradeId, tradeIntent, tradeScore, TradeScoreSchema } from "../../lib/flow/trade-score";
import { OPEN_MS, print } from "./_prints";

describe("trade rows", () => {
  it("epoch days, a stable 31-bit instrument id, IV direction per contract", () => {
    expect(epochDay("1970-01-02")).toBe(1);
    expect(epochDay("2024-03-15")).toBe(19797);
    const id = instrumentIdOf("SPY__240322C00510000");
    expect(id).toBe(instrumentIdOf("SPY__240322C00510000"));
    expect(id).not.toBe(instrumentIdOf("SPY__240322P00510000"));
    expect(id >= 0 && id < 2 ** 31).toBe(true);
    const c = ivChanges([
      { symbol: "A", iv: 0.2 },
      { symbol: "B", iv: 0.3 },
      { symbol: "A", iv: 0.25 },
      { symbol: "A", iv: null },
      { symbol: "A", iv: 0.1 },
      { symbol: "B", iv: 0.3 },
    ]);
    expect(c.prevIv).toEqual([null, null, 0.2, 0.25, null, 0.3]);
    expect([...c.direction]).toEqual([0, 0, 1, 0, 0, 0]);
  });

  it("a print at the ask as a row: side, premium, padded symbol, neutral size, block flag, quotes", () => {
    const p = print({ price: 1.05, size: 150, nbboBid: 1.0, nbboAsk: 1.05 });
    const [t] = scoreFlow([p], { normPremiumUsd: 1000, openInterest: new Map([[p.symbol, 400]]) });
    const r = optionTradeRow(t, { prevIv: 0.19, ivDirection: 1, ticker: "SPY", micros: true });
    expect(r).toMatchObject({
      date: epochDay("2024-03-15"),
      tsEvent: OPEN_MS,
      tsEventUs: OPEN_MS * 1000,
      rawSymbol: "SPY   240322C00510000",
      ticker: "SPY",
      expiration: epochDay("2024-03-22"),
      strike: 510,
      right: "C",
      dte: 7,
      side: "A",
      publisherId: 1,
      bidPx: 1.0,
      askPx: 1.05,
      neutralSz: 0,
      openInterest: 400,
      prevOi: 400,
      dailyVolume: 150,
      blockTrade: true,
      moneyness: "ATM",
      ivDirection: 1,
      prevIv: 0.19,
    });
    expect(r.totalPremium).toBeCloseTo(15750, 9);
    expect(r.spread).toBeCloseTo(0.05, 12);
    expect(OptionTradeRowSchema.parse(r)).toEqual(r);
    const [m] = scoreFlow([print({ price: 1.025, size: 3 })], { normPremiumUsd: 1000, openInterest: new Map() });
    const mr = optionTradeRow(m, { prevIv: null, ivDirection: 0 });
    expect(mr).toMatchObject({ side: "M", neutralSz: 3, blockTrade: false, openInterest: 0 });
    expect("tsEventUs" in mr).toBe(false);
  });
});

describe("trade score", () => {
  it("parses our print ids only", () => {
    expect(parseTradeId("AAPL-28498680-3")).toEqual({ root: "AAPL", minuteMs: 28498680 * 60_000 });
    expect(parseTradeId("flow_188afe42c3a77af2_0")).toBeNull();
    expect(parseTradeId("188afe42c3a77af2")).toBeNull();
  });

  it("intent tokens", () => {
    const base = { right: "C" as const, isCross: false, dailyVolume: 10, openInterest: 100 };
    expect(tradeIntent({ ...base, aggression: 1 })).toBe("aggressive_call_buy");
    expect(tradeIntent({ ...base, aggression: -0.5, right: "P" })).toBe("passive_put_sell");
    expect(tradeIntent({ ...base, aggression: 1, dailyVolume: 101 })).toBe("opening_long_call");
    expect(tradeIntent({ ...base, aggression: -1, dailyVolume: 101 })).toBe("opening_short_call");
    expect(tradeIntent({ ...base, aggression: 0 })).toBe("neutral_call");
    expect(tradeIntent({ ...base, aggression: 0, isCross: true })).toBe("cross_call");
  });

  it("by hand: a put bought above the mid", () => {
    const p = print({ right: "P", strike: 480, price: 2.08, nbboBid: 2.0, nbboAsk: 2.1, size: 20, underlyingPrice: 500 });
    const [t] = scoreFlow([p], { normPremiumUsd: 1000, openInterest: new Map([[p.symbol, 1000]]) });
    const s = tradeScore(t, "SPY");
    expect(s.scores).toEqual({ sentiment: t.flowScore, urgency: 30, confidence: t.flowBonus / 100 }); // 100 * 0.6 * 0.5
    expect(s.spreadAnalysis).toMatchObject({ bid: 2.0, ask: 2.1, tradePrice: 2.08, positionInSpread: "below_ask" });
    expect(s.spreadAnalysis.mid).toBeCloseTo(2.05, 12);
    expect(s.spreadAnalysis.spreadPct).toBeCloseTo((100 * 0.1) / 2.05, 9);
    expect(s.tradeContext).toMatchObject({ ticker: "SPY", optionType: "put", tradeType: "regular", moneyness: "otm", size: 20, dte: 7 });
    expect(s.tradeContext.moneynessPct).toBeCloseTo(4, 9);
    expect(s.interpretation.intent).toBe("passive_put_buy");
    expect(TradeScoreSchema.parse(s)).toEqual(s);
  });
});
