/**
 * The UDF symbol-info record (`/v1/symbols`), the listing venue shown in the symbol picker, and the
 * `/v1/config` datafeed configuration.
 * @see docs/methodology.md#symbol-info-and-search
 */
import type { SymbolInfo } from "../market/schemas";
import { INTRADAY_MULTIPLIERS, RESOLUTIONS, maxFetchTradingDays, type Resolution } from "./resolution";

/** A UDF `LibrarySymbolInfo` (the fields of the spec's "Symbol info", plus `simulated`). */
export interface UdfSymbolInfo {
  ticker: string;
  name: string;
  description: string;
  type: "index" | "etf" | "stock";
  session: string;
  timezone: string;
  exchange: string;
  listed_exchange: string;
  minmov: number;
  pricescale: number;
  has_intraday: boolean;
  has_daily: boolean;
  has_weekly_and_monthly: boolean;
  /** Bars are built from one-minute bars: no seconds and no tick charts (docs/methodology.md#symbol-info-and-search). */
  has_seconds: false;
  seconds_multipliers: string[];
  has_ticks: false;
  intraday_multipliers: string[];
  supported_resolutions: Resolution[];
  volume_precision: number;
  /** `simulated` for the embedded simulator (never passed off as a live feed), else `streaming`. */
  data_status: string;
  format: "price";
  simulated: boolean;
}

/** Label appended to names of simulated symbols wherever a person reads them. */
export const SIMULATED_LABEL = "simulated market data";

// Listing venues of the ETFs and stocks that are not on NYSE Arca / NYSE: display labels only.
const NASDAQ_LISTED: ReadonlySet<string> = new Set([
  "QQQ",
  "TQQQ",
  "SQQQ",
  "SOXX",
  "IBIT",
  "AAPL",
  "MSFT",
  "NVDA",
  "AMZN",
  "GOOGL",
  "META",
  "TSLA",
  "AMD",
  "NFLX",
  "AVGO",
  "INTC",
  "QCOM",
  "MU",
  "TXN",
  "AMAT",
  "SMCI",
  "ADBE",
  "CSCO",
  "PLTR",
  "CRWD",
  "PANW",
  "MSTR",
  "COIN",
  "HOOD",
  "SOFI",
  "PYPL",
  "MRNA",
  "COST",
  "PEP",
  "SBUX",
  "ABNB",
  "RIVN",
  "PDD",
  "CMCSA",
  "DKNG",
  "MARA",
]);

/**
 * The exchange label of a symbol: `CBOE` for indices (their options list there), `NASDAQ` for the
 * Nasdaq-listed names above, `ARCA` for other ETFs, `NYSE` for other stocks.
 * @example exchangeOf({ ticker: "SPY", type: "etf" }) // "ARCA"
 */
export function exchangeOf(info: Pick<SymbolInfo, "ticker" | "type">): string {
  if (info.type === "index") return "CBOE";
  if (NASDAQ_LISTED.has(info.ticker)) return "NASDAQ";
  return info.type === "etf" ? "ARCA" : "NYSE";
}

/** The name a person reads: the symbol's name, labelled when the data is simulated. */
export function displayDescription(info: Pick<SymbolInfo, "name" | "simulated">): string {
  return info.simulated ? `${info.name} (${SIMULATED_LABEL})` : info.name;
}

/**
 * The UDF symbol info of a symbol: regular session `0930-1600` New York time, prices in cents
 * (`pricescale` 100), every resolution, labelled `data_status: "simulated"` for simulated data.
 * @example udfSymbolInfo(spyInfo).supported_resolutions.length // 11
 * @see docs/methodology.md#symbol-info-and-search
 */
export function udfSymbolInfo(info: SymbolInfo): UdfSymbolInfo {
  const exchange = exchangeOf(info);
  return {
    ticker: info.ticker,
    name: info.ticker,
    description: displayDescription(info),
    type: info.type,
    session: "0930-1600",
    timezone: "America/New_York",
    exchange,
    listed_exchange: exchange,
    minmov: 1,
    pricescale: 100,
    has_intraday: true,
    has_daily: true,
    has_weekly_and_monthly: true,
    has_seconds: false,
    seconds_multipliers: [],
    has_ticks: false,
    intraday_multipliers: [...INTRADAY_MULTIPLIERS],
    supported_resolutions: [...RESOLUTIONS],
    volume_precision: 0,
    data_status: info.simulated ? "simulated" : "streaming",
    format: "price",
    simulated: info.simulated,
  };
}

/** The UDF datafeed configuration (`/v1/config`). */
export interface DatafeedConfig {
  supports_search: boolean;
  supports_group_request: boolean;
  supports_marks: boolean;
  supports_timescale_marks: boolean;
  supports_time: boolean;
  supported_resolutions: Resolution[];
  max_fetch_trading_days: Record<Resolution, number>;
  intraday_multipliers: string[];
  exchanges: { value: string; name: string; desc: string }[];
  symbols_types: { name: string; value: string }[];
  simulated: boolean;
}

/**
 * The datafeed configuration: search and server time supported, every resolution with its
 * trading-day cap (the same numbers `planHistory` enforces), exchanges and symbol types.
 * @example datafeedConfig(true).max_fetch_trading_days.D // 2600
 */
export function datafeedConfig(simulated: boolean): DatafeedConfig {
  return {
    supports_search: true,
    supports_group_request: false,
    supports_marks: true,
    supports_timescale_marks: true,
    supports_time: true,
    supported_resolutions: [...RESOLUTIONS],
    max_fetch_trading_days: maxFetchTradingDays(),
    intraday_multipliers: [...INTRADAY_MULTIPLIERS],
    exchanges: [
      { value: "", name: "All exchanges", desc: "" },
      { value: "NASDAQ", name: "NASDAQ", desc: "NASDAQ" },
      { value: "NYSE", name: "NYSE", desc: "NYSE" },
      { value: "ARCA", name: "NYSE ARCA", desc: "NYSE ARCA" },
      { value: "CBOE", name: "CBOE", desc: "Cboe (indices)" },
    ],
    symbols_types: [
      { name: "All types", value: "" },
      { name: "stock", value: "stock" },
      { name: "etf", value: "etf" },
      { name: "index", value: "index" },
    ],
    simulated,
  };
}
