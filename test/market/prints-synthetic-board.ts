/**
 * A synthetic board for the print-generator tests, built here from Black-Scholes with a simple
 * skew so that the tests do not depend on the simulator's internals. Not a test file.
 */
import { contractColumns } from "../../lib/market/contract-columns";
import { normCdf } from "../../lib/math/normal";
import type { ChainSnapshot, SimulatedMarketContext, MinuteBars } from "../../lib/market/market-data";
import { sessionBounds, addTradingDays } from "../../lib/time";
import type { SymbolInfo } from "../../lib/market/schemas";

const YEAR_MS = 365 * 86_400_000;

function bsCall(s: number, k: number, t: number, v: number): number {
  const sd = v * Math.sqrt(t);
  const d1 = (Math.log(s / k) + 0.5 * sd * sd) / sd;
  return s * normCdf(d1) - k * normCdf(d1 - sd);
}

export interface BoardSpec {
  symbol: string;
  root: string;
  underlying: string;
  spot: number;
  strikeStep: number;
  strikeSpanPct: number;
  /** Trading-day offsets of the expirations from the session date (0 = 0DTE). */
  expiryOffsets: number[];
  atmVol: number;
}

export const SPXW_SPEC: BoardSpec = {
  symbol: "SPXW",
  root: "SPXW",
  underlying: "SPX",
  spot: 5000,
  strikeStep: 5,
  strikeSpanPct: 0.2,
  expiryOffsets: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80],
  atmVol: 0.15,
};

const SPY_SPEC: BoardSpec = {
  symbol: "SPY",
  root: "SPY",
  underlying: "SPY",
  spot: 500,
  strikeStep: 1,
  strikeSpanPct: 0.15,
  expiryOffsets: [0, 1, 2, 3, 4, 5, 10, 15, 20, 40, 60],
  atmVol: 0.16,
};

const AAPL_SPEC: BoardSpec = {
  symbol: "AAPL",
  root: "AAPL",
  underlying: "AAPL",
  spot: 190,
  strikeStep: 2.5,
  strikeSpanPct: 0.3,
  expiryOffsets: [3, 8, 13, 18, 40, 60, 120],
  atmVol: 0.28,
};

/** A board at `asOfMs` of session `sessionDate`. */
export function syntheticBoard(spec: BoardSpec, sessionDate: string, asOfMs: number, spot = spec.spot): ChainSnapshot {
  const expirations = spec.expiryOffsets.map((d) => addTradingDays(sessionDate, d));
  const expirySettleMs = expirations.map((d) => sessionBounds(d).closeMs);
  const lo = Math.ceil((spec.spot * (1 - spec.strikeSpanPct)) / spec.strikeStep) * spec.strikeStep;
  const hi = Math.floor((spec.spot * (1 + spec.strikeSpanPct)) / spec.strikeStep) * spec.strikeStep;
  const strikes: number[] = [];
  for (let k = lo; k <= hi + 1e-9; k += spec.strikeStep) strikes.push(Math.round(k * 1000) / 1000);
  const n = expirations.length * strikes.length * 2;
  const cols = contractColumns(n);
  let i = 0;
  for (let e = 0; e < expirations.length; e++) {
    const t = Math.max((expirySettleMs[e] - asOfMs) / YEAR_MS, 60_000 / YEAR_MS);
    for (let s = 0; s < strikes.length; s++) {
      const k = strikes[s];
      const vol = spec.atmVol * (1 - 0.8 * Math.log(k / spot));
      const call = bsCall(spot, k, t, vol);
      for (const r of [0, 1]) {
        const px = r === 1 ? call : call - spot + k;
        const fair = Math.max(px, 0.005);
        const half = Math.max(0.01, fair * 0.02);
        cols.strikeIndex[i] = s;
        cols.expIndex[i] = e;
        cols.right[i] = r;
        cols.bid[i] = Math.max(0, Math.round((fair - half) * 100) / 100);
        cols.ask[i] = Math.round((fair + half) * 100) / 100 + 0.01;
        cols.last[i] = Math.round(fair * 100) / 100;
        cols.iv[i] = vol;
        cols.oi[i] = 1000;
        i++;
      }
    }
  }
  return {
    symbol: spec.symbol,
    underlying: spec.underlying,
    asOfMs,
    sessionDate,
    spot,
    rate: 0.05,
    dividendYield: 0,
    simulated: true,
    expirations,
    expirySettleMs,
    expiryRoot: expirations.map(() => spec.root),
    strikes: Float64Array.from(strikes),
    ...cols,
  };
}

const INFO: Record<string, SymbolInfo> = {
  SPXW: {
    ticker: "SPXW",
    name: "S&P 500 weeklies",
    type: "index",
    underlying: "SPX",
    sector: "Index",
    industry: "Index",
    optionRoots: ["SPXW"],
    dividendYield: 0.013,
    tiers: ["index-etf", "full"],
    simulated: true,
  },
  SPY: {
    ticker: "SPY",
    name: "SPDR S&P 500",
    type: "etf",
    underlying: "SPY",
    sector: "Multi-Sector",
    industry: "Broad market",
    optionRoots: ["SPY"],
    dividendYield: 0.013,
    tiers: ["index-etf", "full"],
    simulated: true,
  },
  AAPL: {
    ticker: "AAPL",
    name: "Apple",
    type: "stock",
    underlying: "AAPL",
    sector: "Information Technology",
    industry: "Hardware",
    optionRoots: ["AAPL"],
    dividendYield: 0.005,
    tiers: ["full"],
    simulated: true,
  },
};
const SPECS: Record<string, BoardSpec> = { SPXW: SPXW_SPEC, SPY: SPY_SPEC, AAPL: AAPL_SPEC };

/**
 * A minimal `SimulatedMarketContext` over synthetic boards: a smooth deterministic spot path and
 * flat U-shaped minute bars. Counts `chainSync` calls so tests can check the refresh cadence.
 */
export function syntheticContext(seed: number, nowMs: number) {
  let chainCalls = 0;
  const spotAt = (spec: BoardSpec, ms: number) => spec.spot * (1 + 0.002 * Math.sin(ms / 3_600_000));
  const ctx: SimulatedMarketContext = {
    seed,
    clock: { now: () => nowMs },
    universeSync: () => Object.values(INFO),
    symbolInfoSync: (t) => INFO[t],
    chainSync: (symbol, atMs) => {
      const spec = SPECS[symbol];
      if (!spec) return null;
      chainCalls++;
      const date = new Date(atMs - 4 * 3_600_000).toISOString().slice(0, 10);
      return syntheticBoard(spec, date, atMs, spotAt(spec, atMs));
    },
    spotSync: (symbol, atMs) => {
      const spec = Object.values(SPECS).find((s) => s.underlying === symbol);
      return spec ? spotAt(spec, atMs) : null;
    },
    minuteBarsSync: (ticker, fromMs, toMs): MinuteBars => {
      const spec = SPECS[ticker];
      const t: number[] = [];
      if (spec)
        for (let m = Math.ceil(fromMs / 60_000) * 60_000; m < Math.min(toMs, nowMs); m += 60_000) {
          const etHour = new Date(m - 4 * 3_600_000).getUTCHours();
          if (etHour >= 4 && etHour < 20) t.push(m);
        }
      const f = (g: (m: number) => number) => Float64Array.from(t.map(g));
      const base = spec ? (ticker === "SPY" ? 150_000 : 40_000) : 0;
      return {
        ticker,
        extended: true,
        simulated: true,
        t: Float64Array.from(t),
        o: f((m) => spotAt(spec!, m)),
        h: f((m) => spotAt(spec!, m) * 1.0004),
        l: f((m) => spotAt(spec!, m) * 0.9996),
        c: f((m) => spotAt(spec!, m)),
        v: f(() => base),
        bv: f(() => base / 2),
        sv: f(() => base / 2),
        uv: f(() => 0),
      };
    },
    earningsSync: () => [],
  };
  return { ctx, chainCalls: () => chainCalls };
}
