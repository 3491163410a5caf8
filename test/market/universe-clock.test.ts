import { describe, expect, it } from "vitest";
import { fixedClock, INDEX_ETF_TIER_SYMBOLS, scaledClock, SymbolInfoSchema, systemClock } from "../../lib/market";
import { optionRoot } from "../../lib/symbols";
import { simulatedMarketAt } from "../_helpers/simulated-market";

describe("symbol universe", () => {
  const market = simulatedMarketAt(1, Date.parse("2025-06-02T20:30:00Z"));

  it("has exactly 63 distinct index/ETF tier symbols, listed first", async () => {
    const u = await market.universe();
    expect(INDEX_ETF_TIER_SYMBOLS.length).toBe(63);
    expect(new Set(INDEX_ETF_TIER_SYMBOLS).size).toBe(63);
    expect(u.slice(0, 63).map((s) => s.ticker)).toEqual([...INDEX_ETF_TIER_SYMBOLS]);
    for (const s of u.slice(0, 63)) expect(s.tiers).toContain("index-etf");
    expect(u.slice(63).every((s) => s.type === "stock" && s.tiers.join() === "full")).toBe(true);
    expect(u.length - 63).toBeGreaterThanOrEqual(60);
  });

  it("validates every record and labels it simulated", async () => {
    for (const s of await market.universe()) {
      expect(SymbolInfoSchema.safeParse(s).success).toBe(true);
      expect(s.simulated).toBe(true);
    }
  });

  it("maps option roots to the underlyings lib/symbols knows", async () => {
    for (const t of ["SPXW", "SPX", "NDXP", "RUTW", "SPY", "AAPL"]) {
      const s = (await market.symbolInfo(t))!;
      expect(optionRoot(s.optionRoots[0]).underlying).toBe(s.underlying);
    }
    expect(await market.symbolInfo("NOPE")).toBeUndefined();
  });

  it("hands out copies (mutating a result does not change the market)", async () => {
    const a = (await market.symbolInfo("SPY"))!;
    a.optionRoots.push("X");
    expect((await market.symbolInfo("SPY"))!.optionRoots).toEqual(["SPY"]);
  });
});

describe("clocks", () => {
  it("pins a fixed clock", () => {
    expect(fixedClock(123).now()).toBe(123);
    expect(() => fixedClock(Number.NaN)).toThrow(RangeError);
  });

  it("scales real time by speed from startMs", () => {
    let real = 1_000;
    const c = scaledClock({ startMs: 5_000_000, speed: 60, realNow: () => real });
    expect(c.now()).toBe(5_000_000);
    real += 1_000;
    expect(c.now()).toBe(5_060_000);
    expect(() => scaledClock({ startMs: 0, speed: -1 })).toThrow(RangeError);
  });

  it("reads the system clock", () => {
    const before = Date.now();
    const t = systemClock.now();
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(Date.now());
  });
});
