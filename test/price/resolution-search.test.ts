// Resolutions and tiers (the spec's table), symbol info, the datafeed configuration and search ranking.
import { describe, expect, it } from "vitest";
import { symbolSpecs, toSymbolInfo } from "../../lib/market";
import { datafeedConfig, matchRank, maxFetchTradingDays, normalizeResolution, RESOLUTIONS, resolutionTier, searchSymbols, udfSymbolInfo } from "../../lib/price";

const universe = symbolSpecs().map(toSymbolInfo);

describe("resolutions", () => {
  it("accepts the spec's values and the charting aliases 1D/1W", () => {
    for (const r of RESOLUTIONS) expect(normalizeResolution(r)).toBe(r);
    expect(normalizeResolution("1D")).toBe("D");
    expect(normalizeResolution("1w")).toBe("W");
    for (const bad of ["", "4", "10", "120", "M", "1M", "2D", "D1"]) expect(normalizeResolution(bad)).toBeNull();
  });

  it("tiers and caps are the spec's table (Price endpoints, rule 3)", () => {
    const spec: Record<string, [string, number]> = {
      "1": ["1-minute", 90],
      "2": ["1-minute", 90],
      "3": ["1-minute", 90],
      "5": ["1-minute", 90],
      "15": ["1-minute", 90],
      "30": ["1-minute", 90],
      "60": ["1-hour", 720],
      "240": ["1-hour", 720],
      "480": ["1-hour", 720],
      D: ["1-day", 2600],
      W: ["1-day", 2600],
    };
    const caps = maxFetchTradingDays();
    for (const r of RESOLUTIONS) expect([resolutionTier(r), caps[r]]).toEqual(spec[r]);
    expect(datafeedConfig(true).max_fetch_trading_days).toEqual(caps);
  });
});

describe("symbol info", () => {
  it("has every field of the spec's record and labels simulated data", () => {
    const spy = udfSymbolInfo(universe.find((u) => u.ticker === "SPY")!);
    for (const f of [
      "ticker",
      "name",
      "description",
      "type",
      "session",
      "timezone",
      "exchange",
      "minmov",
      "pricescale",
      "has_intraday",
      "has_daily",
      "has_weekly_and_monthly",
      "intraday_multipliers",
      "supported_resolutions",
      "volume_precision",
      "data_status",
      "format",
    ])
      expect(spy).toHaveProperty(f);
    expect(spy).toMatchObject({ ticker: "SPY", session: "0930-1600", timezone: "America/New_York", pricescale: 100, data_status: "simulated" });
    expect(spy.description).toMatch(/simulated/);
    expect(spy.supported_resolutions).toEqual([...RESOLUTIONS]);
    expect(udfSymbolInfo({ ...universe[0], simulated: false }).data_status).toBe("streaming");
  });
});

describe("search ranking: exact > prefix > substring", () => {
  it("ranks ticker and name matches", () => {
    expect(matchRank("spy", { ticker: "SPY", name: "SPDR S&P 500 ETF Trust" })).toBe(0);
    expect(matchRank("SP", { ticker: "SPY", name: "SPDR S&P 500 ETF Trust" })).toBe(2);
    expect(matchRank("S&P", { ticker: "SPY", name: "SPDR S&P 500 ETF Trust" })).toBe(3);
    expect(matchRank("PY", { ticker: "SPY", name: "SPDR" })).toBe(4);
    expect(matchRank("DR S", { ticker: "SPY", name: "SPDR S&P" })).toBe(5);
    expect(matchRank("ZZZ", { ticker: "SPY", name: "SPDR" })).toBeNull();
  });

  it("orders results exact first, then prefixes by length, then substrings", () => {
    const hits = searchSymbols(universe, "SPX").map((h) => h.symbol);
    expect(hits[0]).toBe("SPX");
    expect(hits[1]).toBe("SPXW");
    const sp = searchSymbols(universe, "sp", { limit: 50 });
    const ranks = sp.map((h) => matchRank("sp", universe.find((u) => u.ticker === h.symbol)!)!);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(searchSymbols(universe, "apple")[0].symbol).toBe("AAPL");
  });

  it("applies limit, type and exchange filters", () => {
    expect(searchSymbols(universe, "s", { limit: 3 })).toHaveLength(3);
    expect(searchSymbols(universe, "s", { type: "index" }).every((h) => h.type === "index" && h.kind === "index")).toBe(true);
    expect(searchSymbols(universe, "s", { exchange: "nasdaq" }).every((h) => h.exchange === "NASDAQ")).toBe(true);
    expect(searchSymbols(universe, "   ")).toEqual([]);
  });
});
