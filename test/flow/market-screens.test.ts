// The market-wide screens of lib/flow against hand-computed cases: top underlyings, weekly
// contract rows, unusual volume and OI, sectors, breadth and the market tide.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { marketBreadth, rotationSignal, sentimentOf } from "../../lib/flow/breadth";
import { foldTideMinutes, marketTideBars, type TideFoldTrade } from "../../lib/flow/market-tide";
import { contractDailyRollups, type RollupTrade, type TopContractRow } from "../../lib/flow/rollups";
import { resolveSector, sectorFlow } from "../../lib/flow/sectors";
import { rankTopUnderlyings, topUnderlyingRow, type TopUnderlyingRow } from "../../lib/flow/top-underlyings";
import { unusualOi, unusualVolume } from "../../lib/flow/unusual";
import { weeklyContractRows } from "../../lib/flow/weekly-contracts";
import { sessionBounds } from "../../lib/time";

const session = (callPremium: number, putPremium: number, callVolume: number, putVolume: number) => ({
  totalPremium: callPremium + putPremium,
  totalVolume: callVolume + putVolume,
  callPremium,
  putPremium,
  callVolume,
  putVolume,
});

describe("top underlyings", () => {
  it("sums sessions, skips untraded ones; net = call - put; ratio = call / put, 0 without puts; null when nothing traded", () => {
    expect(topUnderlyingRow("A", [session(300, 100, 3, 1), null, session(0, 200, 0, 2)])).toEqual({
      ticker: "A",
      totalPremium: 600,
      totalVolume: 6,
      callPremium: 300,
      putPremium: 300,
      callVolume: 3,
      putVolume: 3,
      netPremium: 0,
      callPutRatio: 1,
    });
    expect(topUnderlyingRow("B", [session(50, 0, 1, 0)])?.callPutRatio).toBe(0);
    expect(topUnderlyingRow("C", [null, null])).toBeNull();
  });

  it("floors are inclusive; orders by the key with ties by ticker; cuts to the limit", () => {
    const row = (ticker: string, totalPremium: number, totalVolume: number, netPremium: number): TopUnderlyingRow => ({
      ticker,
      totalPremium,
      totalVolume,
      netPremium,
      callPremium: 0,
      putPremium: 0,
      callVolume: 0,
      putVolume: 0,
      callPutRatio: 0,
    });
    const rows = [row("C", 100, 20, 30), row("B", 200, 5, 30), row("A", 100, 10, -50)];
    const tickers = (r: TopUnderlyingRow[]) => r.map((x) => x.ticker);
    expect(tickers(rankTopUnderlyings(rows, { limit: 10, orderBy: "premium", order: "desc" }))).toEqual(["B", "A", "C"]);
    expect(tickers(rankTopUnderlyings(rows, { limit: 10, orderBy: "net_premium", order: "asc" }))).toEqual(["A", "B", "C"]);
    expect(tickers(rankTopUnderlyings(rows, { limit: 10, orderBy: "volume", order: "desc", minVolume: 10 }))).toEqual(["C", "A"]);
    expect(tickers(rankTopUnderlyings(rows, { limit: 1, orderBy: "premium", order: "asc", minPremium: 100 }))).toEqual(["A"]);
  });
});

function contract(symbol: string, over: Partial<TopContractRow>): TopContractRow {
  return {
    symbol,
    ticker: "XYZ",
    expiration: "2024-03-15",
    strike: 110,
    right: "C",
    dte: 10,
    totalPremium: 0,
    totalVolume: 0,
    openInterest: 0,
    oiChange: 0,
    volumeOiRatio: 0,
    bidVolume: 0,
    askVolume: 0,
    midVolume: 0,
    vwap: 0,
    lastPrice: 0,
    underlyingPrice: 100,
    iv: 0,
    tradeCount: 0,
    sweepVolume: 0,
    sweepPremium: 0,
    multiLegVolume: 0,
    multiLegPremium: 0,
    ...over,
  };
}

describe("weekly contract rows", () => {
  it("sums, volume-weights the VWAP, takes OI/price/IV of the last session and the OI change since before the first", () => {
    const day1 = [
      contract("X", {
        totalVolume: 10,
        totalPremium: 1000,
        vwap: 1,
        openInterest: 100,
        oiChange: 20,
        tradeCount: 2,
        bidVolume: 4,
        askVolume: 6,
        lastPrice: 1.1,
        iv: 0.25,
      }),
    ];
    const day2 = [
      contract("X", { totalVolume: 30, totalPremium: 6000, vwap: 2, openInterest: 130, oiChange: 30, tradeCount: 3, askVolume: 30, lastPrice: 2.1, iv: 0 }),
      contract("Y", { totalVolume: 5, totalPremium: 50, vwap: 0.1, openInterest: 0 }),
    ];
    const [x, y] = weeklyContractRows("2024-03-08", [day1, day2]);
    expect(x).toMatchObject({
      symbol: "X",
      totalVolume: 40,
      totalPremium: 7000,
      vwap: 1.75,
      openInterest: 130,
      oiChange: 50,
      tradeCount: 5,
      bidVolume: 4,
      askVolume: 36,
      lastPrice: 2.1,
      iv: 0.25,
      dte: 7,
    });
    expect(x.volumeOiRatio).toBeCloseTo(40 / 130, 12);
    expect(y).toMatchObject({ symbol: "Y", totalVolume: 5, volumeOiRatio: 0, oiChange: 0, dte: 7 });
    expect(day1[0].totalVolume).toBe(10); // inputs untouched
  });
});

describe("unusual volume", () => {
  const baseline = [[contract("X", { totalVolume: 10 }), contract("Y", { totalVolume: 8 })], [contract("X", { totalVolume: 20 })]];
  const today = [
    contract("X", { totalVolume: 45, bidVolume: 9, askVolume: 30, totalPremium: 900 }),
    contract("Y", { ticker: "ABC", totalVolume: 20, strike: 90, totalPremium: 400 }),
    contract("Z", { totalVolume: 100 }),
  ];
  const base = { limit: 50, minRvol: 2, minAvgVolume: 0, orderBy: "rvol" as const };
  const syms = (r: Array<{ symbol: string }>) => r.map((x) => x.symbol);

  it("rvol = volume / mean baseline volume (an absent session counts 0); no baseline, no row", () => {
    const rows = unusualVolume("2024-03-06", today, baseline, base);
    expect(syms(rows)).toEqual(["Y", "X"]);
    expect(rows[0]).toMatchObject({ avgVolume: 4, rvol: 5, volume: 20, premium: 400, date: "2024-03-06" });
    expect(rows[1]).toMatchObject({ avgVolume: 15, rvol: 3, bidPct: 20 });
    expect(rows[1].askPct).toBeCloseTo(200 / 3, 12);
    expect(rows[1].moneynessPct).toBeCloseTo(10, 12);
    expect(unusualVolume("2024-03-06", today, [], base)).toEqual([]);
  });

  it("floors and filters: min_avg_volume, min_rvol, imbalance (inclusive), moneyness class, excluded tickers, order", () => {
    expect(syms(unusualVolume("d", today, baseline, { ...base, minAvgVolume: 5 }))).toEqual(["X"]);
    expect(syms(unusualVolume("d", today, baseline, { ...base, minRvol: 4 }))).toEqual(["Y"]);
    expect(syms(unusualVolume("d", today, baseline, { ...base, minBidImbalance: 0.2 }))).toEqual(["X"]);
    expect(syms(unusualVolume("d", today, baseline, { ...base, minBidImbalance: 0.21 }))).toEqual([]);
    expect(syms(unusualVolume("d", today, baseline, { ...base, moneyness: "ITM" }))).toEqual(["Y"]); // call 90 on 100: -10%
    expect(syms(unusualVolume("d", today, baseline, { ...base, excludeTickers: new Set(["ABC"]) }))).toEqual(["X"]);
    expect(syms(unusualVolume("d", today, baseline, { ...base, orderBy: "volume" }))).toEqual(["X", "Y"]);
    expect(syms(unusualVolume("d", today, baseline, { ...base, limit: 1 }))).toEqual(["Y"]);
  });
});

describe("unusual OI", () => {
  const rows = [
    contract("A", { openInterest: 1500, oiChange: 600, totalVolume: 10 }),
    contract("B", { openInterest: 9000, oiChange: -1000, totalVolume: 50 }),
    contract("C", { openInterest: 100, oiChange: 60, totalVolume: 5 }),
    contract("D", { openInterest: 100, oiChange: 0 }),
  ];
  const base = { limit: 50, minOiChange: 500, minOiChangePct: 25, direction: "both" as const, orderBy: "oi_change" as const };
  const syms = (r: Array<{ symbol: string }>) => r.map((x) => x.symbol);

  it("both floors on |change| and |change %| of the previous OI; opening or closing by the sign", () => {
    const [a] = unusualOi("2024-03-06", rows, base);
    expect(unusualOi("2024-03-06", rows, base)).toHaveLength(1);
    expect(a).toMatchObject({ symbol: "A", prevOi: 900, oiChange: 600, positionType: "opening" });
    expect(a.oiChangePct).toBeCloseTo(200 / 3, 12);
    const loose = { ...base, minOiChange: 50, minOiChangePct: 5 };
    expect(syms(unusualOi("d", rows, loose))).toEqual(["B", "A", "C"]);
    expect(syms(unusualOi("d", rows, { ...loose, orderBy: "oi_change_pct" }))).toEqual(["C", "A", "B"]);
    expect(syms(unusualOi("d", rows, { ...loose, direction: "closing" }))).toEqual(["B"]);
    expect(unusualOi("d", rows, { ...loose, direction: "closing" })[0]).toMatchObject({ positionType: "closing", prevOi: 10000, oiChangePct: -10 });
    expect(syms(unusualOi("d", rows, { ...loose, minVolume: 10, orderBy: "volume" }))).toEqual(["B", "A"]);
    expect(syms(unusualOi("d", rows, { ...loose, minOiChange: 0, minOiChangePct: 0 }))).not.toContain("D");
  });
});

describe("sectors", () => {
  it("resolves ETFs, GICS names and aliases in any case; null otherwise", () => {
    expect(resolveSector("xlk")).toEqual({ sector: "Information Technology", etf: "XLK" });
    expect(resolveSector("Technology")?.etf).toBe("XLK");
    expect(resolveSector("healthcare")?.sector).toBe("Health Care");
    expect(resolveSector("health-care")?.etf).toBe("XLV");
    expect(resolveSector("REAL ESTATE")?.etf).toBe("XLRE");
    expect(resolveSector("Crypto")).toBeNull();
  });

  it("sector flow: sums of traded members, FIR of summed directional premium, contributors and industries", () => {
    const f = sectorFlow(
      [
        { ticker: "T2", industry: "I1", totals: session(0, 200, 0, 4), bullishPremium: 0, bearishPremium: 200 },
        { ticker: "T1", industry: "I1", totals: session(300, 100, 3, 1), bullishPremium: 250, bearishPremium: 50 },
        { ticker: "T3", industry: "I2", totals: null, bullishPremium: 0, bearishPremium: 0 },
        { ticker: "T4", industry: "I3", totals: session(100, 0, 2, 0), bullishPremium: 100, bearishPremium: 0 },
      ],
      2,
    );
    expect(f.metrics).toEqual({
      totalPremium: 700,
      callPremium: 400,
      putPremium: 300,
      netPremium: 100,
      totalVolume: 10,
      callVolume: 5,
      putVolume: 5,
      netVolume: 0,
      fir: (100 * (350 - 250)) / 600,
      putCallRatio: 1,
    });
    expect(f.tickerCount).toBe(3);
    expect(f.topContributors).toEqual([
      { ticker: "T1", netPremium: 200, callPremium: 300, putPremium: 100, pctOfSector: 40 },
      { ticker: "T2", netPremium: -200, callPremium: 0, putPremium: 200, pctOfSector: 40 },
    ]);
    expect(f.industryBreakdown).toEqual([
      { industry: "I1", netPremium: 0, totalPremium: 600, pctOfSector: (100 * 600) / 700, tickerCount: 2 },
      { industry: "I3", netPremium: 100, totalPremium: 100, pctOfSector: (100 * 100) / 700, tickerCount: 1 },
    ]);
  });
});

describe("breadth", () => {
  it("sentiment and rotation labels at their thresholds", () => {
    expect([50, 49.9, 25, 10, 9.99, 0, -10, -25, -50].map(sentimentOf)).toEqual([
      "strong_bullish",
      "bullish",
      "bullish",
      "slightly_bullish",
      "neutral",
      "neutral",
      "slightly_bearish",
      "bearish",
      "strong_bearish",
    ]);
    expect([40, 15, 14.9, -15, -40].map(rotationSignal)).toEqual(["strong_inflow", "inflow", "neutral", "outflow", "strong_outflow"]);
  });

  it("indices present, advance/decline at the threshold (inclusive), untraded tickers left out, sector rotation", () => {
    const b = marketBreadth(
      "2024-03-06",
      [
        { ticker: "SPY", sector: "Multi-Sector", traded: true, bullishPremium: 300, bearishPremium: 100 },
        { ticker: "QQQ", sector: "Multi-Sector", traded: true, bullishPremium: 100, bearishPremium: 100 },
        { ticker: "AAA", sector: "Energy", traded: true, bullishPremium: 0, bearishPremium: 100 },
        { ticker: "BBB", sector: "Energy", traded: true, bullishPremium: 110, bearishPremium: 90 },
        { ticker: "CCC", sector: "Energy", traded: false, bullishPremium: 0, bearishPremium: 0 },
      ],
      10,
    );
    expect(b.majorIndices.map((i) => [i.ticker, i.fir, i.netPremium, i.sentiment])).toEqual([
      ["SPY", 50, 200, "strong_bullish"],
      ["QQQ", 0, 0, "neutral"],
    ]);
    expect(b.aggregateSentiment).toEqual({ combinedBullish: 400, combinedBearish: 200, combinedNetPremium: 200, combinedFir: 100 / 3, sentiment: "bullish" });
    expect(b.advanceDecline).toEqual({ advancing: 2, declining: 1, unchanged: 1, total: 4, ratio: 2, breadthPct: 50, marketAvgFir: (50 + 0 - 100 + 10) / 4 });
    const energy = b.sectorRotation.find((s) => s.etf === "XLE")!;
    expect(energy.netPremium).toBe(-80);
    expect(energy.fir).toBeCloseTo(-80 / 3, 12);
    expect(energy.signal).toBe("outflow");
    expect(b.sectorRotation).toHaveLength(11);
    expect(marketBreadth("d", [{ ticker: "X", sector: "Energy", traded: true, bullishPremium: 1, bearishPremium: 0 }], 10).advanceDecline.ratio).toBe(0);
  });
});

describe("market tide", () => {
  const open = sessionBounds("2024-03-06").openMs;
  const t = (minute: number, over: Partial<TideFoldTrade>): TideFoldTrade => ({
    tsMs: open + minute * 60_000 + 1,
    right: "C",
    premiumUsd: 0,
    size: 1,
    aggression: 0,
    side: "M",
    isMultiLeg: false,
    moneynessPct: 0,
    ...over,
  });
  const trades = [
    t(0, { premiumUsd: 100, aggression: 1, side: "A" }), // call bought
    t(0, { right: "P", premiumUsd: 50, size: 2, aggression: -1, side: "B" }), // put sold
    t(0, { premiumUsd: 40, aggression: 0, side: "A" }), // a cross at the ask: only the manual variant counts it
    t(1, { premiumUsd: 30, size: 3, aggression: 1, side: "AA", isMultiLeg: true }),
    t(6, { right: "P", premiumUsd: 70, aggression: 0.5, side: "BA", moneynessPct: -25 }), // deep ITM put bought
  ];

  it("folds by minute and key: signed premium, the side-only variant, volume", () => {
    expect(foldTideMinutes(trades, open)).toEqual({
      minute: [0, 0, 1, 6],
      key: [1, 0, 3, 4],
      ncp: [100, -50, 30, 70],
      manual: [140, -50, 30, 70],
      volume: [2, 2, 3, 1],
    });
  });

  const fold = foldTideMinutes(trades, open);
  const spy = [NaN, 500, NaN, NaN, 501, NaN, NaN, 502, NaN, NaN];

  it("5-minute bars: per-bucket and cumulative net premiums, volumes, SPY's last close in the bucket; filters spare the volumes", () => {
    const bars = marketTideBars([{ date: "2024-03-06", minutes: 10, folds: [fold, fold], spyClose: spy }], "5min");
    expect(bars).toEqual([
      {
        timestamp: open / 1000,
        timestampEnd: open / 1000 + 300,
        ncp: 260,
        npp: -100,
        ncpCumulative: 260,
        nppCumulative: -100,
        manualNcp: 340,
        manualNpp: -100,
        manualNcpCumulative: 340,
        manualNppCumulative: -100,
        callVolume: 10,
        putVolume: 4,
        totalVolume: 14,
        spyPrice: 501,
        isGap: false,
      },
      {
        timestamp: open / 1000 + 300,
        timestampEnd: open / 1000 + 600,
        ncp: 0,
        npp: 140,
        ncpCumulative: 260,
        nppCumulative: 40,
        manualNcp: 0,
        manualNpp: 140,
        manualNcpCumulative: 340,
        manualNppCumulative: 40,
        callVolume: 0,
        putVolume: 2,
        totalVolume: 2,
        spyPrice: 502,
        isGap: false,
      },
    ]);
    const noMl = marketTideBars([{ date: "2024-03-06", minutes: 10, folds: [fold], spyClose: spy }], "5min", { excludeMultiLeg: true });
    expect([noMl[0].ncp, noMl[0].manualNcp, noMl[0].callVolume]).toEqual([100, 140, 5]);
    const noDeep = marketTideBars([{ date: "2024-03-06", minutes: 10, folds: [fold], spyClose: spy }], "5min", { excludeDeepItm: true });
    expect([noDeep[1].npp, noDeep[1].putVolume]).toEqual([0, 1]);
  });

  it("several sessions: a gap bar between them in intraday buckets, one bar per session for 1d, per week for 1w", () => {
    const prior = sessionBounds("2024-03-05");
    const sessions = [
      { date: "2024-03-05", minutes: 390, folds: [fold], spyClose: [] as number[] },
      { date: "2024-03-06", minutes: 10, folds: [fold], spyClose: spy },
    ];
    const intraday = marketTideBars(sessions, "30min");
    expect(intraday).toHaveLength(13 + 1 + 1);
    expect(intraday[13]).toMatchObject({ timestamp: prior.closeMs / 1000, timestampEnd: open / 1000, isGap: true, ncp: 0, ncpCumulative: 130, spyPrice: 0 });
    expect(intraday[14]).toMatchObject({ ncp: 130, ncpCumulative: 260, nppCumulative: 40, spyPrice: 502, timestampEnd: open / 1000 + 1800 });
    const daily = marketTideBars(sessions, "1d");
    expect(daily.map((b) => [b.timestamp, b.timestampEnd, b.ncp, b.ncpCumulative])).toEqual([
      [prior.openMs / 1000, prior.closeMs / 1000, 130, 130],
      [open / 1000, sessionBounds("2024-03-06").closeMs / 1000, 130, 260],
    ]);
    const weekly = marketTideBars([...sessions, { date: "2024-03-11", minutes: 0, folds: [], spyClose: [] }], "1w");
    expect(weekly.map((b) => [b.timestamp, b.ncp, b.totalVolume, b.spyPrice])).toEqual([
      [prior.openMs / 1000, 260, 16, 502],
      [sessionBounds("2024-03-11").openMs / 1000, 0, 0, 502],
    ]);
  });
});

describe("properties", () => {
  const trade = fc.record({
    day: fc.integer({ min: 0, max: 4 }),
    contract: fc.integer({ min: 0, max: 5 }),
    size: fc.integer({ min: 1, max: 40 }),
    cents: fc.integer({ min: 1, max: 900 }),
    side: fc.constantFrom("A" as const, "B" as const, "M" as const),
    isSweep: fc.boolean(),
    isMultiLeg: fc.boolean(),
  });
  const DAYS = ["2024-03-04", "2024-03-05", "2024-03-06", "2024-03-07", "2024-03-08"];

  it("weekly rows sum to the rollup of the whole week's trades (volume, premium, sides, sweeps, trades, VWAP)", () => {
    fc.assert(
      fc.property(fc.array(trade, { minLength: 1, maxLength: 60 }), (raw) => {
        const trades = raw.map((t) => {
          const priceUsd = t.cents / 100;
          const r: RollupTrade = {
            symbol: `XYZ__240315C0000${t.contract}000`,
            root: "XYZ",
            expiry: "2024-03-15",
            strike: t.contract,
            right: "C",
            side: t.side,
            priceUsd,
            size: t.size,
            premiumUsd: priceUsd * t.size * 100,
            underlyingPrice: 100,
            iv: 0.3,
            isSweep: t.isSweep,
            isMultiLeg: t.isMultiLeg,
          };
          return { day: t.day, r };
        });
        const daily = DAYS.map((d, i) =>
          contractDailyRollups(
            d,
            trades.filter((t) => t.day === i).map((t) => t.r),
          ),
        );
        const weekly = new Map(weeklyContractRows("2024-03-08", daily).map((r) => [r.symbol, r]));
        const whole = contractDailyRollups(
          "2024-03-08",
          [...trades].sort((a, b) => a.day - b.day).map((t) => t.r),
        );
        expect(weekly.size).toBe(whole.length);
        for (const w of whole) {
          const g = weekly.get(w.symbol)!;
          for (const k of ["totalVolume", "tradeCount", "bidVolume", "askVolume", "midVolume", "sweepVolume", "multiLegVolume", "dte"] as const) expect(g[k]).toBe(w[k]);
          for (const k of ["totalPremium", "sweepPremium", "multiLegPremium", "vwap", "lastPrice"] as const) expect(g[k]).toBeCloseTo(w[k], 6);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("tide: every bucket size sums to the same session totals; the last cumulative equals the sum of the bars", () => {
    const open = sessionBounds("2024-03-06").openMs;
    const tideTrade = fc.record({
      minute: fc.integer({ min: 0, max: 389 }),
      put: fc.boolean(),
      premium: fc.integer({ min: 1, max: 10_000 }),
      size: fc.integer({ min: 1, max: 50 }),
      aggression: fc.constantFrom(-1, -0.5, 0, 0.5, 1),
      multi: fc.boolean(),
      mny: fc.integer({ min: -50, max: 50 }),
    });
    fc.assert(
      fc.property(fc.array(tideTrade, { maxLength: 80 }), (raw) => {
        const trades: TideFoldTrade[] = raw
          .map((t) => ({
            tsMs: open + t.minute * 60_000,
            right: t.put ? ("P" as const) : ("C" as const),
            premiumUsd: t.premium,
            size: t.size,
            aggression: t.aggression,
            side: t.aggression > 0 ? ("A" as const) : t.aggression < 0 ? ("B" as const) : ("M" as const),
            isMultiLeg: t.multi,
            moneynessPct: t.mny,
          }))
          .sort((a, b) => a.tsMs - b.tsMs);
        const s = [{ date: "2024-03-06", minutes: 390, folds: [foldTideMinutes(trades, open)], spyClose: [] }];
        const calls = trades.filter((t) => t.right === "C");
        const ncp = calls.reduce((x, t) => x + Math.sign(t.aggression) * t.premiumUsd, 0);
        const volume = trades.reduce((x, t) => x + t.size, 0);
        for (const bucket of ["1min", "5min", "15min", "30min", "1d", "1w"] as const) {
          const bars = marketTideBars(s, bucket);
          expect(bars.length).toBe({ "1min": 390, "5min": 78, "15min": 26, "30min": 13, "1d": 1, "1w": 1 }[bucket]);
          expect(bars.reduce((x, b) => x + b.ncp, 0)).toBeCloseTo(ncp, 6);
          expect(bars.at(-1)!.ncpCumulative).toBeCloseTo(ncp, 6);
          expect(bars.reduce((x, b) => x + b.totalVolume, 0)).toBe(volume);
        }
      }),
      { numRuns: 100 },
    );
  });
});
