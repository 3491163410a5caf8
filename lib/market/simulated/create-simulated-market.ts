/**
 * The embedded default market: deterministic from `(seed, symbol, instant)`, any minute from
 * 2023-03-28 to the clock's now, nothing stored beyond memo caches of pure results.
 * @see docs/methodology.md#market-data-and-the-simulated-market
 */
import { systemClock } from "../clock";
import type {
  ChainOptions,
  ChainSnapshot,
  Clock,
  ContractMinuteQuotes,
  ContractRef,
  IsoDate,
  MarketData,
  MinuteBars,
  MinuteBarsOptions,
  SimulatedMarketContext,
} from "../market-data";
import { simulatedEarnings } from "../prints/simulated-earnings";
import { simulatedOffExchangePrints } from "../prints/simulated-off-exchange";
import { simulatedOptionPrints, simulatedOptionSessionSizes } from "../prints/simulated-option-prints";
import type { EarningsEvent, OffExchangePrint, OptionPrint } from "../prints/schemas";
import type { SymbolInfo } from "../schemas";
import { toSymbolInfo, type SymbolSpec } from "../universe";
import { sessionIndexAtOrBefore, simCalendar } from "./_calendar";
import { hashText } from "./_hash";
import { Lru } from "./_lru";
import { boardMinuteAt, type BoardMinute } from "./board-minute";
import { boardGrid, boardRowOf, quoteBoard, quoteBoardRows, quoteBoardWindow, type ChainWindowSelect } from "./chain-quotes";
import { SimEngine } from "./engine";
import { computeDayBars, emptyBars, sliceBars, type DayBars } from "./minute-bars";
import { firstSessionIndex, openOf, priceAtBoundary, spotAt } from "./prices";
import { buildSessionBoard, buildSessionGrid, type SessionBoard, type SessionGrid } from "./session-board";
import { carryOpenInterest } from "./open-interest-carry";
import { createTapeVolume, lazyColumn, lazyVolume, snapshotRows, type TapeVolume } from "./tape-volume";
import { atmTotalVariance } from "./vol-surface";
import { eventVarianceBetween, surfaceLevel } from "./vol-state";

const MINUTE_MS = 60_000;

/** Options of `createSimulatedMarket`. */
export interface SimulatedMarketOptions {
  /** Seed of the whole market (`OPTIONSCOPE_SEED`); strings are hashed. Default 42. */
  seed?: number | string;
  /** Source of "now"; nothing after it is returned. Default the system clock. */
  clock?: Clock;
}

/** The simulator: the async `MarketData` interface plus the synchronous views the print generators use. */
export type SimulatedMarket = MarketData &
  SimulatedMarketContext & {
    /**
     * `chainSync` restricted to the nearest `select.maxExpirations` expirations and the strike
     * window `select.strikeWindow` picks: the same snapshot (asOfMs, spot, expirations, the full
     * strike union) with only those contracts, each with exactly the values the full board gives
     * it. For consumers that need only a window of every minute (daily statistics): an SPXW
     * minute costs a few hundred contracts instead of ~21,000.
     * @example market.chainWindowSync("SPXW", t, { maxExpirations: 5, strikeWindow: (k, s) => strikeWindow(k, s, 92) })
     */
    chainWindowSync(symbol: string, atMs: number, select: ChainWindowSelect, options?: ChainOptions): ChainSnapshot | null;
    /**
     * The head of `chainSync(symbol, atMs)`: its unsettled expirations up to the first that
     * settles at or after `untilMs` (all when none does; at least one), the strike union of their
     * contracts and every contract of theirs, each with exactly the values the full board gives
     * it (open interest and volume, when read, from the full board). Only the head's part of the
     * session's grid is built and quoted: for readers that need the near expirations only (a
     * closing reading out to six months). Null where `chainSync` is null.
     * @example market.chainHeadSync("SPXW", closeMs, closeMs + 184 * 86_400_000)
     * @see docs/methodology.md#daily-readings
     */
    chainHeadSync(symbol: string, atMs: number, untilMs: number, options?: ChainOptions): ChainSnapshot | null;
    /**
     * The constant-maturity at-the-money-forward implied vol (decimal) of a symbol's surface at
     * the instant its board would be quoted (`chainSync(symbol, atMs).asOfMs`), `tenorDays`
     * calendar days out, scheduled events included: what the board's expirations interpolate
     * in total variance, without building the board. Null where `chainSync` is null.
     * @example market.atmImpliedVolSync("SPX", t, 30) // 0.14
     * @see docs/methodology.md#implied-volatility-state
     */
    atmImpliedVolSync(symbol: string, atMs: number, tenorDays: number): number | null;
    /**
     * The same market seen by another clock, sharing every memo (boards, paths, tapes, open
     * interest): what the market answers about an instant does not depend on the clock, only
     * whether it answers (nothing after `clock.now()`). Markets of one seed at several instants
     * (tests, a replay beside a live view) then build each board once.
     * @example const june = market.withClock(fixedClock(Date.parse("2025-06-13T20:00:00Z")));
     */
    withClock(clock: Clock): SimulatedMarket;
  };

/** A seed as a 32-bit integer. */
function seedOf(seed: number | string | undefined): number {
  if (seed === undefined) return 42;
  if (typeof seed === "string") return /^-?\d+$/.test(seed.trim()) ? Number(seed.trim()) | 0 : hashText(seed) | 0;
  if (!Number.isFinite(seed)) throw new RangeError("createSimulatedMarket: seed must be finite");
  return Math.trunc(seed) | 0;
}

/** Session boards memoised per market. */
const SESSION_BOARDS_KEPT = 512;
/** Symbol-session option tapes (board volume) memoised per market. */
const DAY_TAPES_KEPT = 256;

/**
 * Creates the simulated market.
 * @example
 * const market = createSimulatedMarket({ seed: 7, clock: fixedClock(Date.parse("2024-05-01T18:00:00Z")) });
 * const board = await market.chain("SPXW", market.clock.now()); // ~20,000 contracts, simulated: true
 * @see docs/methodology.md#market-data-and-the-simulated-market
 */
export function createSimulatedMarket(options: SimulatedMarketOptions = {}): SimulatedMarket {
  return marketOn(createMemo(seedOf(options.seed)), options.clock ?? systemClock).market;
}

/** The memo caches of one seed's market: pure results, whatever the clock. */
interface SimMemo {
  seed: number;
  engine: SimEngine;
  boards: Lru<string, SessionBoard>;
  sessionGrids: Lru<string, SessionGrid>;
  dayBars: Lru<string, DayBars>;
  carried: WeakMap<SessionBoard, Float64Array>;
  tape: TapeVolume;
  universe?: { list: SymbolInfo[]; byTicker: Map<string, SymbolInfo> };
}

/** Sees every instant: the tape's generator, asked only for minutes its callers' clocks have passed. */
const TIMELESS: Clock = { now: () => Number.POSITIVE_INFINITY };

function createMemo(seed: number): SimMemo {
  const memo: Omit<SimMemo, "tape"> & { tape?: TapeVolume } = {
    seed,
    engine: new SimEngine(seed),
    // Session boards (about 0.2 MB of arrays each on average: 292 measured at 60 MB): room for every
    // root's board of today plus its prior session and cone anchors (146 roots), so a per-minute
    // sweep over the whole universe (the vol screener) does not rebuild each board every minute, as
    // it did at 64.
    boards: new Lru<string, SessionBoard>(SESSION_BOARDS_KEPT),
    // Grids alone (the previous session's, for its order stream and the carry), kept like boards;
    // a board built later extends the same grid.
    sessionGrids: new Lru<string, SessionGrid>(SESSION_BOARDS_KEPT),
    dayBars: new Lru<string, DayBars>(256),
    carried: new WeakMap<SessionBoard, Float64Array>(),
  };
  // One tape is the truth: priced boards read their volume from the option tape, which is made on
  // boards quoted without it (`withTape` false). @see docs/methodology.md#one-tape-board-volume-from-the-prints
  // One day tape per root in session (146), kept like the session boards: at the default 64 a sweep
  // over the universe regenerated each root's tape from the open every minute.
  const { printContext } = marketOn(memo as SimMemo, TIMELESS);
  memo.tape = createTapeVolume((symbol, day, add, fromMs, toMs) => simulatedOptionSessionSizes(printContext, symbol, day, add, fromMs, toMs), DAY_TAPES_KEPT);
  return memo as SimMemo;
}

/** The market of `memo` seen by `clock` (and the context its print generators read). */
function marketOn(memo: SimMemo, clock: Clock): { market: SimulatedMarket; printContext: SimulatedMarketContext } {
  const { seed, engine, boards, sessionGrids, dayBars, carried } = memo;
  const gridOf = (symbol: string, spec: SymbolSpec, d: number): SessionGrid =>
    boards.peek(`${symbol}|${d}`) ?? sessionGrids.get(`${symbol}|${d}`, () => buildSessionGrid(engine, spec, d));
  const boardOf = (symbol: string, spec: SymbolSpec, d: number): SessionBoard =>
    boards.get(`${symbol}|${d}`, () => buildSessionBoard(engine, spec, d, sessionGrids.peek(`${symbol}|${d}`)));
  const universeOf = () => {
    if (!memo.universe) {
      const list = engine.specList.map(toSymbolInfo);
      memo.universe = { list, byTicker: new Map(list.map((s) => [s.ticker, s])) };
    }
    return memo.universe;
  };
  const universeSync = (): SymbolInfo[] => universeOf().list.map((s) => ({ ...s, optionRoots: [...s.optionRoots], tiers: [...s.tiers] }));

  const symbolInfoSync = (ticker: string): SymbolInfo | undefined => {
    const s = universeOf().byTicker.get(ticker);
    return s && { ...s, optionRoots: [...s.optionRoots], tiers: [...s.tiers] };
  };

  /** The board minute at `atMs`, never after the clock. @see docs/methodology.md#extended-hours-boards */
  const boardMinute = (atMs: number, extended = false): BoardMinute | null => boardMinuteAt(Math.min(atMs, clock.now()), { extended });

  // Open interest carries the previous session's net opening volume from the same tape; the
  // generator's boards (`withTape` false) keep the shape, so making a tape never needs another
  // session's tape. @see docs/methodology.md#open-interest-carry-from-the-tape
  const openInterestOf = (symbol: string, spec: SymbolSpec, board: SessionBoard): Float64Array => {
    let oi = carried.get(board);
    if (oi) return oi;
    const p = board.d - 1;
    if (p < firstSessionIndex(spec)) oi = board.oi;
    else {
      const prev = gridOf(symbol, spec, p);
      oi = carryOpenInterest(board, prev, memo.tape.sessionVolume(prev), engine.owner(spec).vol);
    }
    carried.set(board, oi);
    return oi;
  };

  const chainAt = (symbol: string, atMs: number, select: ChainWindowSelect | null, options: ChainOptions = {}, withTape = true): ChainSnapshot | null => {
    const spec = engine.spec(symbol);
    if (!spec || !Number.isFinite(atMs)) return null;
    const at = boardMinute(atMs, options.extended === true);
    if (!at || at.d < firstSessionIndex(spec)) return null;
    const { d, asOfMs, k } = at;
    const board = boardOf(symbol, spec, d);
    if (board.expirations.every((e) => e.settleMs <= asOfMs)) return null;
    // Boundary k of the owner's path: extended-hours spot for every symbol, indices included
    // (they follow their family's extended path). @see docs/methodology.md#extended-hours-boards
    const spot = priceAtBoundary(engine, spec, d, k);
    const openSpot = openOf(engine, spec, d);
    const snap = select ? quoteBoardWindow(board, asOfMs, spot, openSpot, select) : quoteBoard(board, asOfMs, spot, openSpot);
    if (!withTape) return snap;
    // Open interest on first read: readers of quotes alone (IV, spreads) never make a tape.
    lazyColumn(snap, "oi", () => {
      const oi = openInterestOf(symbol, spec, board);
      const rows = snapshotRows(board, snap);
      const out = new Float64Array(rows.length);
      for (let i = 0; i < rows.length; i++) out[i] = oi[rows[i]];
      return out;
    });
    const priced = select === null || select.prices === true;
    return priced ? lazyVolume(snap, () => memo.tape.volumeOf(board, snap)) : snap;
  };
  const chainSync = (symbol: string, atMs: number, options?: ChainOptions): ChainSnapshot | null => chainAt(symbol, atMs, null, options);

  const atmImpliedVolSync = (symbol: string, atMs: number, tenorDays: number): number | null => {
    const spec = engine.spec(symbol);
    if (!spec || !Number.isFinite(atMs) || !(tenorDays > 0)) return null;
    const at = boardMinute(atMs);
    if (!at || at.d < firstSessionIndex(spec)) return null;
    const { d, asOfMs, k } = at;
    const cal = simCalendar();
    const owner = engine.owner(spec);
    const daily = engine.dailyPath(owner.ticker);
    const spot = priceAtBoundary(engine, spec, d, k);
    const refSpot = (d > 0 ? daily.close[d - 1] : daily.refPrice) * engine.ratio(spec);
    const frac = (asOfMs - cal.regOpen[d]) / (cal.regClose[d] - cal.regOpen[d]);
    const state = engine.volState(owner.ticker);
    const lvl = surfaceLevel(state, d, frac, Math.log(spot / refSpot));
    const tYears = tenorDays / 365;
    const theta = atmTotalVariance({ ...lvl }, tYears) + eventVarianceBetween(state, asOfMs, asOfMs + tenorDays * 86_400_000);
    return Math.sqrt(theta / tYears);
  };
  const chainWindowSync = (symbol: string, atMs: number, select: ChainWindowSelect, options?: ChainOptions): ChainSnapshot | null =>
    chainAt(symbol, atMs, select, options);

  // Not memoised: a head is read once (a closing reading goes to the daily store); a board
  // already built is not reused either (its strike union is the whole board's).
  const chainHeadSync = (symbol: string, atMs: number, untilMs: number, options: ChainOptions = {}): ChainSnapshot | null => {
    const spec = engine.spec(symbol);
    if (!spec || !Number.isFinite(atMs)) return null;
    const at = boardMinute(atMs, options.extended === true);
    if (!at || at.d < firstSessionIndex(spec)) return null;
    const { d, asOfMs, k } = at;
    // Through an expiration unsettled at asOfMs: the head is empty only when the board is.
    const grid = buildSessionGrid(engine, spec, d, Math.max(untilMs, asOfMs + 1));
    if (grid.expirations.every((e) => e.settleMs <= asOfMs)) return null;
    const head = buildSessionBoard(engine, spec, d, grid);
    const snap = quoteBoard(head, asOfMs, priceAtBoundary(engine, spec, d, k), openOf(engine, spec, d), true);
    // The head's rows are the full board's first rows from the first live expiration on, in
    // order: its open interest (normalised over the whole board) and volume are the full
    // snapshot's first rows.
    const n = snap.right.length;
    const full = (name: "oi" | "volume") => () => chainAt(symbol, atMs, null, options)![name].slice(0, n);
    lazyColumn(snap, "oi", full("oi"));
    return lazyVolume(snap, full("volume"));
  };

  /** @see MarketData.contractMinuteQuotes: one session's minutes, priced row by row (no board). */
  const contractMinuteQuotesSync = (symbol: string, contracts: readonly ContractRef[], fromMs: number, toMs: number): ContractMinuteQuotes | null => {
    const spec = engine.spec(symbol);
    if (!spec || !Number.isFinite(fromMs) || !Number.isFinite(toMs)) return null;
    const at = boardMinute(toMs);
    if (!at || at.d < firstSessionIndex(spec)) return null;
    const { d } = at;
    const board = boards.get(`${symbol}|${d}`, () => buildSessionBoard(engine, spec, d));
    if (board.expirations.every((e) => e.settleMs <= at.asOfMs)) return null;
    const cal = simCalendar();
    const open = cal.regOpen[d];
    const kFrom = Math.max(0, Math.ceil((fromMs - open) / MINUTE_MS));
    const kTo = Math.round((at.asOfMs - open) / MINUTE_MS);
    const n = Math.max(0, kTo - kFrom + 1);
    const rows = contracts.map((c) => boardRowOf(board, c.expiration, c.strike, c.right === "C" ? 1 : 0));
    const t = new Float64Array(n);
    const bid = contracts.map(() => new Float64Array(n));
    const ask = contracts.map(() => new Float64Array(n));
    const b = new Float64Array(rows.length);
    const a = new Float64Array(rows.length);
    for (let j = 0; j < n; j++) {
      const asOfMs = open + (kFrom + j) * MINUTE_MS;
      const spot = priceAtBoundary(engine, spec, d, Math.round((asOfMs - cal.extOpen[d]) / MINUTE_MS));
      quoteBoardRows(board, asOfMs, spot, rows, b, a);
      t[j] = asOfMs;
      for (let i = 0; i < rows.length; i++) {
        bid[i][j] = b[i];
        ask[i][j] = a[i];
      }
    }
    return { t, bid, ask };
  };

  const spotSync = (symbol: string, atMs: number): number | null => {
    const spec = engine.spec(symbol);
    if (!spec || !Number.isFinite(atMs)) return null;
    return spotAt(engine, spec, Math.min(atMs, clock.now()));
  };

  const minuteBarsSync = (ticker: string, fromMs: number, toMs: number, opts: MinuteBarsOptions = {}): MinuteBars => {
    const extended = opts.extended === true;
    const spec = engine.spec(ticker);
    const endMs = Math.min(toMs, clock.now() - MINUTE_MS + 1);
    if (!spec || !(endMs > fromMs)) return emptyBars(ticker, extended);
    const cal = simCalendar();
    const first = firstSessionIndex(spec);
    const dFrom = Math.max(sessionIndexAtOrBefore(fromMs), first, 0);
    const dTo = sessionIndexAtOrBefore(endMs - 1);
    const parts: { bars: DayBars; from: number; to: number }[] = [];
    for (let d = dFrom; d <= dTo; d++) {
      const bars = dayBars.get(`${ticker}|${d}`, () => computeDayBars(engine, spec, d));
      const withExt = extended && spec.type !== "index";
      const lo = withExt ? 0 : bars.nPre;
      const hi = withExt ? bars.nPre + bars.nReg + bars.nPost : bars.nPre + bars.nReg;
      const from = Math.max(lo, Math.ceil((fromMs - cal.extOpen[d]) / MINUTE_MS));
      const to = Math.min(hi, Math.ceil((endMs - cal.extOpen[d]) / MINUTE_MS));
      if (to > from) parts.push({ bars, from, to });
    }
    return sliceBars(ticker, extended, parts);
  };

  const earningsSync = (ticker: string, fromDate: IsoDate, toDate: IsoDate): EarningsEvent[] => {
    const spec = engine.spec(ticker);
    return spec?.type === "stock" ? simulatedEarnings(seed, ticker, fromDate, toDate) : [];
  };

  // What the print generators read: boards quoted without the tape's volume (they never read it),
  // the same object for the same instant so a minute's prints reuse the board and its index.
  const printBoards = new Lru<string, ChainSnapshot | null>(8);
  const printContext: SimulatedMarketContext = {
    seed,
    clock,
    universeSync,
    symbolInfoSync,
    spotSync,
    minuteBarsSync,
    earningsSync,
    chainSync: (symbol, atMs) => printBoards.get(`${symbol}|${Math.min(atMs, clock.now())}`, () => chainAt(symbol, atMs, null, {}, false)),
    // The structure of the open's board, never quoted: a session's sizes cost no board.
    printGridSync: (symbol, openMs) => {
      const spec = engine.spec(symbol);
      const at = spec && Number.isFinite(openMs) ? boardMinute(openMs) : null;
      if (!spec || !at || at.d < firstSessionIndex(spec)) return null;
      const board = gridOf(symbol, spec, at.d);
      return board.expirations.every((e) => e.settleMs <= at.asOfMs) ? null : boardGrid(board, at.asOfMs);
    },
  };

  const market: SimulatedMarket = {
    simulated: true,
    clock,
    seed,
    universeSync,
    symbolInfoSync,
    chainSync,
    chainWindowSync,
    chainHeadSync,
    atmImpliedVolSync,
    spotSync,
    minuteBarsSync,
    earningsSync,
    universe: async () => universeSync(),
    symbolInfo: async (ticker) => symbolInfoSync(ticker),
    chain: async (symbol, atMs, options) => chainSync(symbol, atMs, options),
    spot: async (symbol, atMs) => spotSync(symbol, atMs),
    minuteBars: async (ticker, fromMs, toMs, opts) => minuteBarsSync(ticker, fromMs, toMs, opts),
    optionPrints: async (ticker, fromMs, toMs): Promise<OptionPrint[]> => simulatedOptionPrints(printContext, ticker, fromMs, toMs),
    offExchangePrints: async (tickers, fromMs, toMs): Promise<OffExchangePrint[]> => simulatedOffExchangePrints(market, tickers, fromMs, toMs),
    earnings: async (ticker, fromDate, toDate) => earningsSync(ticker, fromDate, toDate),
    contractMinuteQuotes: async (symbol, contracts, fromMs, toMs) => contractMinuteQuotesSync(symbol, contracts, fromMs, toMs),
    withClock: (other) => marketOn(memo, other).market,
  };
  return { market, printContext };
}
