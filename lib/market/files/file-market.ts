/**
 * The file provider: `MarketData` answered from tables built by `FileMarketBuilder`, by binary
 * search over time-sorted columns. Tables are swapped whole, so a failed reload changes nothing.
 * @see docs/data.md#real-data-from-files
 */
import { marketStateAt } from "../../time";
import { systemClock } from "../clock";
import type { ChainSnapshot, Clock, IsoDate, MarketData, MinuteBars, MinuteBarsOptions } from "../market-data";
import type { SymbolInfo } from "../schemas";
import type { EarningsEvent, OffExchangePrint, OptionPrint } from "../prints/schemas";
import type { FileMarketTables, TimeSeries } from "./file-market-builder";

const MINUTE_MS = 60_000;

/** A `MarketData` over loaded files whose tables can be replaced atomically. */
export interface FileMarket extends MarketData {
  readonly simulated: false;
  /** The tables currently answering queries. */
  readonly tables: FileMarketTables;
  /** Swaps in new tables (built completely beforehand); queries in flight keep the old ones. */
  replace(tables: FileMarketTables): void;
}

/** Options of `createFileMarket`. */
export interface FileMarketOptions {
  /** Source of "now"; nothing after it is returned. Default: the system clock. */
  clock?: Clock;
}

/** First index with `sorted[i] >= x` (`sorted.length` when none). */
export function lowerBound(sorted: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function sliceSeries<T>(s: TimeSeries<T> | undefined, fromMs: number, toMs: number): T[] {
  if (!s || !(toMs > fromMs)) return [];
  return s.items.slice(lowerBound(s.tsMs, fromMs), lowerBound(s.tsMs, toMs));
}

function emptyBars(ticker: string, extended: boolean): MinuteBars {
  const z = () => new Float64Array(0);
  return { ticker, extended, simulated: false, t: z(), o: z(), h: z(), l: z(), c: z(), v: z(), bv: z(), sv: z(), uv: z() };
}

/**
 * Wraps loaded tables as `MarketData`.
 * @example
 * const market = createFileMarket(builder.finish(), { clock: fixedClock(Date.parse("2024-03-16T00:00:00Z")) });
 * await market.chain("SPY", Date.parse("2024-03-15T15:00:00Z"));
 * @see docs/data.md#real-data-from-files
 */
export function createFileMarket(initial: FileMarketTables, options: FileMarketOptions = {}): FileMarket {
  let t = initial;
  // A reload can change any past answer (a minute's board that arrived late): a new revision.
  let revision = 0;
  const clock = options.clock ?? systemClock;

  const latestBoard = (symbol: string, atMs: number): ChainSnapshot | null => {
    const s = t.chains.get(symbol);
    if (!s) return null;
    const i = lowerBound(s.tsMs, Math.min(atMs, clock.now()) + 1) - 1;
    return i >= 0 ? s.items[i] : null;
  };

  const universe = (): SymbolInfo[] => {
    const all = [...t.symbols.values()];
    return [...all.filter((s) => s.tiers.includes("index-etf")), ...all.filter((s) => !s.tiers.includes("index-etf"))];
  };

  return {
    simulated: false,
    clock,
    get tables() {
      return t;
    },
    get revision() {
      return revision;
    },
    replace(tables) {
      t = tables;
      revision++;
    },
    async universe() {
      return universe();
    },
    async symbolInfo(ticker) {
      return t.symbols.get(ticker);
    },
    async chain(symbol, atMs) {
      return latestBoard(symbol, atMs);
    },
    async spot(symbol, atMs) {
      const at = Math.min(atMs, clock.now());
      const underlying = t.symbols.get(symbol)?.underlying ?? symbol;
      let best: { ms: number; px: number } | null = null;
      const bars = t.bars.get(underlying) ?? t.bars.get(symbol);
      if (bars) {
        // The last bar that has completed by `at`: its close is the last price.
        const i = lowerBound(bars.t, at - MINUTE_MS + 1) - 1;
        if (i >= 0) best = { ms: bars.t[i] + MINUTE_MS, px: bars.c[i] };
      }
      const board = latestBoard(symbol, at) ?? latestBoard(underlying, at);
      if (board && (!best || board.asOfMs > best.ms)) best = { ms: board.asOfMs, px: board.spot };
      return best ? best.px : null;
    },
    async minuteBars(ticker, fromMs, toMs, opts: MinuteBarsOptions = {}) {
      const extended = opts.extended ?? false;
      const bars = t.bars.get(ticker);
      // Bars must have completed by now: start + 1 minute <= now.
      const end = Math.min(toMs, clock.now() - MINUTE_MS + 1);
      if (!bars || !(end > fromMs)) return emptyBars(ticker, extended);
      const lo = lowerBound(bars.t, fromMs);
      const hi = lowerBound(bars.t, end);
      let idx: number[] | null = null;
      if (!extended) {
        idx = [];
        for (let i = lo; i < hi; i++) if (marketStateAt(bars.t[i]) === "open") idx.push(i);
      }
      const col = (xs: Float64Array) => (idx ? Float64Array.from(idx, (i) => xs[i]) : xs.slice(lo, hi));
      return {
        ticker,
        extended,
        simulated: false,
        t: col(bars.t),
        o: col(bars.o),
        h: col(bars.h),
        l: col(bars.l),
        c: col(bars.c),
        v: col(bars.v),
        bv: col(bars.bv),
        sv: col(bars.sv),
        uv: col(bars.uv),
      };
    },
    async optionPrints(ticker, fromMs, toMs): Promise<OptionPrint[]> {
      const s = t.optionPrintsByUnderlying.get(ticker) ?? t.optionPrintsByRoot.get(ticker);
      return sliceSeries(s, fromMs, Math.min(toMs, clock.now()));
    },
    async offExchangePrints(tickers, fromMs, toMs): Promise<OffExchangePrint[]> {
      const end = Math.min(toMs, clock.now());
      const keys = tickers ? [...new Set(tickers)] : [...t.offExchangePrints.keys()];
      const parts = keys.map((k) => sliceSeries(t.offExchangePrints.get(k), fromMs, end)).filter((p) => p.length > 0);
      if (parts.length <= 1) return parts[0] ?? [];
      return parts.flat().sort((a, b) => a.tsMs - b.tsMs || (a.tsNs < b.tsNs ? -1 : a.tsNs > b.tsNs ? 1 : a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0));
    },
    async earnings(ticker, fromDate: IsoDate, toDate: IsoDate): Promise<EarningsEvent[]> {
      return (t.earnings.get(ticker) ?? []).filter((e) => e.date >= fromDate && e.date <= toDate);
    },
  };
}
