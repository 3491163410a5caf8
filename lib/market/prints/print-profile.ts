/**
 * Activity profiles of the option-print generator: how busy a root is and how its orders split
 * between single prints, sweeps, multi-leg packages and blocks.
 * @see docs/methodology.md#activity-profiles
 */
import type { OptionExchange } from "./conditions";

/** Per-root parameters of the simulated option tape. */
export interface OptionPrintProfile {
  /** Mean number of orders (not prints) in a full regular session. */
  ordersPerDay: number;
  /** Share of orders on the session's own expiration when one is listed (0DTE; weekly roots on their expiry Friday too). */
  zeroDteShare: number;
  /** Probability that an order is on a call. */
  callShare: number;
  /** Probability that an order is an intermarket sweep (0 where only one exchange lists it). */
  sweepShare: number;
  /** Probability that an order is a multi-leg package. */
  multiLegShare: number;
  /** Probability that an order is a large block. */
  blockShare: number;
  /** Typical implied vol used to scale how far from spot orders land (decimal). */
  ivRef: number;
  /** Exchanges and their market shares (weights need not sum to 1). */
  exchanges: ReadonlyArray<readonly [OptionExchange, number]>;
  /** True for proprietary index products: floor conditions (`SLFT`, `CBMO`) appear. */
  proprietary: boolean;
  /**
   * How far aggressor sides lean with the day's move: per daily standard deviation of the
   * underlying's move since the open, the added probability of a bullish side. @see docs/methodology.md#sides-follow-the-day
   */
  directionTilt: number;
}

/** Cap of the day's lean on a side's probability (each way). @see docs/methodology.md#sides-follow-the-day */
export const DIRECTION_TILT_MAX = 0.25;

/** Sweep share of orders on single-listed (proprietary) products: book sweeps on the home exchange. @see docs/methodology.md#order-types */
const HOME_SWEEP_SHARE = 0.03;

/** Approximate 2024 shares of multi-listed equity option volume by exchange. */
export const MULTI_LISTED_EXCHANGES: ReadonlyArray<readonly [OptionExchange, number]> = [
  ["CBOE", 12],
  ["PHLX", 11],
  ["ISE", 6],
  ["ARCA", 9],
  ["AMEX", 8],
  ["MIAX", 6],
  ["MPRL", 5],
  ["EMLD", 3],
  ["SPHR", 2],
  ["NOM", 6],
  ["C2", 5],
  ["BOX", 4],
  ["EDGX", 6],
  ["GEMX", 3],
  ["MRX", 2],
  ["MEMX", 7],
  ["BX", 1],
];

const PROPRIETARY_HOME: Readonly<Record<string, OptionExchange>> = {
  SPX: "CBOE",
  SPXW: "CBOE",
  XSP: "CBOE",
  VIX: "CBOE",
  VIXW: "CBOE",
  RUT: "CBOE",
  RUTW: "CBOE",
  NDX: "PHLX",
  NDXP: "PHLX",
};

/** Roots with daily (0DTE) expirations get the large 0DTE share. */
const DAILY_EXPIRY_ROOTS = new Set(["SPXW", "XSP", "NDXP", "RUTW", "SPY", "QQQ", "IWM"]);

/** Orders per regular session for the busiest roots; everything else scales by type. */
const ORDERS_PER_DAY: Readonly<Record<string, number>> = {
  SPXW: 24_000,
  SPX: 2_500,
  SPY: 20_000,
  QQQ: 12_000,
  IWM: 6_000,
  NDXP: 2_500,
  NDX: 800,
  RUTW: 1_200,
  RUT: 400,
  XSP: 1_500,
  VIX: 3_000,
  VIXW: 800,
  TSLA: 14_000,
  NVDA: 14_000,
  AAPL: 10_000,
  AMZN: 7_000,
  META: 6_000,
  MSFT: 6_000,
  AMD: 6_000,
  GOOGL: 4_500,
  GOOG: 2_500,
  NFLX: 3_000,
  PLTR: 5_000,
  SMCI: 3_000,
  MSTR: 4_000,
  COIN: 3_000,
  HYG: 1_500,
  TLT: 3_000,
  GLD: 2_000,
  SLV: 2_000,
  XLF: 2_000,
  EEM: 1_500,
  FXI: 1_500,
  SMH: 1_500,
};

/** Default orders per day by instrument type when the root is not in the table. */
export const DEFAULT_ORDERS_PER_DAY = { index: 500, etf: 900, stock: 600 } as const;

/**
 * The profile of one option root.
 * @param root option root (`SPXW`, `SPY`, `AAPL`)
 * @param type the underlying's instrument type
 * @example
 * optionPrintProfile("SPXW", "index").zeroDteShare; // 0.55
 */
export function optionPrintProfile(root: string, type: "index" | "etf" | "stock"): OptionPrintProfile {
  const home = PROPRIETARY_HOME[root];
  const daily = DAILY_EXPIRY_ROOTS.has(root);
  return {
    ordersPerDay: ORDERS_PER_DAY[root] ?? DEFAULT_ORDERS_PER_DAY[type],
    zeroDteShare: !daily ? 0.25 : type === "index" ? 0.6 : 0.4,
    callShare: type === "index" ? 0.47 : type === "etf" ? 0.45 : 0.58,
    sweepShare: home ? HOME_SWEEP_SHARE : type === "stock" ? 0.07 : 0.05,
    multiLegShare: type === "index" ? 0.14 : 0.08,
    blockShare: 0.004,
    ivRef: type === "index" ? 0.16 : type === "etf" ? 0.2 : 0.38,
    exchanges: home ? [[home, 1]] : MULTI_LISTED_EXCHANGES,
    proprietary: home !== undefined,
    directionTilt: 0.3,
  };
}
