/**
 * The symbol universe: the 63-symbol index/ETF tier and the full tier (plus liquid single names),
 * with the reference levels the simulator starts from on 2023-03-28.
 *
 * Reference prices are approximate closes of 2023-03-27 (split-adjusted to today's share counts),
 * vols are long-run annualised levels, betas are to the S&P 500 factor unless `factor` says
 * otherwise. They shape the simulation only; nothing here is market data.
 * @see docs/methodology.md#symbol-universe
 */
import { SymbolInfoSchema, type SymbolInfo } from "./schemas";

/** Simulation parameters of one symbol (a superset of `SymbolInfo`). */
export interface SymbolSpec extends SymbolInfo {
  /** Price on the simulation's start (the close before 2023-03-28), USD or index points. */
  refPrice: number;
  /** Long-run annualised volatility of daily log returns, decimal. */
  vol: number;
  /** Loading on the factor's daily return. */
  beta: number;
  /** Ticker of the factor the symbol loads on (`SPX`, `NDX`, ...); null for the market itself. */
  factor: string | null;
  /**
   * Head of the symbol's price family: members trade at `refPrice / head.refPrice` times the
   * head's price exactly (SPY, XSP, SPXW follow SPX). Null for a head or a stand-alone symbol.
   */
  family: string | null;
  /** Average daily share volume (0 for indices, which do not trade). */
  advShares: number;
  /** Average daily option volume across the symbol's roots, contracts. */
  optionAdv: number;
  /** First session with a listed chain and bars (later than 2023-03-28 for young products). */
  firstDate: string;
  /**
   * Sd of the earnings-day gap (log return, decimal) for single names whose earnings moves are
   * out of line with their vol level; absent: the simulator's default `0.15 x vol`.
   * @see docs/methodology.md#earnings-gaps
   */
  earningsGapSd?: number;
}

const START_DATE = "2023-03-28";

/** The 63 tickers of the index/ETF tier, in display order. */
export const INDEX_ETF_TIER_SYMBOLS: readonly string[] = Object.freeze([
  "SPXW",
  "SPX",
  "NDXP",
  "NDX",
  "RUTW",
  "RUT",
  "XSP",
  "SPY",
  "QQQ",
  "IWM",
  "DIA",
  "VOO",
  "IVV",
  "VTI",
  "XLF",
  "XLK",
  "XLE",
  "XLV",
  "XLI",
  "XLY",
  "XLP",
  "XLU",
  "XLB",
  "XLRE",
  "XLC",
  "GLD",
  "SLV",
  "TLT",
  "IEF",
  "HYG",
  "LQD",
  "EEM",
  "EFA",
  "FXI",
  "EWZ",
  "EWJ",
  "KWEB",
  "GDX",
  "GDXJ",
  "USO",
  "UNG",
  "XOP",
  "OIH",
  "XME",
  "SMH",
  "SOXX",
  "ARKK",
  "KRE",
  "XBI",
  "XRT",
  "XHB",
  "ITB",
  "IYR",
  "VNQ",
  "JETS",
  "TAN",
  "TQQQ",
  "SQQQ",
  "SOXL",
  "UVXY",
  "VXX",
  "IBIT",
  "BITO",
]);

type Row = [
  ticker: string,
  name: string,
  sector: string,
  industry: string,
  refPrice: number,
  vol: number,
  beta: number,
  dividendYield: number,
  advMillionShares: number,
  optionAdvThousands: number,
];

// Indices: [ticker, name, underlying/head, roots, refPrice, vol, beta, factor, optionAdvK]
const INDICES: [string, string, string, number, number, number, string | null, number][] = [
  ["SPX", "S&P 500 Index (AM-settled monthlies)", "SPX", 3977.53, 0.11, 1, null, 300],
  ["SPXW", "S&P 500 Index (PM-settled, daily expirations)", "SPX", 3977.53, 0.11, 1, null, 2500],
  ["XSP", "Mini-S&P 500 Index", "SPX", 397.753, 0.11, 1, null, 60],
  ["NDX", "Nasdaq-100 Index (AM-settled monthlies)", "NDX", 12619.0, 0.16, 1.15, "SPX", 15],
  ["NDXP", "Nasdaq-100 Index (PM-settled, daily expirations)", "NDX", 12619.0, 0.16, 1.15, "SPX", 25],
  ["RUT", "Russell 2000 Index (AM-settled monthlies)", "RUT", 1742.0, 0.19, 1.1, "SPX", 20],
  ["RUTW", "Russell 2000 Index (PM-settled weeklies)", "RUT", 1742.0, 0.19, 1.1, "SPX", 40],
];

// ETFs that follow an index exactly (family members): [ticker, name, head, refPrice, div, advM, optAdvK, sector, industry]
const FAMILY_ETFS: [string, string, string, number, number, number, number][] = [
  ["SPY", "SPDR S&P 500 ETF Trust", "SPX", 396.49, 0.015, 80, 7000],
  ["VOO", "Vanguard S&P 500 ETF", "SPX", 364.6, 0.015, 4, 20],
  ["IVV", "iShares Core S&P 500 ETF", "SPX", 398.3, 0.015, 4, 15],
  ["QQQ", "Invesco QQQ Trust", "NDX", 308.5, 0.006, 50, 3000],
  ["IWM", "iShares Russell 2000 ETF", "RUT", 173.9, 0.013, 30, 1000],
];

// Other ETFs: [ticker, name, sector, industry, price, vol, beta, div, advM, optAdvK] with factor SPX unless listed in ETF_FACTOR.
const ETFS: Row[] = [
  ["DIA", "SPDR Dow Jones Industrial Average ETF", "Multi-Sector", "Large-cap blend", 324.2, 0.15, 0.9, 0.019, 4, 40],
  ["VTI", "Vanguard Total Stock Market ETF", "Multi-Sector", "Total market", 196.8, 0.175, 1.02, 0.015, 4, 5],
  ["XLF", "Financial Select Sector SPDR Fund", "Financials", "Sector fund", 32.6, 0.22, 1.1, 0.02, 50, 150],
  ["XLK", "Technology Select Sector SPDR Fund", "Information Technology", "Sector fund", 144.1, 0.24, 1.2, 0.008, 7, 60],
  ["XLE", "Energy Select Sector SPDR Fund", "Energy", "Sector fund", 81.3, 0.27, 0.8, 0.035, 20, 150],
  ["XLV", "Health Care Select Sector SPDR Fund", "Health Care", "Sector fund", 128.4, 0.16, 0.7, 0.016, 8, 25],
  ["XLI", "Industrial Select Sector SPDR Fund", "Industrials", "Sector fund", 97.4, 0.19, 1.0, 0.017, 10, 30],
  ["XLY", "Consumer Discretionary Select Sector SPDR Fund", "Consumer Discretionary", "Sector fund", 137.1, 0.25, 1.2, 0.009, 5, 30],
  ["XLP", "Consumer Staples Select Sector SPDR Fund", "Consumer Staples", "Sector fund", 72.6, 0.14, 0.6, 0.025, 10, 20],
  ["XLU", "Utilities Select Sector SPDR Fund", "Utilities", "Sector fund", 66.1, 0.19, 0.5, 0.031, 12, 30],
  ["XLB", "Materials Select Sector SPDR Fund", "Materials", "Sector fund", 79.2, 0.2, 1.0, 0.019, 5, 10],
  ["XLRE", "Real Estate Select Sector SPDR Fund", "Real Estate", "Sector fund", 35.9, 0.22, 0.9, 0.036, 6, 8],
  ["XLC", "Communication Services Select Sector SPDR Fund", "Communication Services", "Sector fund", 55.4, 0.23, 1.1, 0.009, 6, 10],
  ["GLD", "SPDR Gold Shares", "Commodities", "Gold", 183.4, 0.14, 0.05, 0, 8, 150],
  ["SLV", "iShares Silver Trust", "Commodities", "Silver", 21.3, 0.28, 0.2, 0, 25, 120],
  ["TLT", "iShares 20+ Year Treasury Bond ETF", "Fixed Income", "Long-term Treasuries", 106.3, 0.17, -0.2, 0.033, 20, 250],
  ["IEF", "iShares 7-10 Year Treasury Bond ETF", "Fixed Income", "Intermediate Treasuries", 99.1, 0.08, -0.1, 0.03, 8, 15],
  ["HYG", "iShares iBoxx High Yield Corporate Bond ETF", "Fixed Income", "High-yield credit", 74.9, 0.08, 0.35, 0.058, 30, 150],
  ["LQD", "iShares iBoxx Investment Grade Corporate Bond ETF", "Fixed Income", "Investment-grade credit", 107.6, 0.09, 0.15, 0.04, 20, 60],
  ["EEM", "iShares MSCI Emerging Markets ETF", "International", "Emerging markets", 38.6, 0.18, 0.8, 0.025, 40, 150],
  ["EFA", "iShares MSCI EAFE ETF", "International", "Developed markets", 70.1, 0.15, 0.8, 0.026, 20, 80],
  ["FXI", "iShares China Large-Cap ETF", "International", "China", 27.4, 0.3, 0.7, 0.025, 35, 250],
  ["EWZ", "iShares MSCI Brazil ETF", "International", "Brazil", 26.3, 0.28, 0.8, 0.08, 25, 100],
  ["EWJ", "iShares MSCI Japan ETF", "International", "Japan", 58.4, 0.16, 0.6, 0.02, 7, 10],
  ["KWEB", "KraneShares CSI China Internet ETF", "International", "China internet", 29.2, 0.45, 0.9, 0.01, 20, 120],
  ["GDX", "VanEck Gold Miners ETF", "Materials", "Gold miners", 32.2, 0.33, 0.4, 0.015, 20, 120],
  ["GDXJ", "VanEck Junior Gold Miners ETF", "Materials", "Junior gold miners", 39.1, 0.38, 0.5, 0.01, 8, 30],
  ["USO", "United States Oil Fund", "Commodities", "Crude oil futures", 64.9, 0.35, 0.6, 0, 5, 40],
  ["UNG", "United States Natural Gas Fund", "Commodities", "Natural gas futures", 8.2, 0.6, 0.2, 0, 20, 40],
  ["XOP", "SPDR S&P Oil & Gas Exploration & Production ETF", "Energy", "Oil & gas E&P", 129.6, 0.33, 0.9, 0.028, 4, 40],
  ["OIH", "VanEck Oil Services ETF", "Energy", "Oil services", 281.0, 0.36, 1.0, 0.012, 0.6, 8],
  ["XME", "SPDR S&P Metals & Mining ETF", "Materials", "Metals & mining", 51.2, 0.32, 1.2, 0.012, 3, 15],
  ["SMH", "VanEck Semiconductor ETF", "Information Technology", "Semiconductors", 122.6, 0.32, 1.5, 0.007, 6, 40],
  ["SOXX", "iShares Semiconductor ETF", "Information Technology", "Semiconductors", 146.7, 0.32, 1.5, 0.008, 4, 10],
  ["ARKK", "ARK Innovation ETF", "Multi-Sector", "Disruptive innovation", 37.4, 0.48, 1.7, 0, 15, 80],
  ["KRE", "SPDR S&P Regional Banking ETF", "Financials", "Regional banks", 42.3, 0.35, 1.2, 0.035, 20, 150],
  ["XBI", "SPDR S&P Biotech ETF", "Health Care", "Biotechnology", 78.4, 0.33, 1.1, 0, 10, 60],
  ["XRT", "SPDR S&P Retail ETF", "Consumer Discretionary", "Retail", 60.1, 0.28, 1.2, 0.015, 5, 30],
  ["XHB", "SPDR S&P Homebuilders ETF", "Consumer Discretionary", "Homebuilders", 69.9, 0.27, 1.3, 0.008, 2, 8],
  ["ITB", "iShares U.S. Home Construction ETF", "Consumer Discretionary", "Home construction", 79.6, 0.3, 1.3, 0.006, 2, 10],
  ["IYR", "iShares U.S. Real Estate ETF", "Real Estate", "Real estate", 83.7, 0.22, 0.9, 0.03, 8, 20],
  ["VNQ", "Vanguard Real Estate ETF", "Real Estate", "REITs", 81.9, 0.22, 0.9, 0.04, 5, 8],
  ["JETS", "U.S. Global Jets ETF", "Industrials", "Airlines", 18.1, 0.32, 1.2, 0, 3, 10],
  ["TAN", "Invesco Solar ETF", "Energy", "Solar", 70.3, 0.42, 1.4, 0, 1.5, 8],
  ["TQQQ", "ProShares UltraPro QQQ", "Multi-Sector", "3x leveraged Nasdaq-100", 24.1, 0.66, 3.0, 0, 120, 200],
  ["SQQQ", "ProShares UltraPro Short QQQ", "Multi-Sector", "-3x leveraged Nasdaq-100", 38.2, 0.66, -3.0, 0, 120, 150],
  ["SOXL", "Direxion Daily Semiconductor Bull 3X Shares", "Information Technology", "3x leveraged semiconductors", 17.2, 0.95, 4.5, 0, 90, 200],
  ["UVXY", "ProShares Ultra VIX Short-Term Futures ETF", "Volatility", "1.5x VIX futures", 6.2, 0.9, -4.0, 0, 40, 150],
  ["VXX", "iPath Series B S&P 500 VIX Short-Term Futures ETN", "Volatility", "VIX futures", 12.3, 0.65, -3.0, 0, 10, 60],
  ["IBIT", "iShares Bitcoin Trust ETF", "Digital Assets", "Spot bitcoin", 15.9, 0.55, 1.2, 0, 40, 300],
  ["BITO", "ProShares Bitcoin Strategy ETF", "Digital Assets", "Bitcoin futures", 15.1, 0.55, 1.2, 0, 10, 40],
];

/** ETFs whose factor is not the S&P 500. */
const ETF_FACTOR: Readonly<Record<string, string>> = { TQQQ: "NDX", SQQQ: "NDX", SOXL: "SOXX" };
/**
 * Per-name earnings gap sd where a name's earnings moves are out of line with `0.15 x vol`:
 * approximate sds of their earnings-day moves in 2019-2024, rounded (large moves for META,
 * NFLX, AMZN, GOOGL, SNOW; AAPL's 4% against its low 0.20 vol; small ones for the big banks).
 */
const EARNINGS_GAP_SD: Readonly<Record<string, number>> = {
  AAPL: 0.04,
  META: 0.11,
  NFLX: 0.1,
  AMZN: 0.075,
  GOOGL: 0.06,
  SNOW: 0.12,
  JPM: 0.025,
  BAC: 0.03,
};
/** Products younger than the simulation: first session with options. */
const FIRST_DATE: Readonly<Record<string, string>> = { IBIT: "2024-11-19" };

// Single names: [ticker, name, sector, industry, price, vol, beta, div, advM, optAdvK].
const STOCKS: Row[] = [
  ["AAPL", "Apple Inc.", "Information Technology", "Technology Hardware, Storage & Peripherals", 158.3, 0.2, 1.2, 0.005, 60, 1200],
  ["MSFT", "Microsoft Corporation", "Information Technology", "Software", 275.2, 0.24, 1.15, 0.008, 25, 400],
  ["NVDA", "NVIDIA Corporation", "Information Technology", "Semiconductors & Semiconductor Equipment", 26.5, 0.5, 1.8, 0.0003, 450, 3000],
  ["AMZN", "Amazon.com, Inc.", "Consumer Discretionary", "Broadline Retail", 98.1, 0.34, 1.3, 0, 55, 700],
  ["GOOGL", "Alphabet Inc. Class A", "Communication Services", "Interactive Media & Services", 101.0, 0.31, 1.15, 0.002, 35, 350],
  ["META", "Meta Platforms, Inc.", "Communication Services", "Interactive Media & Services", 202.8, 0.4, 1.3, 0.003, 20, 500],
  ["TSLA", "Tesla, Inc.", "Consumer Discretionary", "Automobiles", 191.8, 0.58, 1.9, 0, 120, 2500],
  ["AMD", "Advanced Micro Devices, Inc.", "Information Technology", "Semiconductors & Semiconductor Equipment", 95.2, 0.48, 1.7, 0, 50, 800],
  ["NFLX", "Netflix, Inc.", "Communication Services", "Entertainment", 320.4, 0.4, 1.2, 0, 6, 150],
  ["AVGO", "Broadcom Inc.", "Information Technology", "Semiconductors & Semiconductor Equipment", 62.3, 0.4, 1.4, 0.015, 25, 250],
  ["INTC", "Intel Corporation", "Information Technology", "Semiconductors & Semiconductor Equipment", 29.1, 0.42, 1.1, 0.02, 50, 300],
  ["QCOM", "QUALCOMM Incorporated", "Information Technology", "Semiconductors & Semiconductor Equipment", 124.0, 0.35, 1.3, 0.025, 8, 80],
  ["MU", "Micron Technology, Inc.", "Information Technology", "Semiconductors & Semiconductor Equipment", 60.2, 0.45, 1.5, 0.008, 20, 200],
  ["TXN", "Texas Instruments Incorporated", "Information Technology", "Semiconductors & Semiconductor Equipment", 180.5, 0.26, 1.0, 0.028, 5, 30],
  ["AMAT", "Applied Materials, Inc.", "Information Technology", "Semiconductors & Semiconductor Equipment", 120.1, 0.4, 1.5, 0.01, 6, 50],
  ["SMCI", "Super Micro Computer, Inc.", "Information Technology", "Technology Hardware, Storage & Peripherals", 9.6, 0.85, 1.9, 0, 40, 400],
  ["ORCL", "Oracle Corporation", "Information Technology", "Software", 90.1, 0.33, 1.0, 0.015, 9, 80],
  ["CRM", "Salesforce, Inc.", "Information Technology", "Software", 190.3, 0.33, 1.2, 0.004, 6, 60],
  ["ADBE", "Adobe Inc.", "Information Technology", "Software", 375.9, 0.34, 1.2, 0, 3, 50],
  ["NOW", "ServiceNow, Inc.", "Information Technology", "Software", 450.2, 0.35, 1.2, 0, 1.3, 20],
  ["CSCO", "Cisco Systems, Inc.", "Information Technology", "Communications Equipment", 51.2, 0.22, 0.9, 0.03, 18, 60],
  ["IBM", "International Business Machines Corporation", "Information Technology", "IT Services", 128.2, 0.24, 0.8, 0.045, 4, 30],
  ["PLTR", "Palantir Technologies Inc.", "Information Technology", "Software", 7.8, 0.65, 1.9, 0, 60, 700],
  ["SNOW", "Snowflake Inc.", "Information Technology", "IT Services", 148.0, 0.55, 1.6, 0, 6, 50],
  ["CRWD", "CrowdStrike Holdings, Inc.", "Information Technology", "Software", 132.0, 0.5, 1.5, 0, 4, 60],
  ["PANW", "Palo Alto Networks, Inc.", "Information Technology", "Software", 97.0, 0.4, 1.3, 0, 6, 60],
  ["SHOP", "Shopify Inc.", "Information Technology", "IT Services", 46.0, 0.6, 1.9, 0, 15, 150],
  ["MSTR", "MicroStrategy Incorporated", "Information Technology", "Software", 28.0, 0.85, 2.0, 0, 15, 400],
  ["COIN", "Coinbase Global, Inc.", "Financials", "Capital Markets", 63.0, 0.75, 2.2, 0, 12, 300],
  ["HOOD", "Robinhood Markets, Inc.", "Financials", "Capital Markets", 9.5, 0.6, 1.9, 0, 15, 150],
  ["SOFI", "SoFi Technologies, Inc.", "Financials", "Consumer Finance", 5.8, 0.6, 1.8, 0, 40, 250],
  ["PYPL", "PayPal Holdings, Inc.", "Financials", "Financial Services", 74.5, 0.38, 1.3, 0, 12, 120],
  ["JPM", "JPMorgan Chase & Co.", "Financials", "Banks", 127.9, 0.24, 1.1, 0.03, 12, 100],
  ["BAC", "Bank of America Corporation", "Financials", "Banks", 28.0, 0.29, 1.3, 0.031, 55, 300],
  ["WFC", "Wells Fargo & Company", "Financials", "Banks", 37.0, 0.3, 1.2, 0.03, 20, 80],
  ["C", "Citigroup Inc.", "Financials", "Banks", 45.4, 0.3, 1.4, 0.045, 18, 120],
  ["GS", "The Goldman Sachs Group, Inc.", "Financials", "Capital Markets", 320.0, 0.27, 1.3, 0.03, 2.5, 40],
  ["MS", "Morgan Stanley", "Financials", "Capital Markets", 85.0, 0.27, 1.3, 0.036, 8, 40],
  ["SCHW", "The Charles Schwab Corporation", "Financials", "Capital Markets", 52.0, 0.38, 1.2, 0.019, 20, 150],
  ["V", "Visa Inc.", "Financials", "Financial Services", 222.5, 0.2, 0.95, 0.008, 6, 50],
  ["MA", "Mastercard Incorporated", "Financials", "Financial Services", 355.0, 0.21, 1.0, 0.006, 3, 30],
  ["AXP", "American Express Company", "Financials", "Consumer Finance", 160.0, 0.27, 1.2, 0.015, 4, 30],
  ["XOM", "Exxon Mobil Corporation", "Energy", "Oil, Gas & Consumable Fuels", 108.4, 0.25, 0.8, 0.034, 18, 150],
  ["CVX", "Chevron Corporation", "Energy", "Oil, Gas & Consumable Fuels", 160.0, 0.24, 0.8, 0.038, 9, 80],
  ["OXY", "Occidental Petroleum Corporation", "Energy", "Oil, Gas & Consumable Fuels", 60.1, 0.32, 1.0, 0.012, 15, 120],
  ["COP", "ConocoPhillips", "Energy", "Oil, Gas & Consumable Fuels", 98.5, 0.29, 0.9, 0.025, 6, 40],
  ["SLB", "Schlumberger Limited", "Energy", "Energy Equipment & Services", 47.4, 0.33, 1.1, 0.02, 10, 50],
  ["UNH", "UnitedHealth Group Incorporated", "Health Care", "Health Care Providers & Services", 468.0, 0.22, 0.7, 0.015, 3, 60],
  ["JNJ", "Johnson & Johnson", "Health Care", "Pharmaceuticals", 154.2, 0.16, 0.5, 0.03, 7, 40],
  ["LLY", "Eli Lilly and Company", "Health Care", "Pharmaceuticals", 340.0, 0.3, 0.5, 0.013, 3, 60],
  ["PFE", "Pfizer Inc.", "Health Care", "Pharmaceuticals", 40.3, 0.24, 0.6, 0.04, 30, 150],
  ["MRK", "Merck & Co., Inc.", "Health Care", "Pharmaceuticals", 104.8, 0.2, 0.4, 0.028, 8, 40],
  ["ABBV", "AbbVie Inc.", "Health Care", "Biotechnology", 158.0, 0.22, 0.5, 0.037, 6, 40],
  ["MRNA", "Moderna, Inc.", "Health Care", "Biotechnology", 150.0, 0.55, 1.0, 0, 6, 80],
  ["WMT", "Walmart Inc.", "Consumer Staples", "Consumer Staples Distribution & Retail", 48.7, 0.18, 0.5, 0.015, 18, 100],
  ["COST", "Costco Wholesale Corporation", "Consumer Staples", "Consumer Staples Distribution & Retail", 495.0, 0.21, 0.8, 0.008, 2, 30],
  ["KO", "The Coca-Cola Company", "Consumer Staples", "Beverages", 61.2, 0.15, 0.5, 0.03, 13, 50],
  ["PEP", "PepsiCo, Inc.", "Consumer Staples", "Beverages", 178.0, 0.16, 0.5, 0.028, 5, 30],
  ["PG", "The Procter & Gamble Company", "Consumer Staples", "Household Products", 146.0, 0.16, 0.45, 0.025, 7, 30],
  ["HD", "The Home Depot, Inc.", "Consumer Discretionary", "Specialty Retail", 290.0, 0.23, 1.0, 0.029, 4, 40],
  ["LOW", "Lowe's Companies, Inc.", "Consumer Discretionary", "Specialty Retail", 195.0, 0.26, 1.1, 0.021, 3, 20],
  ["MCD", "McDonald's Corporation", "Consumer Discretionary", "Hotels, Restaurants & Leisure", 275.0, 0.17, 0.6, 0.022, 3, 25],
  ["NKE", "NIKE, Inc.", "Consumer Discretionary", "Textiles, Apparel & Luxury Goods", 120.0, 0.32, 1.1, 0.012, 7, 80],
  ["SBUX", "Starbucks Corporation", "Consumer Discretionary", "Hotels, Restaurants & Leisure", 102.0, 0.27, 0.9, 0.021, 6, 50],
  ["ABNB", "Airbnb, Inc.", "Consumer Discretionary", "Hotels, Restaurants & Leisure", 120.0, 0.42, 1.4, 0, 5, 50],
  ["UBER", "Uber Technologies, Inc.", "Industrials", "Ground Transportation", 31.0, 0.4, 1.4, 0, 20, 150],
  ["F", "Ford Motor Company", "Consumer Discretionary", "Automobiles", 12.3, 0.35, 1.3, 0.05, 60, 250],
  ["GM", "General Motors Company", "Consumer Discretionary", "Automobiles", 36.1, 0.34, 1.3, 0.01, 15, 80],
  ["RIVN", "Rivian Automotive, Inc.", "Consumer Discretionary", "Automobiles", 15.2, 0.7, 1.8, 0, 35, 200],
  ["NIO", "NIO Inc.", "Consumer Discretionary", "Automobiles", 9.3, 0.7, 1.6, 0, 50, 200],
  ["BABA", "Alibaba Group Holding Limited", "Consumer Discretionary", "Broadline Retail", 100.0, 0.42, 1.0, 0.01, 20, 200],
  ["PDD", "PDD Holdings Inc.", "Consumer Discretionary", "Broadline Retail", 73.0, 0.55, 1.2, 0, 8, 100],
  ["DIS", "The Walt Disney Company", "Communication Services", "Entertainment", 98.0, 0.3, 1.1, 0, 10, 120],
  ["CMCSA", "Comcast Corporation", "Communication Services", "Media", 37.5, 0.26, 1.0, 0.03, 20, 50],
  ["T", "AT&T Inc.", "Communication Services", "Diversified Telecommunication Services", 19.0, 0.22, 0.6, 0.058, 35, 100],
  ["VZ", "Verizon Communications Inc.", "Communication Services", "Diversified Telecommunication Services", 38.2, 0.2, 0.5, 0.068, 20, 80],
  ["DKNG", "DraftKings Inc.", "Consumer Discretionary", "Hotels, Restaurants & Leisure", 19.3, 0.55, 1.6, 0, 12, 80],
  ["BA", "The Boeing Company", "Industrials", "Aerospace & Defense", 205.0, 0.33, 1.3, 0, 6, 100],
  ["CAT", "Caterpillar Inc.", "Industrials", "Machinery", 225.0, 0.28, 1.1, 0.021, 3, 30],
  ["LMT", "Lockheed Martin Corporation", "Industrials", "Aerospace & Defense", 470.0, 0.2, 0.4, 0.026, 1.2, 15],
  ["RTX", "RTX Corporation", "Industrials", "Aerospace & Defense", 97.0, 0.22, 0.7, 0.024, 6, 30],
  ["UPS", "United Parcel Service, Inc.", "Industrials", "Air Freight & Logistics", 190.0, 0.26, 0.9, 0.034, 4, 30],
  ["MARA", "Marathon Digital Holdings, Inc.", "Information Technology", "Software", 8.1, 0.72, 2.2, 0, 40, 250],
];

/** The five index symbols shown with their constituent-free metadata. */
const INDEX_INDUSTRY: Readonly<Record<string, string>> = {
  SPX: "Large-cap US equity index",
  NDX: "Nasdaq-100 equity index",
  RUT: "Small-cap US equity index",
};

function indexSpecs(): SymbolSpec[] {
  return INDICES.map(([ticker, name, head, refPrice, vol, beta, factor, optK]) => ({
    ticker,
    name,
    type: "index" as const,
    underlying: head === "SPX" && ticker === "XSP" ? "XSP" : head,
    sector: "Index",
    industry: INDEX_INDUSTRY[head],
    optionRoots: [ticker],
    dividendYield: head === "SPX" ? 0.015 : head === "NDX" ? 0.007 : 0.013,
    tiers: ["index-etf", "full"],
    simulated: true,
    refPrice,
    vol,
    beta,
    factor,
    family: ticker === head ? null : head,
    advShares: 0,
    optionAdv: optK * 1000,
    firstDate: START_DATE,
  }));
}

function familyEtfSpecs(): SymbolSpec[] {
  return FAMILY_ETFS.map(([ticker, name, head, refPrice, div, advM, optK]) => ({
    ticker,
    name,
    type: "etf" as const,
    underlying: ticker,
    sector: "Multi-Sector",
    industry: head === "SPX" ? "Large-cap blend" : head === "NDX" ? "Large-cap growth" : "Small-cap blend",
    optionRoots: [ticker],
    dividendYield: div,
    tiers: ["index-etf", "full"],
    simulated: true,
    refPrice,
    vol: head === "SPX" ? 0.11 : head === "NDX" ? 0.16 : 0.19,
    beta: head === "SPX" ? 1 : head === "NDX" ? 1.15 : 1.1,
    factor: head === "SPX" ? null : "SPX",
    family: head,
    advShares: advM * 1e6,
    optionAdv: optK * 1000,
    firstDate: START_DATE,
  }));
}

function rowSpecs(rows: Row[], type: "etf" | "stock"): SymbolSpec[] {
  return rows.map(([ticker, name, sector, industry, refPrice, vol, beta, div, advM, optK]) => ({
    ticker,
    name,
    type,
    underlying: ticker,
    sector,
    industry,
    optionRoots: [ticker],
    dividendYield: div,
    tiers: type === "etf" ? ["index-etf", "full"] : ["full"],
    simulated: true,
    refPrice,
    vol,
    beta,
    factor: ETF_FACTOR[ticker] ?? "SPX",
    family: null,
    advShares: advM * 1e6,
    optionAdv: optK * 1000,
    firstDate: FIRST_DATE[ticker] ?? START_DATE,
    ...(type === "stock" && ticker in EARNINGS_GAP_SD ? { earningsGapSd: EARNINGS_GAP_SD[ticker] } : {}),
  }));
}

function buildSpecs(): SymbolSpec[] {
  const all = [...indexSpecs(), ...familyEtfSpecs(), ...rowSpecs(ETFS, "etf"), ...rowSpecs(STOCKS, "stock")];
  const byTicker = new Map(all.map((s) => [s.ticker, s]));
  const ordered = INDEX_ETF_TIER_SYMBOLS.map((t) => byTicker.get(t)!);
  return [...ordered, ...all.filter((s) => s.type === "stock")];
}

/**
 * Every symbol of the universe with its simulation parameters, index/ETF tier first.
 * A fresh array of fresh objects each call (callers may not mutate a shared table).
 * @example
 * symbolSpecs().find((s) => s.ticker === "SPY")?.family; // "SPX"
 */
export function symbolSpecs(): SymbolSpec[] {
  return buildSpecs();
}

/**
 * The public record of a spec (drops the simulation parameters).
 * @example
 * toSymbolInfo(symbolSpecs()[0]).ticker; // "SPXW"
 */
export function toSymbolInfo(spec: SymbolSpec): SymbolInfo {
  return SymbolInfoSchema.parse({
    ticker: spec.ticker,
    name: spec.name,
    type: spec.type,
    underlying: spec.underlying,
    sector: spec.sector,
    industry: spec.industry,
    optionRoots: spec.optionRoots,
    dividendYield: spec.dividendYield,
    tiers: spec.tiers,
    simulated: spec.simulated,
  });
}

/** First session the simulator covers. */
export const SIMULATION_START_DATE = START_DATE;
