// A tiny deterministic MarketData for server tests: three symbols, 41 strikes, the next three
// trading days as expirations, boards only on regular-session minutes. Independent of the
// simulator so pipeline tests stay fast and exact.
import { contractColumns } from "../../lib/market/contract-columns";
import type { ChainSnapshot, MarketData, SymbolInfo } from "../../lib/market/market-data";
import { etDateOf, isTradingDay, nextTradingDay, previousTradingDay, sessionBounds } from "../../lib/time";

const MINUTE = 60_000;

const UNIVERSE: SymbolInfo[] = [
  {
    ticker: "SPX",
    name: "S&P 500 Index",
    type: "index",
    underlying: "SPX",
    sector: "Index",
    industry: "Index",
    optionRoots: ["SPXW", "SPX"],
    dividendYield: 0.013,
    tiers: ["index-etf", "full"],
    simulated: true,
  },
  {
    ticker: "SPY",
    name: "SPDR S&P 500 ETF",
    type: "etf",
    underlying: "SPY",
    sector: "Multi-Sector",
    industry: "ETF",
    optionRoots: ["SPY"],
    dividendYield: 0.013,
    tiers: ["index-etf", "full"],
    simulated: true,
  },
  {
    ticker: "AAPL",
    name: "Apple Inc.",
    type: "stock",
    underlying: "AAPL",
    sector: "Information Technology",
    industry: "Hardware",
    optionRoots: ["AAPL"],
    dividendYield: 0.005,
    tiers: ["full"],
    simulated: true,
  },
];
const BASE: Record<string, number> = { SPXW: 5000, SPX: 5000, SPY: 500, AAPL: 180 };
const UNDERLYING: Record<string, string> = { SPXW: "SPX", SPX: "SPX", SPY: "SPY", AAPL: "AAPL" };

/** Spot of a symbol at a minute: a slow deterministic wave. */
export function fakeSpot(symbol: string, tMs: number): number {
  const base = BASE[symbol] ?? BASE[UNDERLYING[symbol] ?? ""] ?? 100;
  return Math.round(base * (1 + 0.01 * Math.sin(tMs / 3_600_000) + 0.002 * Math.cos(tMs / 420_000)) * 100) / 100;
}

/** The board instant at or before `t`: a regular-session minute, or the previous session's last minute. */
function boardInstant(t: number): number | null {
  let date = etDateOf(t);
  for (let i = 0; i < 10; i++) {
    if (isTradingDay(date)) {
      const { openMs, closeMs } = sessionBounds(date);
      if (t >= openMs) return Math.min(Math.floor(t / MINUTE) * MINUTE, closeMs - MINUTE);
    }
    date = previousTradingDay(date);
    t = sessionBounds(date).closeMs;
  }
  return null;
}

function buildChain(symbol: string, asOfMs: number): ChainSnapshot {
  const sessionDate = etDateOf(asOfMs);
  const spot = fakeSpot(symbol, asOfMs);
  const step = (BASE[symbol] ?? 100) / 100;
  const center = Math.round(BASE[symbol] / step) * step;
  const strikes = new Float64Array(41).map((_, i) => center + (i - 20) * step);
  const expirations: string[] = [];
  let d = sessionDate;
  while (expirations.length < 3) {
    if (isTradingDay(d)) expirations.push(d);
    d = nextTradingDay(d);
  }
  const expirySettleMs = expirations.map((e) => sessionBounds(e).closeMs);
  const n = strikes.length * expirations.length * 2;
  const c = contractColumns(n);
  let r = 0;
  for (let e = 0; e < expirations.length; e++) {
    for (let s = 0; s < strikes.length; s++) {
      for (const right of [0, 1]) {
        c.strikeIndex[r] = s;
        c.expIndex[r] = e;
        c.right[r] = right;
        // Round strikes carry more open interest; calls above spot, puts below.
        c.oi[r] = 1000 + ((s * 7 + e * 13 + right * 5) % 11) * 300 + (s % 5 === 0 ? 4000 : 0);
        c.iv[r] = 0.18 + (0.4 * Math.abs(strikes[s] - spot)) / spot + 0.01 * e;
        c.bid[r] = 1;
        c.ask[r] = 1.1;
        c.last[r] = 1.05;
        r++;
      }
    }
  }
  return {
    symbol,
    underlying: UNDERLYING[symbol],
    asOfMs,
    sessionDate,
    spot,
    rate: 0.04,
    dividendYield: 0.01,
    simulated: true,
    expirations,
    expirySettleMs,
    expiryRoot: expirations.map(() => symbol),
    strikes,
    ...c,
  };
}

/**
 * The fake market, pinned at `nowMs` (a test may move it: `clock.now` is read on every call).
 * `chainCalls` counts boards built (cache tests).
 */
export function fakeMarket(nowMs: number): MarketData & { chainCalls: number } {
  const m = {
    simulated: true,
    clock: { now: () => nowMs },
    chainCalls: 0,
    universe: async () => UNIVERSE,
    symbolInfo: async (t: string) => UNIVERSE.find((u) => u.ticker === t),
    async chain(symbol: string, atMs: number) {
      if (!(symbol in UNDERLYING)) return null;
      const t = boardInstant(Math.min(atMs, m.clock.now()));
      if (t === null || t < Date.parse("2023-03-28T13:30:00Z")) return null;
      m.chainCalls++;
      return buildChain(symbol, t);
    },
    async spot(symbol: string, atMs: number) {
      const t = boardInstant(Math.min(atMs, m.clock.now()));
      return t === null ? null : fakeSpot(symbol, t);
    },
    minuteBars: async () => {
      throw new Error("not used");
    },
    optionPrints: async () => [],
    offExchangePrints: async () => [],
    earnings: async () => [],
  };
  return m as unknown as MarketData & { chainCalls: number };
}
