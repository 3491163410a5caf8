/**
 * The `MarketData` a live feed fills: boards, option prints and minute bars pushed as they arrive,
 * answered by binary search over time-sorted arrays. Instants the feed does not hold (before its
 * first board, print or bar) come from `history` (the recorded store, when there is one), else null or empty, as the
 * interface documents. Any feed (Massive or a second vendor) pushes into it through `LiveSink`.
 * @see docs/data.md#live-feeds
 */
import type { ChainSnapshot, Clock, IsoDate, MarketData, MinuteBars, MinuteBarsOptions, OffExchangePrint, OptionPrint } from "../../lib/market/market-data";
import type { SymbolInfo } from "../../lib/market/schemas";
import type { EarningsEvent } from "../../lib/market/prints/schemas";
import { lowerBound } from "../../lib/market/files/file-market";
import { marketStateAt } from "../../lib/time";

const MINUTE_MS = 60_000;

/** One minute bar as a feed delivers it (`t` its start, ms). */
interface LiveBar {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

/** What a feed writes into the live market. */
interface LiveSink {
  /** A symbol's board of minute `board.asOfMs` (a later board of the same minute replaces it). */
  putBoard(board: ChainSnapshot): void;
  /** One option print (kept in time order per underlying and per root). */
  putPrint(print: OptionPrint): void;
  /** One finished minute bar of `ticker` (a bar of an instant already held replaces it). */
  putBar(ticker: string, bar: LiveBar): void;
}

/** The live market: a `MarketData` and the sink its feed writes to. */
export interface LiveMarket extends MarketData, LiveSink {
  readonly simulated: false;
  /** Boards held per symbol (status, tests). */
  boardCount(symbol: string): number;
}

/** Options of `createLiveMarket`. */
export interface LiveMarketOptions {
  /** The symbols served (their `simulated` must be false). */
  universe: readonly SymbolInfo[];
  clock: Clock;
  /** Where instants before the feed's first item of a series are answered (a recorded store); absent: null or empty. */
  history?: MarketData;
}

/** A time-sorted series that accepts out-of-order inserts (late prints) at their place. */
class Series<T> {
  readonly ts: number[] = [];
  readonly items: T[] = [];
  /** Insert after every item of the same instant (arrival order kept within a millisecond). */
  insert(tsMs: number, item: T): void {
    const n = this.ts.length;
    if (n === 0 || this.ts[n - 1] <= tsMs) {
      this.ts.push(tsMs);
      this.items.push(item);
      return;
    }
    const i = lowerBound(this.ts, tsMs + 1);
    this.ts.splice(i, 0, tsMs);
    this.items.splice(i, 0, item);
  }
  /** Replace the item at exactly `tsMs`, else insert it. */
  upsert(tsMs: number, item: T): void {
    const i = lowerBound(this.ts, tsMs);
    if (i < this.ts.length && this.ts[i] === tsMs) this.items[i] = item;
    else this.insert(tsMs, item);
  }
  slice(fromMs: number, toMs: number): T[] {
    return this.items.slice(lowerBound(this.ts, fromMs), lowerBound(this.ts, toMs));
  }
  /** The last item at or before `atMs`, or undefined. */
  atOrBefore(atMs: number): T | undefined {
    const i = lowerBound(this.ts, atMs + 1) - 1;
    return i >= 0 ? this.items[i] : undefined;
  }
}

function emptyBars(ticker: string, extended: boolean): MinuteBars {
  const z = () => new Float64Array(0);
  return { ticker, extended, simulated: false, t: z(), o: z(), h: z(), l: z(), c: z(), v: z(), bv: z(), sv: z(), uv: z() };
}

function concatBars(a: MinuteBars, rows: LiveBar[], ticker: string, extended: boolean): MinuteBars {
  const n = a.t.length + rows.length;
  const out = emptyBars(ticker, extended);
  const cols = ["t", "o", "h", "l", "c", "v"] as const;
  for (const k of cols) {
    const col = new Float64Array(n);
    col.set(a[k]);
    for (let i = 0; i < rows.length; i++) col[a.t.length + i] = rows[i][k];
    out[k] = col;
  }
  // A feed's aggregates carry no aggressor split: the live part is unclassified (bv + sv + uv = v).
  out.bv = new Float64Array(n);
  out.sv = new Float64Array(n);
  out.uv = new Float64Array(n);
  out.bv.set(a.bv);
  out.sv.set(a.sv);
  out.uv.set(a.uv);
  for (let i = 0; i < rows.length; i++) out.uv[a.t.length + i] = rows[i].v;
  return out;
}

/**
 * A live market over `universe`, filled through its `LiveSink` methods.
 * @example const live = createLiveMarket({ universe, clock: systemClock }); live.putBoard(board); await live.chain("SPY", Date.now());
 */
export function createLiveMarket(options: LiveMarketOptions): LiveMarket {
  const { clock, history } = options;
  const symbols = new Map(options.universe.map((s) => [s.ticker, s]));
  const boards = new Map<string, Series<ChainSnapshot>>();
  const printsByUnderlying = new Map<string, Series<OptionPrint>>();
  const printsByRoot = new Map<string, Series<OptionPrint>>();
  const bars = new Map<string, Series<LiveBar>>();
  let revision = 0;
  const seriesOf = <T>(m: Map<string, Series<T>>, key: string): Series<T> => {
    let s = m.get(key);
    if (!s) {
      s = new Series<T>();
      m.set(key, s);
    }
    return s;
  };

  const liveBoard = (symbol: string, atMs: number): ChainSnapshot | null => boards.get(symbol)?.atOrBefore(Math.min(atMs, clock.now())) ?? null;

  const market: LiveMarket = {
    simulated: false,
    clock,
    // A board arriving late changes what `chain(now)` answered a moment ago: the live caches key on it.
    get revision() {
      return revision;
    },
    boardCount: (symbol) => boards.get(symbol)?.ts.length ?? 0,
    putBoard(board) {
      seriesOf(boards, board.symbol).upsert(board.asOfMs, board);
      revision++;
    },
    putPrint(print) {
      seriesOf(printsByUnderlying, print.underlying).insert(print.tsMs, print);
      if (print.root !== print.underlying) seriesOf(printsByRoot, print.root).insert(print.tsMs, print);
    },
    putBar(ticker, bar) {
      seriesOf(bars, ticker).upsert(bar.t, bar);
    },
    async universe() {
      const all = [...symbols.values()];
      return [...all.filter((s) => s.tiers.includes("index-etf")), ...all.filter((s) => !s.tiers.includes("index-etf"))];
    },
    async symbolInfo(ticker) {
      return symbols.get(ticker);
    },
    async chain(symbol, atMs, opts) {
      const live = liveBoard(symbol, atMs);
      if (live) return live;
      return history ? history.chain(symbol, atMs, opts) : null;
    },
    async spot(symbol, atMs) {
      const at = Math.min(atMs, clock.now());
      const underlying = symbols.get(symbol)?.underlying ?? symbol;
      let best: { ms: number; px: number } | null = null;
      const b = bars.get(underlying) ?? bars.get(symbol);
      // The last bar completed by `at`: its close is the last price.
      const bar = b?.atOrBefore(at - MINUTE_MS);
      if (bar) best = { ms: bar.t + MINUTE_MS, px: bar.c };
      const board = liveBoard(symbol, at) ?? liveBoard(underlying, at);
      if (board && (!best || board.asOfMs > best.ms)) best = { ms: board.asOfMs, px: board.spot };
      if (best) return best.px;
      return history ? history.spot(symbol, atMs) : null;
    },
    async minuteBars(ticker, fromMs, toMs, opts: MinuteBarsOptions = {}) {
      const extended = opts.extended ?? false;
      const end = Math.min(toMs, clock.now() - MINUTE_MS + 1);
      const s = bars.get(ticker);
      // The feed's own bars from its first one on; before it, the history's.
      const split = Math.max(fromMs, s && s.ts.length > 0 ? s.ts[0] : end);
      const before = history && fromMs < split ? await history.minuteBars(ticker, fromMs, Math.min(end, split), opts) : emptyBars(ticker, extended);
      const rows = s && end > split ? s.slice(split, end) : [];
      const kept = extended ? rows : rows.filter((r) => marketStateAt(r.t) === "open");
      return concatBars(before, kept, ticker, extended);
    },
    async optionPrints(ticker, fromMs, toMs) {
      const end = Math.min(toMs, clock.now());
      const s = printsByUnderlying.get(ticker) ?? printsByRoot.get(ticker);
      // The feed's own prints from its first one on; before it, the history's.
      const split = Math.max(fromMs, s && s.ts.length > 0 ? s.ts[0] : end);
      const before: OptionPrint[] = history && fromMs < split ? await history.optionPrints(ticker, fromMs, Math.min(end, split)) : [];
      const live = s && end > split ? s.slice(split, end) : [];
      return before.length === 0 ? live : [...before, ...live];
    },
    // Massive's option feed carries no off-exchange equity prints and no earnings calendar: the history's, else none.
    async offExchangePrints(tickers, fromMs, toMs): Promise<OffExchangePrint[]> {
      return history ? history.offExchangePrints(tickers, fromMs, toMs) : [];
    },
    async earnings(ticker, fromDate: IsoDate, toDate: IsoDate): Promise<EarningsEvent[]> {
      return history ? history.earnings(ticker, fromDate, toDate) : [];
    },
  };
  return market;
}
