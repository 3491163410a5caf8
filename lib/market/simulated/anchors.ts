/**
 * Real closes the simulated paths pass through: the S&P 500's (and, on the shock days, its opens),
 * index points as published by S&P Dow Jones Indices; and every other path owner's at the quarter
 * ends (`NAME_ANCHORS`, each row naming its source). Between anchors a path is a Brownian bridge
 * (random, pinned at both ends; for names, on the part their factor does not explain); after the
 * last anchor it runs free.
 * @see docs/methodology.md#level-anchors
 */

/** One anchor: the session date, its official close and, where the open mattered, its open. */
export interface LevelAnchor {
  date: string;
  close: number;
  open?: number;
  /**
   * Move of ln implied vol on the day beyond what the spot move explains (a volatility shock:
   * the VIX rose from 23.39 to 38.57 on 2024-08-05 on a 3% fall).
   */
  volShock?: number;
  /**
   * Annualised realized vol of the ordinary sessions since the previous anchor carrying one (the
   * quarter's regime, its anchored shock days aside): the conditional variance reverts to it.
   */
  rv?: number;
}

/**
 * SPX anchors: quarter and month ends, turning points (the October 2023 low, the July 2024 high,
 * the August 2024 unwind, the February 2025 high, the March 2025 correction low), both closes of
 * every day the index moved more than 2%, and every session of the April 2025 tariff shock; the
 * quarter ends carry the quarter's regime vol `rv`. Sources in docs/methodology.md#level-anchors.
 */
export const SPX_ANCHORS: readonly LevelAnchor[] = Object.freeze<LevelAnchor[]>([
  { date: "2023-03-31", close: 4109.31 },
  { date: "2023-05-31", close: 4179.83 },
  { date: "2023-06-30", close: 4450.38, rv: 0.11 },
  { date: "2023-07-31", close: 4588.96 },
  { date: "2023-09-29", close: 4288.05, rv: 0.11 },
  { date: "2023-10-27", close: 4117.37 },
  { date: "2023-12-29", close: 4769.83, rv: 0.125 },
  { date: "2024-01-31", close: 4845.65 },
  { date: "2024-03-28", close: 5254.35, rv: 0.1 },
  { date: "2024-04-19", close: 4967.23 },
  { date: "2024-06-28", close: 5460.48, rv: 0.1 },
  { date: "2024-07-16", close: 5667.2 },
  { date: "2024-07-17", close: 5588.27 },
  { date: "2024-07-23", close: 5555.74 },
  { date: "2024-07-24", close: 5427.13 },
  { date: "2024-08-01", close: 5446.68 },
  { date: "2024-08-02", close: 5346.56 },
  { date: "2024-08-05", close: 5186.33, open: 5151.14, volShock: 0.6 },
  { date: "2024-08-07", close: 5199.5 },
  { date: "2024-08-08", close: 5319.31 },
  { date: "2024-08-15", close: 5543.22 },
  { date: "2024-08-16", close: 5554.25 },
  { date: "2024-08-19", close: 5608.25 },
  { date: "2024-08-23", close: 5634.61 },
  { date: "2024-08-28", close: 5592.18 },
  { date: "2024-08-30", close: 5648.4 },
  { date: "2024-09-03", close: 5528.93 },
  { date: "2024-09-30", close: 5762.48, rv: 0.13 },
  { date: "2024-10-31", close: 5705.45 },
  { date: "2024-11-05", close: 5782.76 },
  { date: "2024-11-06", close: 5929.04 },
  { date: "2024-12-17", close: 6050.61 },
  { date: "2024-12-18", close: 5872.16 },
  { date: "2024-12-20", close: 5930.85 },
  { date: "2024-12-23", close: 5974.07 },
  { date: "2024-12-24", close: 6040.04 },
  { date: "2024-12-31", close: 5881.63, rv: 0.115 },
  { date: "2025-01-31", close: 6040.53 },
  { date: "2025-02-19", close: 6144.15 },
  { date: "2025-03-06", close: 5738.52 },
  { date: "2025-03-07", close: 5770.2 },
  { date: "2025-03-10", close: 5614.56 },
  { date: "2025-03-13", close: 5521.52 },
  { date: "2025-03-14", close: 5638.94 },
  { date: "2025-03-21", close: 5667.56 },
  { date: "2025-03-24", close: 5767.57 },
  { date: "2025-03-28", close: 5580.94 },
  { date: "2025-03-31", close: 5611.85, rv: 0.13 },
  { date: "2025-04-02", close: 5670.97 },
  { date: "2025-04-03", close: 5396.52, open: 5492.74 },
  { date: "2025-04-04", close: 5074.08, open: 5292.14 },
  { date: "2025-04-07", close: 5062.25, open: 4953.79 },
  { date: "2025-04-08", close: 4982.77, open: 5193.57 },
  { date: "2025-04-09", close: 5456.9, open: 4965.28 },
  { date: "2025-04-10", close: 5268.05, open: 5353.15 },
  { date: "2025-04-11", close: 5363.36 },
  { date: "2025-04-15", close: 5396.63 },
  { date: "2025-04-16", close: 5275.7 },
  { date: "2025-04-17", close: 5282.7 },
  { date: "2025-04-21", close: 5158.2 },
  { date: "2025-04-22", close: 5287.76 },
  { date: "2025-04-23", close: 5375.86 },
  { date: "2025-04-24", close: 5484.77 },
  { date: "2025-04-30", close: 5569.06 },
  { date: "2025-05-09", close: 5659.91 },
  { date: "2025-05-12", close: 5844.19 },
  { date: "2025-06-13", close: 5976.97 },
  { date: "2025-06-30", close: 6204.95, rv: 0.17 },
  { date: "2025-08-29", close: 6460.26 },
  { date: "2025-09-30", close: 6688.46, rv: 0.085 },
  { date: "2025-10-09", close: 6735.11 },
  { date: "2025-10-10", close: 6552.51 },
  { date: "2025-10-29", close: 6890.59 },
  { date: "2025-10-30", close: 6822.34 },
  { date: "2025-10-31", close: 6840.2, rv: 0.12 },
]);

/** Quarter ends of the served window and its last session: the dates every name is anchored at. */
const NAME_ANCHOR_DATES: readonly string[] = Object.freeze([
  "2023-03-31",
  "2023-06-30",
  "2023-09-29",
  "2023-12-29",
  "2024-03-28",
  "2024-06-28",
  "2024-09-30",
  "2024-12-31",
  "2025-03-31",
  "2025-06-30",
  "2025-09-30",
  "2025-10-31",
]);

/** Where a name's closes come from (each row of `NAME_ANCHORS` names one). */
const STOCK_SOURCE = "Nasdaq/NYSE daily close (Yahoo Finance history), split-adjusted, rounded";
const ETF_SOURCE = "NYSE Arca/Nasdaq daily close (Yahoo Finance history), split-adjusted, rounded";
const IBIT_SOURCE = "Nasdaq daily close from its 2024-01-11 launch; before it Coinbase BTC-USD close x 0.000568 (bitcoin per IBIT share), rounded";

/** One name's anchors: its source and its close at each of `NAME_ANCHOR_DATES`. */
export interface NameAnchors {
  source: string;
  closes: readonly number[];
  /** Closes on other dates (2025-06-13 for the names of issue 35's table). */
  extra?: readonly LevelAnchor[];
}

/**
 * Real closes of every path owner but SPX at `NAME_ANCHOR_DATES`, in the units the universe
 * quotes (split-adjusted to the share count of the window's end: NVDA 10:1 and AVGO 10:1 of
 * June/July 2024, SMCI 10:1 and MSTR 10:1 of 2024, WMT 3:1 and PANW 2:1 of 2024, SOXX 3:1 of
 * March 2024, SMH 2:1 of May 2023; NFLX's 10:1 of November 2025 is after the window). Figures are
 * rounded public closes recalled without a live feed: within about 1% for the large names, a few
 * percent for thinly followed ETFs. Not anchored (named exceptions, they follow their factor
 * through their beta): the leveraged and inverse ETFs (TQQQ, SQQQ, SOXL), the VIX-futures products
 * (UVXY, VXX) and the futures funds with reverse splits and roll losses (UNG, BITO), and the
 * family members (SPY, VOO, IVV, XSP, QQQ, IWM), which trade at a fixed ratio to their anchored head.
 * @see docs/methodology.md#level-anchors, docs/data.md#level-anchors-by-name
 */
export const NAME_ANCHORS: Readonly<Record<string, NameAnchors>> = Object.freeze<Record<string, NameAnchors>>({
  NDX: {
    source: "Nasdaq-100 official close (Nasdaq)",
    closes: [13181.35, 15179.21, 14715.24, 16825.93, 18254.69, 19682.87, 20060.69, 21012.17, 19278.45, 22679.01, 24679.99, 25858.13],
  },
  RUT: {
    source: "Russell 2000 official close (FTSE Russell)",
    closes: [1802.48, 1888.73, 1785.1, 2027.07, 2124.55, 2047.69, 2229.97, 2230.16, 2011.91, 2175.04, 2436.48, 2479.38],
    extra: [{ date: "2025-06-13", close: 2095.0 }],
  },
  DIA: { source: ETF_SOURCE, closes: [332.96, 343.85, 334.99, 376.87, 398.22, 391.13, 421.72, 422.81, 417.21, 440.23, 466.5, 476] },
  VTI: { source: ETF_SOURCE, closes: [204.18, 220.28, 212.41, 237.22, 259.9, 267.51, 283.16, 290.34, 274.84, 303.93, 328.17, 335] },
  XLF: { source: ETF_SOURCE, closes: [32.15, 33.71, 33.17, 37.6, 42.12, 41.11, 45.32, 48.33, 49.8, 52.37, 53.87, 53] },
  XLK: { source: ETF_SOURCE, closes: [151.01, 173.86, 163.93, 192.48, 208.27, 226.23, 225.76, 232.52, 206.48, 253.23, 281.86, 305] },
  XLE: { source: ETF_SOURCE, closes: [82.83, 81.17, 90.39, 83.84, 94.41, 91.15, 87.81, 85.66, 93.45, 84.79, 89.33, 87] },
  XLV: { source: ETF_SOURCE, closes: [129.46, 132.71, 128.74, 136.38, 147.73, 145.75, 153.9, 137.57, 146.06, 134.79, 139.21, 140] },
  XLI: { source: ETF_SOURCE, closes: [101.2, 107.32, 101.38, 113.99, 125.96, 121.8, 135.55, 131.77, 131.19, 147.77, 154.05, 153] },
  XLY: { source: ETF_SOURCE, closes: [149.3, 169.75, 160.98, 178.81, 183.89, 182.42, 200.77, 224.35, 197.66, 217.37, 240, 240] },
  XLP: { source: ETF_SOURCE, closes: [74.65, 74.15, 68.71, 72.06, 76.37, 76.52, 83.56, 78.62, 81.5, 81, 77, 78] },
  XLU: { source: ETF_SOURCE, closes: [67.69, 65.44, 58.91, 63.32, 65.65, 68.1, 80.8, 75.7, 78.9, 81.7, 87.3, 89] },
  XLB: { source: ETF_SOURCE, closes: [80.57, 82.75, 78.54, 85.55, 92.61, 88.37, 96.3, 84.1, 85.6, 87.8, 89.8, 87] },
  XLRE: { source: ETF_SOURCE, closes: [37.34, 37.73, 34.13, 40.05, 39.5, 39.6, 44.83, 41.1, 42.05, 41.6, 42.5, 41.5] },
  XLC: { source: ETF_SOURCE, closes: [59.3, 65.1, 65.6, 72.7, 81.7, 85.7, 90.5, 96.8, 96.7, 108.5, 118.3, 118] },
  GLD: {
    source: ETF_SOURCE,
    closes: [183.22, 178.27, 171.45, 191.17, 205.72, 215.01, 243.06, 242.13, 288.14, 304.83, 355.47, 368.12],
    extra: [{ date: "2025-06-13", close: 316.0 }],
  },
  SLV: { source: ETF_SOURCE, closes: [21.9, 20.9, 20.4, 21.8, 22.7, 26.6, 28.6, 26.3, 30.8, 32.9, 42.4, 43.6] },
  TLT: { source: ETF_SOURCE, closes: [106, 102.9, 88.7, 98.9, 94.6, 91.4, 98.1, 87.3, 91.1, 88.3, 89.4, 90.7] },
  IEF: { source: ETF_SOURCE, closes: [99, 96.1, 91.1, 96.5, 94.3, 93, 98.1, 92.6, 95.2, 95.3, 96.7, 97.3] },
  HYG: { source: ETF_SOURCE, closes: [75.9, 74.8, 73.3, 77.4, 77.4, 77, 80.1, 78.6, 78.8, 80.5, 81, 80.8] },
  LQD: { source: ETF_SOURCE, closes: [109.4, 108.1, 102, 110.6, 108.5, 106.9, 112.5, 105.4, 107.7, 109.1, 111, 111.5] },
  EEM: { source: ETF_SOURCE, closes: [39.5, 39.6, 37.9, 40.2, 41.1, 42.6, 45.9, 41.8, 43.7, 48.2, 53.4, 54.8] },
  EFA: { source: ETF_SOURCE, closes: [71.5, 72.5, 68.9, 75.3, 79.9, 78.3, 83.6, 75.6, 81.7, 89.4, 93.4, 94.6] },
  FXI: { source: ETF_SOURCE, closes: [27.7, 26.4, 25.6, 23, 24, 24.4, 34, 30.3, 36.4, 37.4, 42.5, 41.3] },
  EWZ: { source: ETF_SOURCE, closes: [26.7, 33.4, 31, 35, 33.1, 29.5, 29.9, 22.8, 26.1, 28.6, 30.9, 31.6] },
  EWJ: { source: ETF_SOURCE, closes: [58.5, 63.9, 62.3, 64.1, 71.4, 68.2, 71.7, 67.3, 69.2, 76.6, 81.4, 82] },
  KWEB: { source: ETF_SOURCE, closes: [30.3, 27.4, 27.6, 24.6, 24.9, 26.3, 34.6, 29.4, 35.4, 33.8, 41, 39] },
  GDX: { source: ETF_SOURCE, closes: [33.8, 30.3, 26.9, 31, 33.5, 33.9, 39.8, 33.9, 46, 52.1, 77.5, 73] },
  GDXJ: { source: ETF_SOURCE, closes: [40.8, 36.1, 32.9, 38, 40.6, 42, 50, 43.4, 58.7, 71.4, 101, 96] },
  USO: { source: ETF_SOURCE, closes: [67.7, 64.7, 82.5, 67.6, 78, 79, 71.4, 76.9, 77, 77, 72, 71] },
  XOP: { source: ETF_SOURCE, closes: [127.6, 134, 151, 135, 155, 141, 137, 127.6, 133, 124, 130, 127] },
  OIH: { source: ETF_SOURCE, closes: [285, 302, 351, 312, 331, 314, 285, 262, 267, 230, 252, 260] },
  XME: { source: ETF_SOURCE, closes: [50, 51, 53, 60, 58, 58, 62, 58, 57, 68, 95, 100] },
  SMH: { source: ETF_SOURCE, closes: [127, 154, 148.7, 174, 224.5, 264.7, 246, 241, 210, 277, 327, 370] },
  SOXX: { source: ETF_SOURCE, closes: [148, 175, 167, 203, 227, 252, 226, 215, 182, 237, 270, 305] },
  ARKK: { source: ETF_SOURCE, closes: [38, 46.6, 39.9, 52.4, 49.5, 45, 51.6, 56.8, 47.2, 70.5, 84, 84] },
  KRE: { source: ETF_SOURCE, closes: [40.5, 40.8, 42.1, 52.4, 50.6, 47.4, 58.3, 57.5, 56.3, 59, 63, 59] },
  XBI: { source: ETF_SOURCE, closes: [83.4, 83, 73.7, 89.2, 94.6, 92.7, 98.9, 90.4, 82.2, 83, 99, 108] },
  XRT: { source: ETF_SOURCE, closes: [61, 64, 60, 70, 75, 74, 79, 79, 70, 80, 86, 84] },
  XHB: { source: ETF_SOURCE, closes: [70, 83, 75, 95, 103, 95, 123, 101, 93, 99, 112, 106] },
  ITB: { source: ETF_SOURCE, closes: [80.7, 97, 85, 108.6, 115, 102, 125.6, 104, 95, 99, 109, 101] },
  IYR: { source: ETF_SOURCE, closes: [85.6, 85.3, 77.9, 91.4, 90, 89, 104, 93, 96, 95, 97, 96] },
  VNQ: { source: ETF_SOURCE, closes: [83.1, 83.6, 75.7, 88.4, 86.5, 83.8, 97.8, 89.1, 90.6, 89.1, 91.5, 90] },
  JETS: { source: ETF_SOURCE, closes: [18.2, 20.2, 16.6, 19.3, 19.6, 17.8, 19.8, 26.5, 20, 24, 26, 25] },
  TAN: { source: ETF_SOURCE, closes: [73, 72, 52, 51, 41, 39, 42, 33, 30, 35, 43, 46] },
  IBIT: { source: IBIT_SOURCE, closes: [16.2, 17.3, 15.3, 23.9, 40.3, 34.9, 35.4, 53, 46.9, 61.2, 64.8, 62.2] },
  AAPL: {
    source: STOCK_SOURCE,
    closes: [164.9, 193.97, 171.21, 192.53, 171.48, 210.62, 233, 250.42, 222.13, 205.17, 254.63, 270.37],
    extra: [{ date: "2025-06-13", close: 196.45 }],
  },
  MSFT: {
    source: STOCK_SOURCE,
    closes: [288.3, 340.54, 315.75, 376.04, 420.72, 446.95, 430.3, 421.5, 375.39, 497.41, 517.95, 517.81],
    extra: [{ date: "2025-06-13", close: 474.96 }],
  },
  NVDA: {
    source: STOCK_SOURCE,
    closes: [27.78, 42.3, 43.5, 49.52, 90.36, 123.54, 121.44, 134.29, 108.38, 157.99, 186.58, 202.49],
    extra: [{ date: "2025-06-13", close: 141.97 }],
  },
  AMZN: { source: STOCK_SOURCE, closes: [103.29, 130.36, 127.12, 151.94, 180.38, 193.25, 186.33, 219.39, 190.26, 219.39, 219.57, 244.22] },
  GOOGL: { source: STOCK_SOURCE, closes: [103.73, 119.7, 130.86, 139.69, 150.93, 182.15, 165.85, 189.3, 154.64, 176.23, 243.1, 281.19] },
  META: { source: STOCK_SOURCE, closes: [211.94, 286.98, 300.21, 353.96, 485.58, 504.22, 572.44, 585.51, 576.36, 738.09, 734.38, 648.35] },
  TSLA: { source: STOCK_SOURCE, closes: [207.46, 261.77, 250.22, 248.48, 175.79, 197.88, 261.63, 403.84, 259.16, 317.66, 444.72, 456.56] },
  AMD: { source: STOCK_SOURCE, closes: [98.01, 113.91, 102.82, 147.41, 180.49, 162.21, 164.08, 120.79, 102.74, 141.9, 161.79, 256.12] },
  NFLX: { source: STOCK_SOURCE, closes: [345.48, 440.49, 377.6, 486.88, 607.33, 674.88, 709.27, 891.32, 932.53, 1339.13, 1198.92, 1109] },
  AVGO: { source: STOCK_SOURCE, closes: [64.15, 86.74, 83.06, 111.62, 132.54, 160.55, 172.5, 231.84, 167.43, 275.65, 329.91, 369.63] },
  INTC: { source: STOCK_SOURCE, closes: [32.67, 33.44, 35.55, 50.25, 44.17, 30.97, 23.46, 20.05, 22.71, 22.4, 33.55, 39.99] },
  QCOM: { source: STOCK_SOURCE, closes: [127.58, 119.04, 111.06, 144.63, 169.3, 199.18, 170.05, 153.62, 153.61, 159.26, 166.36, 181] },
  MU: { source: STOCK_SOURCE, closes: [60.34, 63.11, 68.03, 85.34, 117.89, 131.53, 103.71, 84.16, 86.89, 123.25, 167.32, 224] },
  TXN: { source: STOCK_SOURCE, closes: [186.01, 180.02, 159.01, 170.46, 174.21, 194.53, 206.57, 187.51, 179.7, 207.62, 183.73, 161.5] },
  AMAT: { source: STOCK_SOURCE, closes: [122.83, 144.54, 138.45, 162.07, 206.23, 235.99, 202.05, 162.63, 145.12, 183.07, 204.74, 233] },
  SMCI: { source: STOCK_SOURCE, closes: [10.65, 24.93, 27.42, 28.43, 101, 81.94, 41.64, 30.48, 34.24, 49.01, 47.94, 45] },
  ORCL: { source: STOCK_SOURCE, closes: [92.92, 119.09, 105.92, 105.43, 125.61, 141.2, 170.4, 166.64, 139.81, 218.63, 281.24, 257] },
  CRM: { source: STOCK_SOURCE, closes: [199.78, 211.26, 202.78, 263.14, 301.18, 257.1, 273.71, 334.33, 268.36, 272.69, 237, 260] },
  ADBE: { source: STOCK_SOURCE, closes: [385.37, 488.99, 509.9, 596.6, 504.6, 555.54, 517.78, 444.68, 383.53, 386.88, 352.75, 340] },
  NOW: { source: STOCK_SOURCE, closes: [464.72, 561.97, 558.96, 706.49, 762.4, 786.67, 894.39, 1060.12, 796.14, 1028.08, 920.28, 919] },
  CSCO: { source: STOCK_SOURCE, closes: [52.27, 51.74, 53.76, 50.52, 49.91, 47.51, 53.22, 59.2, 61.71, 69.38, 68.42, 73] },
  IBM: { source: STOCK_SOURCE, closes: [131.09, 133.81, 140.3, 163.55, 190.96, 172.95, 221.08, 219.83, 248.66, 294.78, 282.16, 307] },
  PLTR: {
    source: STOCK_SOURCE,
    closes: [8.45, 15.33, 16, 17.17, 23.01, 25.33, 37.2, 75.63, 84.4, 136.32, 182.42, 200.47],
    extra: [{ date: "2025-06-13", close: 137.4 }],
  },
  SNOW: { source: STOCK_SOURCE, closes: [154.29, 175.98, 152.77, 199, 161.6, 135.09, 114.86, 154.41, 146.16, 223.77, 225.55, 275] },
  CRWD: { source: STOCK_SOURCE, closes: [137.26, 146.87, 167.38, 255.32, 320.59, 383.19, 280.47, 342.16, 352.58, 509.31, 490.38, 543] },
  PANW: { source: STOCK_SOURCE, closes: [99.87, 127.75, 117.22, 147.44, 142.07, 169.5, 170.91, 181.96, 170.64, 204.64, 203.62, 220] },
  SHOP: { source: STOCK_SOURCE, closes: [47.94, 64.6, 54.57, 77.9, 77.17, 66.05, 80.14, 106.33, 95.48, 115.35, 148.61, 174] },
  MSTR: { source: STOCK_SOURCE, closes: [29.23, 34.24, 32.83, 63.16, 170.46, 137.75, 168.6, 289.62, 288.27, 404.23, 322.21, 266] },
  COIN: { source: STOCK_SOURCE, closes: [67.57, 71.55, 75.06, 173.92, 265.12, 222.23, 178.17, 248.3, 172.23, 350.49, 337.49, 337] },
  HOOD: { source: STOCK_SOURCE, closes: [9.7, 9.98, 9.81, 12.74, 20.13, 22.84, 23.42, 37.26, 41.62, 93.63, 143.18, 146] },
  SOFI: { source: STOCK_SOURCE, closes: [6.07, 8.34, 7.99, 9.95, 7.3, 6.61, 7.86, 15.4, 11.63, 18.21, 26.42, 29] },
  PYPL: { source: STOCK_SOURCE, closes: [75.94, 66.73, 58.46, 61.41, 66.99, 58.03, 78.03, 85.35, 65.25, 74.32, 67.06, 69] },
  JPM: {
    source: STOCK_SOURCE,
    closes: [130.31, 145.44, 145.02, 170.1, 200.3, 202.26, 210.86, 239.71, 245.3, 289.91, 315.43, 311],
    extra: [{ date: "2025-06-13", close: 265.0 }],
  },
  BAC: { source: STOCK_SOURCE, closes: [28.6, 28.69, 27.38, 33.67, 37.92, 39.77, 39.68, 43.95, 41.73, 47.32, 51.59, 53] },
  WFC: { source: STOCK_SOURCE, closes: [37.38, 42.68, 40.86, 49.22, 57.96, 59.39, 56.49, 70.24, 71.79, 80.12, 83.82, 86] },
  C: { source: STOCK_SOURCE, closes: [46.89, 46.04, 41.13, 51.44, 63.24, 63.46, 62.6, 70.39, 70.99, 85.12, 101.5, 101] },
  GS: { source: STOCK_SOURCE, closes: [327.11, 322.54, 323.57, 385.77, 417.69, 452.32, 495.11, 572.62, 546.29, 707.75, 796.35, 789] },
  MS: { source: STOCK_SOURCE, closes: [87.8, 85.4, 81.67, 93.25, 94.16, 97.19, 104.24, 125.72, 116.67, 140.86, 158.96, 164] },
  SCHW: { source: STOCK_SOURCE, closes: [52.38, 56.68, 54.9, 68.8, 72.34, 73.69, 64.81, 74.01, 78.28, 91.24, 95.47, 94] },
  V: { source: STOCK_SOURCE, closes: [225.46, 237.48, 230.01, 260.35, 279.08, 262.47, 274.95, 316.04, 350.46, 355.05, 341.38, 340] },
  MA: { source: STOCK_SOURCE, closes: [363.41, 393.3, 395.91, 426.51, 481.57, 441.16, 493.8, 526.57, 548.12, 561.94, 568.81, 552] },
  AXP: { source: STOCK_SOURCE, closes: [164.95, 174.2, 149.19, 187.34, 227.69, 231.55, 271.2, 296.79, 269.05, 318.98, 332.16, 360] },
  XOM: {
    source: STOCK_SOURCE,
    closes: [109.66, 107.25, 117.58, 99.98, 116.24, 115.12, 117.22, 107.57, 118.93, 107.8, 112.75, 114],
    extra: [{ date: "2025-06-13", close: 115.0 }],
  },
  CVX: { source: STOCK_SOURCE, closes: [163.16, 157.35, 168.62, 149.16, 157.74, 156.42, 147.27, 144.84, 167.29, 143.19, 155.29, 157] },
  OXY: { source: STOCK_SOURCE, closes: [62.43, 58.8, 64.88, 59.71, 64.99, 63.03, 51.54, 49.41, 49.36, 42.01, 47.25, 41] },
  COP: { source: STOCK_SOURCE, closes: [99.21, 103.61, 119.8, 116.07, 127.28, 114.38, 105.28, 99.17, 105.02, 89.74, 94.59, 88] },
  SLB: { source: STOCK_SOURCE, closes: [49.1, 49.12, 58.3, 52.04, 54.81, 47.18, 41.95, 38.34, 41.8, 33.8, 34.37, 36] },
  UNH: { source: STOCK_SOURCE, closes: [472.59, 480.64, 504.19, 526.47, 494.7, 509.26, 584.68, 505.86, 523.75, 311.97, 345.3, 341] },
  JNJ: { source: STOCK_SOURCE, closes: [155, 165.52, 155.75, 156.74, 158.19, 146.16, 162.06, 144.62, 165.84, 152.75, 185.42, 188] },
  LLY: { source: STOCK_SOURCE, closes: [343.42, 468.98, 537.13, 582.92, 777.96, 905.38, 885.94, 772, 825.91, 779.53, 763, 862] },
  PFE: { source: STOCK_SOURCE, closes: [40.8, 36.68, 33.17, 28.79, 27.75, 27.98, 28.94, 26.53, 25.34, 24.24, 25.48, 24.6] },
  MRK: { source: STOCK_SOURCE, closes: [106.39, 115.39, 102.95, 109.02, 131.95, 123.8, 113.56, 99.48, 89.76, 79.16, 83.93, 86] },
  ABBV: { source: STOCK_SOURCE, closes: [159.37, 134.73, 149.06, 154.97, 182.1, 171.52, 197.48, 177.7, 209.52, 185.62, 231.54, 218] },
  MRNA: {
    source: STOCK_SOURCE,
    closes: [153.58, 121.5, 103.29, 99.45, 106.56, 118.75, 66.83, 41.58, 28.35, 27.59, 24.69, 26],
    extra: [{ date: "2025-06-13", close: 26.0 }],
  },
  WMT: { source: STOCK_SOURCE, closes: [49.15, 52.4, 53.31, 52.55, 60.17, 67.71, 80.75, 90.35, 87.79, 97.78, 103.06, 101] },
  COST: { source: STOCK_SOURCE, closes: [496.87, 538.38, 564.96, 660.08, 732.63, 849.99, 886.52, 916.27, 945.78, 989.94, 915.33, 911] },
  KO: { source: STOCK_SOURCE, closes: [62.03, 60.22, 55.98, 58.93, 61.18, 63.65, 71.86, 62.26, 71.62, 70.75, 66.32, 69] },
  PEP: { source: STOCK_SOURCE, closes: [182.3, 185.22, 169.44, 169.84, 175.01, 164.93, 170.05, 152.06, 149.94, 132.04, 140.44, 146] },
  PG: { source: STOCK_SOURCE, closes: [148.69, 151.74, 145.86, 146.54, 162.25, 164.92, 173.2, 167.65, 170.42, 159.32, 153.65, 150] },
  HD: { source: STOCK_SOURCE, closes: [295.12, 310.64, 302.16, 346.55, 383.6, 344.24, 405.2, 388.99, 366.49, 366.64, 405.19, 380] },
  LOW: { source: STOCK_SOURCE, closes: [199.97, 225.7, 207.84, 222.55, 254.73, 220.46, 270.85, 246.8, 233.23, 221.87, 251.31, 238] },
  MCD: { source: STOCK_SOURCE, closes: [279.61, 298.41, 263.44, 296.51, 281.95, 254.84, 304.51, 289.89, 312.37, 292.17, 303.89, 298] },
  NKE: { source: STOCK_SOURCE, closes: [122.64, 110.37, 95.62, 108.57, 93.98, 75.37, 88.4, 75.67, 63.48, 71.04, 69.73, 64] },
  SBUX: { source: STOCK_SOURCE, closes: [104.13, 99.06, 91.27, 96.01, 91.39, 77.85, 97.49, 91.25, 98.09, 91.63, 84.6, 80] },
  ABNB: { source: STOCK_SOURCE, closes: [124.4, 128.16, 137.21, 136.14, 164.96, 151.63, 126.81, 131.41, 119.46, 132.34, 121.42, 126] },
  UBER: { source: STOCK_SOURCE, closes: [31.7, 43.17, 45.99, 61.57, 76.99, 72.68, 75.16, 60.32, 72.86, 93.3, 97.97, 96] },
  F: { source: STOCK_SOURCE, closes: [12.6, 15.13, 12.42, 12.19, 13.28, 12.54, 10.56, 9.9, 10.03, 10.85, 11.96, 13] },
  GM: { source: STOCK_SOURCE, closes: [36.68, 38.56, 32.97, 35.92, 45.35, 46.46, 44.84, 53.27, 47.03, 49.21, 60.97, 69] },
  RIVN: { source: STOCK_SOURCE, closes: [15.48, 16.66, 24.28, 23.46, 10.95, 13.42, 11.22, 13.3, 12.45, 13.74, 14.68, 13] },
  NIO: { source: STOCK_SOURCE, closes: [10.53, 9.69, 9.04, 9.07, 4.5, 5.19, 6.68, 4.36, 3.83, 3.43, 7.47, 7], extra: [{ date: "2025-06-13", close: 3.6 }] },
  BABA: { source: STOCK_SOURCE, closes: [102.18, 83.35, 86.74, 77.51, 72.36, 72, 106.12, 84.79, 132.23, 113.41, 178.73, 167] },
  PDD: { source: STOCK_SOURCE, closes: [75.9, 69.14, 98.07, 146.31, 116.25, 132.95, 134.81, 96.99, 118.35, 104.66, 132.17, 132] },
  DIS: { source: STOCK_SOURCE, closes: [100.13, 89.28, 81.05, 90.29, 122.36, 99.29, 96.19, 111.35, 98.7, 124.01, 114.5, 112] },
  CMCSA: { source: STOCK_SOURCE, closes: [37.91, 41.55, 44.34, 43.85, 43.35, 39.16, 41.77, 37.53, 36.9, 35.69, 31.42, 27.7] },
  T: { source: STOCK_SOURCE, closes: [19.25, 15.95, 15.02, 16.78, 17.6, 19.11, 22, 22.77, 28.28, 28.94, 28.24, 24.7] },
  VZ: { source: STOCK_SOURCE, closes: [38.89, 37.19, 32.41, 37.7, 41.96, 41.24, 44.91, 39.99, 45.36, 43.27, 43.95, 39.7] },
  DKNG: { source: STOCK_SOURCE, closes: [19.36, 26.57, 29.44, 35.25, 45.41, 38.17, 39.2, 37.2, 33.21, 42.89, 37.4, 29] },
  BA: { source: STOCK_SOURCE, closes: [212.43, 211.16, 191.68, 260.66, 192.99, 182.01, 152.04, 177, 170.55, 209.53, 215.83, 201] },
  CAT: { source: STOCK_SOURCE, closes: [228.84, 246.05, 273, 295.67, 366.43, 333.1, 391.12, 362.76, 329.8, 388.21, 477.15, 577] },
  LMT: { source: STOCK_SOURCE, closes: [472.73, 460.38, 408.97, 453.24, 454.87, 467.1, 584.57, 485.94, 446.71, 463.14, 499.21, 490] },
  RTX: { source: STOCK_SOURCE, closes: [97.93, 97.96, 71.97, 84.14, 97.53, 100.39, 121.16, 115.72, 132.46, 146.02, 167.33, 178] },
  UPS: { source: STOCK_SOURCE, closes: [193.99, 179.25, 155.87, 157.23, 148.63, 136.85, 136.34, 126.1, 109.99, 100.94, 83.53, 96] },
  MARA: { source: STOCK_SOURCE, closes: [7.87, 13.84, 8.5, 23.49, 22.58, 19.85, 16.22, 16.77, 11.5, 15.67, 18.26, 18] },
});

/**
 * Anchors of a path owner: SPX's dense list, a name's quarter ends from `NAME_ANCHORS`, or none.
 * @example
 * levelAnchors("AAPL")[0]; // { date: "2023-03-31", close: 164.9 }
 */
export function levelAnchors(ticker: string): readonly LevelAnchor[] {
  if (ticker === "SPX") return SPX_ANCHORS;
  let a = byName.get(ticker);
  if (!a) {
    const row = NAME_ANCHORS[ticker];
    a = row ? [...NAME_ANCHOR_DATES.map((date, i) => ({ date, close: row.closes[i] })), ...(row.extra ?? [])].sort((x, y) => (x.date < y.date ? -1 : 1)) : [];
    byName.set(ticker, a);
  }
  return a;
}

const byName = new Map<string, readonly LevelAnchor[]>();
