/**
 * The `MarketData` interface: everything the analytics read, from the simulator or from files.
 *
 * Conventions (docs/architecture.md): instants are ms since the epoch, ranges are half-open
 * `[fromMs, toMs)`, session dates are ET `YYYY-MM-DD`, rights are `"C"/"P"` in records and
 * `1`/`0` in columns, vols and rates are decimals.
 * @see docs/methodology.md#the-marketdata-interface
 */
import type { SymbolInfo } from "./schemas";
// Forward import: the prints engineer owns these record types (lib/market/prints/schemas.ts).
import type { EarningsEvent, OffExchangePrint, OptionPrint } from "./prints/schemas";

export type { SymbolInfo } from "./schemas";
export type { EarningsEvent, OffExchangePrint, OptionPrint } from "./prints/schemas";

/** ET session date `YYYY-MM-DD`. */
export type IsoDate = string;

/** A source of "now", in ms since the epoch (pinned or scaled in tests). */
export interface Clock {
  now(): number;
}

/**
 * An option chain at one instant, columnar (one row per contract, all columns of length `n`).
 *
 * `strikeIndex[i]` indexes `strikes`; `expIndex[i]` indexes `expirations`, `expirySettleMs`
 * and `expiryRoot`. Rows are sorted by expiration, then strike, then right (put before call).
 * @see docs/architecture.md#chain-snapshot-what-marketdatachain-returns
 */
export interface ChainSnapshot {
  /** The symbol asked for (an option root such as `SPXW`, or a ticker such as `SPY`). */
  symbol: string;
  /** The ticker whose price the contracts reference (`SPX` for `SPXW`). */
  underlying: string;
  /** The instant the board describes: a minute boundary within a regular session. */
  asOfMs: number;
  /** ET date of the session the board belongs to. */
  sessionDate: IsoDate;
  /** Underlying price at `asOfMs`. */
  spot: number;
  /** Continuous risk-free rate per year, decimal. */
  rate: number;
  /** Continuous dividend yield per year, decimal. */
  dividendYield: number;
  simulated: boolean;
  /** Sorted expiration dates present on the board. */
  expirations: IsoDate[];
  /** Settlement instant per expiration (09:30 ET for AM-settled, the close for PM-settled). */
  expirySettleMs: number[];
  /** Option root per expiration. */
  expiryRoot: string[];
  /** Sorted unique strikes across the board. */
  strikes: Float64Array;
  strikeIndex: Int32Array;
  expIndex: Int32Array;
  /** 1 call, 0 put. */
  right: Uint8Array;
  /** Open interest as of the session's start, contracts. */
  oi: Float64Array;
  bid: Float64Array;
  ask: Float64Array;
  last: Float64Array;
  /** Implied volatility, decimal. */
  iv: Float64Array;
  /** Contracts traded so far in the session (cumulative; non-decreasing within a session). */
  volume: Float64Array;
}

/** OHLCV columns, oldest first: `t[i]` is the start of bar i (ms); all columns share a length. */
export interface OhlcvColumns {
  t: Float64Array;
  o: Float64Array;
  h: Float64Array;
  l: Float64Array;
  c: Float64Array;
  v: Float64Array;
}

/** Volume split by aggressor, one value per bar (`bv + sv + uv = v`). */
export interface SidedVolumeColumns {
  /** Buyer-initiated volume. */
  bv: Float64Array;
  /** Seller-initiated volume. */
  sv: Float64Array;
  /** Unclassified volume (`bv + sv + uv = v`). */
  uv: Float64Array;
}

/** One-minute bars, columnar. `t[i]` is the start of bar i (ms); all columns share a length. */
export interface MinuteBars extends OhlcvColumns, SidedVolumeColumns {
  ticker: string;
  /** Whether pre- and post-market bars were asked for. */
  extended: boolean;
  simulated: boolean;
}

/** Options of `MarketData.chain`. */
export interface ChainOptions {
  /**
   * Boards in the extended session too (04:00-20:00 ET, 17:00 on early closes): the board at the
   * latest extended-session minute at or before `atMs`; default false (regular-session minutes only).
   * @see docs/methodology.md#extended-hours-boards
   */
  extended?: boolean;
}

/** One contract of a root's board, by expiration, strike and right. */
export interface ContractRef {
  expiration: IsoDate;
  strike: number;
  right: "C" | "P";
}

/** A few contracts' quotes at each board minute of one session, columnar. */
export interface ContractMinuteQuotes {
  /** Board instants (regular-session minute boundaries), ascending. */
  t: Float64Array;
  /** Per contract, in the order asked: bid and ask at each `t`; NaN where it is not on that board. */
  bid: Float64Array[];
  ask: Float64Array[];
}

/**
 * The part of a board `MarketData.chainWindow` returns: the nearest `maxExpirations` unsettled
 * expirations (settlement after `asOfMs`) and the strike rows `strikeWindow` picks.
 */
export interface ChainWindow {
  /** The nearest this many unsettled expirations, or all. */
  maxExpirations: number | "all";
  /**
   * The strike rows kept, a half-open range `[lo, hi)` into the board's ascending unique strikes,
   * given spot (for example `lib/positioning`'s `strikeWindow` with `maxStrikes`).
   */
  strikeWindow: (strikes: Float64Array, spot: number) => { lo: number; hi: number };
}

/** Options of `MarketData.minuteBars`. */
export interface MinuteBarsOptions {
  /** Add pre-market (04:00-09:30 ET) and post-market (16:00-20:00 ET) bars; default false. */
  extended?: boolean;
}

/**
 * Market data, simulated or real. Every method is async; none throws for an unknown symbol
 * (it answers `undefined`, `null` or empty). Nothing is returned for instants after `clock.now()`.
 * @see docs/methodology.md#the-marketdata-interface
 */
export interface MarketData {
  /** True for the embedded simulator; people reading its output must be told. */
  readonly simulated: boolean;
  /**
   * The simulator's seed (absent on other markets): another thread rebuilds the identical market
   * from it (`createSimulatedMarket({ seed })`), as the daily-statistics workers do.
   */
  readonly seed?: number;
  /**
   * Changes whenever answers already given may change (a file market's reload). Absent or
   * constant: what a method answered about a past instant stays its answer, so a board computed
   * from `chain` stays current for as long as its minute does (the server's live caches rely on it).
   */
  readonly revision?: number;
  readonly clock: Clock;
  /** Every symbol served, index/ETF tier first. */
  universe(): Promise<SymbolInfo[]>;
  symbolInfo(ticker: string): Promise<SymbolInfo | undefined>;
  /**
   * The board at the latest regular-session minute boundary at or before `atMs` (and not after
   * `clock.now()`). Between sessions this is the previous session's closing board (as of its
   * close; expirations settled at that instant have dropped out). `null` for an unknown symbol,
   * before the first session (2023-03-28 09:30 ET), or when no board exists. With
   * `{extended: true}` the minute is an extended-session one (04:00-20:00 ET) and, between
   * sessions, the board is the previous session's 20:00 (17:00) board.
   */
  chain(symbol: string, atMs: number, options?: ChainOptions): Promise<ChainSnapshot | null>;
  /** Last price at or before `atMs` (extended hours included for ETFs and stocks); null if none. */
  spot(symbol: string, atMs: number): Promise<number | null>;
  /** Bars whose start lies in `[fromMs, toMs)` and which have completed by `clock.now()`. */
  minuteBars(ticker: string, fromMs: number, toMs: number, options?: MinuteBarsOptions): Promise<MinuteBars>;
  /** Option trade prints of a ticker or root in `[fromMs, toMs)`, in time order. */
  optionPrints(ticker: string, fromMs: number, toMs: number): Promise<OptionPrint[]>;
  /** Off-exchange prints of the tickers (all when `null`) in `[fromMs, toMs)`, in time order. */
  offExchangePrints(tickers: readonly string[] | null, fromMs: number, toMs: number): Promise<OffExchangePrint[]>;
  /** Earnings releases with `fromDate <= date <= toDate`, in date order. */
  earnings(ticker: string, fromDate: IsoDate, toDate: IsoDate): Promise<EarningsEvent[]>;
  /**
   * Optional (a market that can price a few contracts without whole boards): the bid and ask of
   * `contracts` on every regular-session board of the session of `chain(symbol, toMs)` whose
   * instant lies in `[fromMs, that board's asOfMs]`, each value identical to that minute's
   * `chain` board. Null for an unknown symbol or when `chain` would be null. Markets without it
   * leave it out; callers then read `chain` per minute or do without.
   * @see docs/methodology.md#premium-low-and-cheap-from-low
   */
  contractMinuteQuotes?(symbol: string, contracts: readonly ContractRef[], fromMs: number, toMs: number): Promise<ContractMinuteQuotes | null>;
  /**
   * Optional (a market that can read part of a board for less than the whole, such as the store
   * of record): `chain(symbol, atMs, options)` with only the rows of `window` (its expirations
   * and strike rows). Everything else is the whole board's (`asOfMs`, `spot`, every expiration
   * and strike), and each kept row's `strikeIndex`, `expIndex`, `right`, `oi`, `iv`, `bid` and
   * `ask` equal the whole board's, in the board's order, so an exposure grid over that window is
   * identical to one over `chain`; `last` and `volume` may be NaN. Callers that need only a window
   * of every minute (daily statistics) use it when present, `chain` otherwise.
   * @see docs/architecture.md#windowed-boards
   */
  chainWindow?(symbol: string, atMs: number, window: ChainWindow, options?: ChainOptions): Promise<ChainSnapshot | null>;
}

// --- the seam between the simulator (lib/market/simulated) and the print generators ---

/**
 * What the simulator hands to the print generators in `lib/market/prints/`: synchronous,
 * deterministic views of the same simulated market. Consistency contract: a contract's prints
 * in a minute should sum to the increase of its `volume` column between the chain snapshots
 * at the minute's start and end (`chainSync(root, m)` and `chainSync(root, m + 60_000)`).
 */
export interface SimulatedMarketContext {
  readonly seed: number;
  readonly clock: Clock;
  universeSync(): SymbolInfo[];
  symbolInfoSync(ticker: string): SymbolInfo | undefined;
  chainSync(symbol: string, atMs: number, options?: ChainOptions): ChainSnapshot | null;
  spotSync(symbol: string, atMs: number): number | null;
  minuteBarsSync(ticker: string, fromMs: number, toMs: number, options?: MinuteBarsOptions): MinuteBars;
  earningsSync(ticker: string, fromDate: IsoDate, toDate: IsoDate): EarningsEvent[];
  /**
   * The contract grid orders are drawn on for the session opening at `openMs`: the structure of
   * `chainSync(symbol, openMs)` (expirations, strikes, rights, rows), without quotes. Optional:
   * the generators use `chainSync(symbol, openMs)` itself when absent.
   * @see docs/methodology.md#option-prints
   */
  printGridSync?(symbol: string, openMs: number): PrintGrid | null;
}

/** A board's contract structure without quotes (what the option order stream draws on). */
export type PrintGrid = Pick<
  ChainSnapshot,
  "underlying" | "sessionDate" | "expirations" | "expirySettleMs" | "expiryRoot" | "strikes" | "strikeIndex" | "expIndex" | "right"
>;

/**
 * Simulated earnings calendar (pure in its arguments; no market access, because the spot paths
 * read it for earnings gaps). Exported by `lib/market/prints` as `simulatedEarnings`.
 * Called only for `type: "stock"` symbols; returns events with `fromDate <= date <= toDate`.
 */
export type SimulatedEarningsFn = (seed: number, ticker: string, fromDate: IsoDate, toDate: IsoDate) => EarningsEvent[];

/** Simulated option prints; exported by `lib/market/prints` as `simulatedOptionPrints`. */
export type SimulatedOptionPrintsFn = (ctx: SimulatedMarketContext, ticker: string, fromMs: number, toMs: number) => OptionPrint[];

/** Simulated off-exchange prints; exported by `lib/market/prints` as `simulatedOffExchangePrints`. */
export type SimulatedOffExchangePrintsFn = (ctx: SimulatedMarketContext, tickers: readonly string[] | null, fromMs: number, toMs: number) => OffExchangePrint[];
