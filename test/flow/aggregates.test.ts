import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scoreFlow, type ScoredTrade } from "../../lib/flow/flow-score";
import { directionSign, windowScores, compositeBias, signalStrength } from "../../lib/flow/direction";
import { chainRatio, contractRatio, timeframeWindow } from "../../lib/flow/ratios";
import { maxPain, expirationChain } from "../../lib/flow/max-pain";
import { flowTide, flowMomentum, momentumTrend } from "../../lib/flow/tide";
import { marketOverview, premiumThroughTimeOfDay } from "../../lib/flow/overview";
import { contractDailyRollups, rankTopContracts, tickerDailyRollup } from "../../lib/flow/rollups";
import { flowColumns, scoreFlowColumns } from "../../lib/flow/flow-columns";
import { scoredTradesFromColumns } from "../../lib/flow/scored-trades";
import { openInterestBySymbol } from "../../lib/flow/board-open-interest";
import { FlowError } from "../../lib/flow/errors";
import type { OptionPrint } from "../../lib/market/prints/schemas";
import { etInstant } from "../../lib/time";
import { OPEN_MS, print } from "./_prints";
import { simulatedMarketAt } from "../_helpers/simulated-market";

const score = (prints: OptionPrint[]) => scoreFlow(prints, { normPremiumUsd: 1_000, openInterest: new Map() });
// Quote 1.00 / 1.10 (tol 0.01, mid 1.05): price 1.10 at ask, 1.00 at bid, 1.05 mid, 1.08 BA.
const q = { nbboBid: 1.0, nbboAsk: 1.1 };
const ask = { ...q, price: 1.1 };
const bid = { ...q, price: 1.0 };
const mid = { ...q, price: 1.05 };

describe("window scores", () => {
  it("direction: calls bought and puts sold are bullish", () => {
    expect([
      directionSign({ aggression: 1, right: "C" }),
      directionSign({ aggression: -1, right: "P" }),
      directionSign({ aggression: 0.5, right: "P" }),
      directionSign({ aggression: -0.5, right: "C" }),
      directionSign({ aggression: 0, right: "C" }),
    ]).toEqual([1, 1, -1, -1, 0]);
  });

  it("VWF, SDF, FIR and the composite by hand", () => {
    const t = (right: "C" | "P", aggression: number, premiumUsd: number, flowScore: number, isSweep: boolean) => ({
      right,
      aggression,
      premiumUsd,
      flowScore,
      isSweep,
      size: 1,
    });
    const w = windowScores([t("C", 1, 1000, 50, true), t("P", 1, 500, -40, false), t("C", -1, 300, -30, true), t("C", 0, 200, 0, false)]);
    // bullish 1000; bearish 500 + 300 = 800; neutral 200
    expect([w.bullishPremium, w.bearishPremium, w.neutralPremium, w.netPremium]).toEqual([1000, 800, 200, 200]);
    expect(w.vwf).toBeCloseTo((1000 * 50 - 500 * 40 - 300 * 30) / 2000, 12); // 10.5
    expect(w.sdf).toBeCloseTo((100 * (1000 - 300)) / 1300, 12); // 53.85
    expect(w.fir).toBeCloseTo((100 * 200) / 1800, 12); // 11.11
    expect(w.composite).toBeCloseTo(0.4 * 10.5 + 0.35 * (70000 / 1300) + 0.25 * (20000 / 1800), 12); // 25.82
    expect([w.tradeCount, w.sweepCount, w.sweepPremium]).toEqual([4, 2, 1300]);
    expect(compositeBias(w.composite)).toBe("BULLISH");
    expect([signalStrength(w.composite, 4), signalStrength(w.composite, 100), signalStrength(65, 100), signalStrength(10, 500)]).toEqual([
      "weak",
      "moderate",
      "strong",
      "neutral",
    ]);
    expect(windowScores([])).toMatchObject({ vwf: 0, sdf: 0, fir: 0, composite: 0 });
  });
});

describe("contract and chain ratios", () => {
  // 5 at the ask, 2 at the bid, 3 in the mid bucket (M, BA, no NBBO); every trade 10 contracts
  const mixed = (right: "C" | "P") => [
    ...Array.from({ length: 5 }, () => print({ right, ...ask })),
    ...Array.from({ length: 2 }, () => print({ right, ...bid })),
    print({ right, ...mid }),
    print({ right, ...q, price: 1.08 }), // BA: mid bucket, but bullish-leaning aggression +0.5
    print({ right, nbboBid: 0, nbboAsk: 0, price: 1.05 }),
  ];

  it("a call contract: shares of trade counts, aggression ratio, interpretation", () => {
    const r = contractRatio(score(mixed("C")), { symbol: "SPY__240322C00510000", ticker: "SPY", right: "C", date: "2024-03-15", timeframe: "1d" });
    expect(r.contractRatios).toEqual({ askRatio: 0.5, bidRatio: 0.2, midRatio: 0.3, aggressionRatio: 7 / 3 });
    expect([r.tradeCount, r.totalVolume]).toEqual([10, 100]);
    // premium: 5 * 1.10 * 1000 + 1.08 * 1000 bullish = 6580; bearish 2 * 1.00 * 1000 = 2000
    // fir = 100 * 4580 / 8580 = 53.4 -> BULLISH; side share 7/10 -> HIGH; 10 trades -> LOW confidence
    expect(r.interpretation).toMatchObject({ bias: "BULLISH", aggression: "HIGH", confidence: "LOW" });
    expect(r.optionType).toBe("CALL");
    expect(r.interpretation.description).toContain("+53");
  });

  it("the same prints on a put are bearish; two-way flow is MIXED; no trades NEUTRAL", () => {
    const put = contractRatio(score(mixed("P")), { symbol: "x", ticker: "SPY", right: "P", date: "2024-03-15", timeframe: "1d" });
    expect(put.interpretation.bias).toBe("BEARISH");
    const balanced = score([...Array.from({ length: 11 }, () => print({ ...q, price: 1.0 })), ...Array.from({ length: 10 }, () => print({ ...q, price: 1.1 }))]);
    // bought 10 * 1100 = 11000, sold 11 * 1000 = 11000 -> fir 0, all premium directional -> MIXED; 21 trades MEDIUM
    const m = contractRatio(balanced, { symbol: "x", ticker: "SPY", right: "C", date: "2024-03-15", timeframe: "1d" });
    expect(m.interpretation).toMatchObject({ bias: "MIXED", aggression: "HIGH", confidence: "MEDIUM" });
    const none = contractRatio([], { symbol: "x", ticker: "SPY", right: null, date: "2024-03-15", timeframe: "5m" });
    expect(none.contractRatios).toEqual({ askRatio: 0, bidRatio: 0, midRatio: 0, aggressionRatio: 0 });
    expect([none.interpretation.bias, none.optionType]).toEqual(["NEUTRAL", "UNKNOWN"]);
    // all at the ask: no mid trades -> capped 999
    expect(contractRatio(score([print(ask)]), { symbol: "x", ticker: "SPY", right: "C", date: "2024-03-15", timeframe: "1d" }).contractRatios.aggressionRatio).toBe(999);
  });

  it("chain: call/put premium ratio, concentrations, filters", () => {
    // spot 500. calls: 510 (2% OTM, ATM) 10 @1.10 and 530 (6% OTM) 20 @ 0.50; put 480 (4% OTM) 10 @ 2.00
    const trades = score([
      print({ strike: 510, ...ask, size: 10 }),
      print({ strike: 530, price: 0.5, nbboBid: 0.45, nbboAsk: 0.5, size: 20, expiry: "2024-04-19" }),
      print({ right: "P", strike: 480, price: 2, nbboBid: 2, nbboAsk: 2.1, size: 10 }),
    ]);
    const r = chainRatio(trades, { ticker: "SPY", date: "2024-03-15", timeframe: "1d" });
    // call premium 1100 + 1000 = 2100; put premium 2000 -> 1.05
    expect(r.chainRatios.callPutRatio).toBeCloseTo(2100 / 2000, 12);
    expect(r.chainRatios.atmConcentration).toBeCloseTo(10 / 40, 12);
    expect(r.chainRatios.otmCallConcentration).toBeCloseTo(20 / 30, 12);
    expect(r.chainRatios.otmPutConcentration).toBe(1);
    expect(r.tradeCount).toBe(3);
    expect(chainRatio(trades, { ticker: "SPY", date: "2024-03-15", timeframe: "1d", optionType: "call" }).chainRatios.callPutRatio).toBeNull();
    expect(chainRatio(trades, { ticker: "SPY", date: "2024-03-15", timeframe: "1d", maxDte: 7 }).tradeCount).toBe(2); // the April call is 35 DTE
    expect(chainRatio(trades, { ticker: "SPY", date: "2024-03-15", timeframe: "1d", minPremiumUsd: 1500 }).tradeCount).toBe(1);
  });

  it("timeframe windows end at the close or now, never before the open", () => {
    const open = etInstant("2024-03-15", "09:30");
    const close = etInstant("2024-03-15", "16:00");
    expect(timeframeWindow("2024-03-15", "1d")).toEqual({ fromMs: open, toMs: close });
    expect(timeframeWindow("2024-03-15", "1h", open + 20 * 60_000)).toEqual({ fromMs: open, toMs: open + 20 * 60_000 });
    expect(timeframeWindow("2024-03-15", "15m")).toEqual({ fromMs: close - 900_000, toMs: close });
  });
});

describe("max pain and the chain snapshot", () => {
  /** Slow reference: total owed at S. */
  const pain = (rows: { strike: number; callOi: number; putOi: number }[], s: number) =>
    rows.reduce((a, r) => a + r.callOi * Math.max(0, s - r.strike) + r.putOi * Math.max(0, r.strike - s), 0);

  it("by hand: 90 / 100 / 110", () => {
    const rows = [
      { strike: 90, callOi: 0, putOi: 100 },
      { strike: 100, callOi: 50, putOi: 50 },
      { strike: 110, callOi: 100, putOi: 0 },
    ];
    // at 90: put 100 owes 50 * 10 = 500; at 100: nothing; at 110: call 100 owes 50 * 10 = 500
    expect([pain(rows, 90), pain(rows, 100), pain(rows, 110)]).toEqual([500, 0, 500]);
    expect(maxPain(rows)).toBe(100);
    expect(maxPain([{ strike: 100, callOi: 0, putOi: 0 }])).toBeNull();
    // tie between 100 and 110 goes to the lower strike
    expect(
      maxPain([
        { strike: 100, callOi: 0, putOi: 10 },
        { strike: 110, callOi: 10, putOi: 0 },
      ]),
    ).toBe(100);
  });

  it("property: no strike has less pain than max pain", () => {
    const row = fc.record({ strike: fc.integer({ min: 1, max: 60 }).map((k) => k * 5), callOi: fc.nat(1000), putOi: fc.nat(1000) });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 25 }), (rows) => {
        const m = maxPain(rows);
        if (m === null) return rows.every((r) => r.callOi + r.putOi === 0);
        return rows.every((r) => pain(rows, m) <= pain(rows, r.strike));
      }),
    );
  });

  it("without a board: trades' volume, premium, last price, IV; min_volume hides strikes", () => {
    const e = "2024-03-22";
    const trades = score([
      print({ strike: 500, size: 5, price: 2, iv: 0.2 }),
      print({ strike: 500, size: 3, price: 2.5, iv: 0.21 }),
      print({ strike: 500, right: "P", size: 4, price: 1, iv: null }),
      print({ strike: 505, size: 1, price: 1 }),
      print({ strike: 505, size: 9, price: 1, expiry: "2024-03-28" }), // other expiration
    ]);
    const c = expirationChain(trades, null, { ticker: "SPY", expiration: e, minVolume: 2 });
    expect(c.strikes).toEqual([
      {
        strike: 500,
        callVolume: 8,
        callPremium: 1000 + 750,
        callOi: 0,
        callIv: 0.21,
        callLastPrice: 2.5,
        putVolume: 4,
        putPremium: 400,
        putOi: 0,
        putIv: null,
        putLastPrice: 1,
      },
    ]);
    expect([c.maxPain, c.callOiTotal, c.underlyingPrice]).toEqual([null, 0, 500]);
  });

  it("with a simulated board: OI totals and max pain agree with an independent pass over the board", async () => {
    const market = simulatedMarketAt(5, Date.UTC(2024, 3, 1));
    const atMs = Date.UTC(2024, 2, 15, 15, 0);
    const board = await market.chain("SPY", atMs);
    expect(board).not.toBeNull();
    if (!board) return;
    const expiration = board.expirations[1];
    const prints = await market.optionPrints("SPY", Date.UTC(2024, 2, 15, 13, 30), atMs);
    const trades = score(prints);
    const c = expirationChain(trades, board, { ticker: "SPY", expiration });
    const e = board.expirations.indexOf(expiration);
    let calls = 0;
    let puts = 0;
    const byStrike = new Map<number, { strike: number; callOi: number; putOi: number }>();
    for (let i = 0; i < board.right.length; i++) {
      if (board.expIndex[i] !== e) continue;
      const k = board.strikes[board.strikeIndex[i]];
      const r = byStrike.get(k) ?? { strike: k, callOi: 0, putOi: 0 };
      if (board.right[i] === 1) {
        calls += board.oi[i];
        r.callOi = board.oi[i];
      } else {
        puts += board.oi[i];
        r.putOi = board.oi[i];
      }
      byStrike.set(k, r);
    }
    expect([c.callOiTotal, c.putOiTotal]).toEqual([calls, puts]);
    const rows = [...byStrike.values()];
    const best = Math.min(...rows.map((r) => pain(rows, r.strike)));
    expect(pain(rows, c.maxPain ?? Number.NaN)).toBe(best);
    const traded = trades.filter((t) => t.expiry === expiration);
    expect(c.strikes.reduce((a, r) => a + r.callVolume + r.putVolume, 0)).toBe(traded.reduce((a, t) => a + t.size, 0));
  });
});

describe("tide and momentum", () => {
  it("five-minute tide by hand: call minus put premium, cumulative", () => {
    const date = "2024-03-15";
    const trades = score([
      print({ tsMs: OPEN_MS + 30_000, ...ask, size: 10 }), // call bought 1100
      print({ tsMs: OPEN_MS + 120_000, right: "P", ...ask, size: 5 }), // put bought 550
      print({ tsMs: OPEN_MS + 420_000, right: "P", ...bid, size: 20 }), // put sold 2000
    ]);
    const bars = flowTide(trades, { date, bucket: "5min", toMs: OPEN_MS + 900_000 });
    expect(bars.map((b) => [b.timestamp - OPEN_MS / 1000, b.callPremium, b.putPremium, b.netCallPutPremiumCumulative])).toEqual([
      [0, 1100, 550, 550],
      [300, 0, 2000, -1450],
      [600, 0, 0, -1450],
    ]);
    expect(bars.map((b) => [b.ncp, b.npp])).toEqual([
      [1100, 550],
      [0, -2000],
      [0, 0],
    ]);
    // bullish: call bought 1100 + put sold 2000; bearish: put bought 550
    expect(bars.map((b) => b.netPremiumCumulative)).toEqual([1100 - 550, 1100 - 550 + 2000, 2550]);
    expect(flowTide([], { date, bucket: "1h" })).toHaveLength(7); // 09:30 ... 15:30, last ends at 16:00
  });

  it("momentum: windows, baseline z-scores, trend", () => {
    const date = "2024-03-15";
    const asOf = etInstant(date, "10:30");
    const today = score([
      print({ tsMs: asOf - 60_000, ...ask, size: 10 }), // 1100 bullish, in all three windows
      print({ tsMs: asOf - 20 * 60_000, right: "P", ...ask, size: 10 }), // 1100 bearish, 30m and 1h
      print({ tsMs: asOf - 50 * 60_000, right: "P", ...ask, size: 10 }), // 1100 bearish, 1h only
    ]);
    const day = (d: string, n: number) => ({
      date: d,
      trades: score(Array.from({ length: n }, () => print({ tsMs: etInstant(d, "10:27"), right: "P", ...ask, size: 10 }))),
    });
    const m = flowMomentum(today, [day("2024-03-13", 1), day("2024-03-14", 3)], { date, asOfMs: asOf });
    expect(m.current5m).toEqual({ tradeCount: 1, premium: 1100, bullishPremium: 1100, bearishPremium: 0, netPremium: 1100, fir: 100 });
    expect(m.current30m.fir).toBe(0);
    expect(m.current1h.fir).toBeCloseTo((100 * -1100) / 3300, 12);
    // baseline 5m premium: 1100 and 3300 -> mean 2200, sd sqrt(2 * 1100^2 / 1) = 1555.6; fir -100 both -> sd 0
    expect(m.baseline).toMatchObject({ timeOfDay: "10:30", daysInBaseline: 2, avg5mPremium: 2200, avg5mFir: -100, stddev5mFir: 0 });
    expect(m.baseline?.stddev5mPremium).toBeCloseTo(Math.sqrt(2 * 1100 ** 2), 9);
    expect(m.signals.premiumZscore5m).toBeCloseTo((1100 - 2200) / Math.sqrt(2 * 1100 ** 2), 12);
    expect(m.signals.firZscore5m).toBe(0);
    expect(m.signals.trend).toBe("NEUTRAL"); // fir5m 100 but z 0 and fir1h -33
    expect(flowMomentum(today, [day("2024-03-14", 1)], { date, asOfMs: asOf }).baseline).toBeNull();
    expect([momentumTrend(50, 10, 2), momentumTrend(-50, -10, -2), momentumTrend(25, 30, 0), momentumTrend(-25, -30, 0), momentumTrend(50, 40, 3)]).toEqual([
      "ACCELERATING_BULLISH",
      "ACCELERATING_BEARISH",
      "BULLISH",
      "BEARISH",
      "BULLISH",
    ]);
  });
});

describe("market overview", () => {
  it("by hand over two tickers, fir and premiumRvol", () => {
    const spy = score([print({ ...ask, size: 10 }), print({ right: "P", ...bid, size: 5 })]); // call bought 1100, put sold 500
    const qqq = score([print({ root: "QQQ", right: "P", ...ask, size: 20 })]); // put bought 2200
    const o = marketOverview(
      "2024-03-15",
      [
        { ticker: "SPY", trades: spy },
        { ticker: "QQQ", trades: qqq },
        { ticker: "IWM", trades: [] },
      ],
      [1900, 2100],
    );
    expect(o).toMatchObject({
      totalPremium: 3800,
      totalVolume: 35,
      callPremium: 1100,
      putPremium: 2700,
      netPremium: -1600,
      callVolume: 10,
      putVolume: 25,
      activeTickers: 2,
      bullishPremium: 1600,
      bearishPremium: 2200,
      directionalNet: -600,
    });
    expect(o.callPutRatio).toBeCloseTo(1100 / 2700, 12);
    expect(o.fir).toBeCloseTo((100 * -600) / 3800, 12);
    expect(o.premiumRvol).toBeCloseTo(3800 / 2000, 12);
    expect(o.topTickers.map((t) => [t.ticker, t.totalPremium, t.netPremium])).toEqual([
      ["QQQ", 2200, -2200],
      ["SPY", 1600, 600],
    ]);
    // No baseline (or one of zero premium): null, not 0.
    expect(marketOverview("2024-03-15", [], []).premiumRvol).toBeNull();
    expect(marketOverview("2024-03-15", [{ ticker: "SPY", trades: spy }], [0, 0]).premiumRvol).toBeNull();
  });

  it("premium through a time of day counts [open, open + elapsed)", () => {
    const d = "2024-03-14";
    const open = etInstant(d, "09:30");
    const prints = [
      print({ tsMs: open - 1, price: 1, size: 1 }),
      print({ tsMs: open, price: 1, size: 2 }),
      print({ tsMs: open + 59_999, price: 1, size: 3 }),
      print({ tsMs: open + 60_000, price: 1, size: 4 }),
    ];
    expect(premiumThroughTimeOfDay(prints, d, 60_000)).toBe(500); // (2 + 3) * 100
  });
});

describe("daily rollups and the screener", () => {
  it("contract rows by hand", () => {
    const trades = score([
      print({ ...ask, size: 10, iv: 0.2, conditions: ["ISOI"] }),
      print({ ...bid, size: 20, exchange: "ISE", conditions: ["MLET"], iv: 0.25, underlyingPrice: 501 }),
      print({ ...mid, size: 10, iv: null, underlyingPrice: 502 }),
      print({ right: "P", strike: 490, price: 2, nbboBid: 1.9, nbboAsk: 2, size: 1 }), // 200 USD
    ]);
    const sym = trades[0].symbol;
    const rows = contractDailyRollups("2024-03-15", trades, {
      openInterest: new Map([[sym, 400]]),
      previousOpenInterest: new Map([[sym, 300]]),
    });
    const r = rows.find((x) => x.symbol === sym);
    expect(r).toEqual({
      symbol: sym,
      ticker: "SPY",
      expiration: "2024-03-22",
      strike: 510,
      right: "C",
      dte: 7,
      totalPremium: 1100 + 2000 + 1050,
      totalVolume: 40,
      openInterest: 400,
      oiChange: 100,
      volumeOiRatio: 0.1,
      bidVolume: 20,
      askVolume: 10,
      midVolume: 10,
      vwap: (1.1 * 10 + 1.0 * 20 + 1.05 * 10) / 40,
      lastPrice: 1.05,
      underlyingPrice: 502,
      iv: 0.25,
      tradeCount: 3,
      sweepVolume: 10,
      sweepPremium: 1100,
      multiLegVolume: 20,
      multiLegPremium: 2000,
    });
    const put = rows.find((x) => x.symbol !== sym);
    expect([put?.openInterest, put?.oiChange, put?.volumeOiRatio]).toEqual([0, 0, 0]);
    expect(tickerDailyRollup("2024-03-15", trades)).toEqual({
      date: "2024-03-15",
      totalPremium: 4150 + 200,
      totalVolume: 41,
      callPremium: 4150,
      putPremium: 200,
      callVolume: 40,
      putVolume: 1,
      netPremium: 3950,
    });
    expect(tickerDailyRollup("2024-03-15", [])).toBeNull();
  });

  it("ranking: filters, orders, ties by symbol, limit; conflicting flags rejected", () => {
    const base = contractDailyRollups("2024-03-15", score([print({ ...ask, size: 10 })]))[0];
    const rows = [
      { ...base, symbol: "B", totalPremium: 100, totalVolume: 5, iv: 0.3, sweepVolume: 1 },
      { ...base, symbol: "A", totalPremium: 100, totalVolume: 9, iv: 0.2, multiLegVolume: 3 },
      { ...base, symbol: "C", totalPremium: 300, totalVolume: 1, iv: 0.1, right: "P" as const },
    ];
    expect(rankTopContracts(rows).map((r) => r.symbol)).toEqual(["C", "A", "B"]);
    expect(rankTopContracts(rows, { orderBy: "volume", order: "asc" }).map((r) => r.symbol)).toEqual(["C", "B", "A"]);
    expect(rankTopContracts(rows, { orderBy: "iv", limit: 1 }).map((r) => r.symbol)).toEqual(["B"]);
    expect(rankTopContracts(rows, { onlySweeps: true }).map((r) => r.symbol)).toEqual(["B"]);
    expect(rankTopContracts(rows, { excludeMultiLeg: true }).map((r) => r.symbol)).toEqual(["C", "B"]);
    expect(rankTopContracts(rows, { right: "C", minPremium: 100, maxPremium: 100, minVolume: 6 }).map((r) => r.symbol)).toEqual(["A"]);
    expect(() => rankTopContracts(rows, { onlyMultiLeg: true, excludeMultiLeg: true })).toThrow(FlowError);
    expect(() => rankTopContracts(rows, { limit: 501 })).toThrow(/500/);
  });
});

describe("scored trades from columns", () => {
  it("equal scoreFlow's objects on a simulated SPY tape", async () => {
    const market = simulatedMarketAt(3, Date.UTC(2024, 3, 1));
    const from = Date.UTC(2024, 2, 15, 14, 0);
    const prints = await market.optionPrints("SPY", from, from + 10 * 60_000);
    const board = await market.chain("SPY", from);
    const oi = board ? openInterestBySymbol(board) : new Map<string, number>();
    expect(prints.filter((p) => oi.has(p.symbol)).length).toBe(prints.length); // every traded contract is on the board
    const ctx = { normPremiumUsd: 2_000, openInterest: oi };
    const cols = flowColumns(prints, oi);
    const objects: ScoredTrade[] = scoreFlow(prints, ctx);
    expect(scoredTradesFromColumns(prints, cols, scoreFlowColumns(cols, ctx))).toEqual(objects);
    expect(scoredTradesFromColumns(prints, cols, scoreFlowColumns(cols, ctx), 5, 8)).toEqual(objects.slice(5, 8));
  });
});

describe("tide: property", () => {
  it("the last bar's tide is total call minus put premium of the window; bars cover the session", () => {
    const row = fc.record({
      off: fc.integer({ min: 0, max: 390 * 60_000 - 1 }),
      put: fc.boolean(),
      size: fc.integer({ min: 1, max: 50 }),
      side: fc.constantFrom(1.0, 1.05, 1.1),
    });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 80 }), fc.constantFrom("1min", "5min", "15min", "30min", "1h"), (rows, bucket) => {
        const prints = rows.map((r) => print({ tsMs: OPEN_MS + r.off, right: r.put ? "P" : "C", size: r.size, ...q, price: r.side })).sort((a, b) => a.tsMs - b.tsMs);
        const trades = score(prints);
        const bars = flowTide(trades, { date: "2024-03-15", bucket: bucket as "5min" });
        const call = trades.filter((t) => t.right === "C").reduce((a, t) => a + t.premiumUsd, 0);
        const put = trades.filter((t) => t.right === "P").reduce((a, t) => a + t.premiumUsd, 0);
        const last = bars[bars.length - 1];
        expect(last.netCallPutPremiumCumulative).toBeCloseTo(call - put, 6);
        expect(bars.reduce((a, b) => a + b.tradeCount, 0)).toBe(trades.length);
        expect(last.timestampEnd - bars[0].timestamp).toBe(390 * 60);
        return bars.every((b) => b.fir >= -100 && b.fir <= 100 && b.vwf >= -100 && b.vwf <= 100);
      }),
      { numRuns: 60 },
    );
  });
});
