/**
 * GICS sectors of the flow module: the sector ETFs, the names a caller may use for a sector, and
 * a sector's flow from its members' session totals.
 * @see docs/methodology.md#flow-market-wide-screens
 */
import * as z from "zod";
import type { OverviewTrade } from "./overview";
import { directionSign } from "./direction";
import type { TickerSessionTotals } from "./top-underlyings";

/** The eleven GICS sectors with their Select Sector SPDR ETF, as the universe names them. */
export const SECTOR_ETFS: ReadonlyArray<{ sector: string; etf: string }> = Object.freeze([
  { sector: "Information Technology", etf: "XLK" },
  { sector: "Financials", etf: "XLF" },
  { sector: "Energy", etf: "XLE" },
  { sector: "Health Care", etf: "XLV" },
  { sector: "Consumer Discretionary", etf: "XLY" },
  { sector: "Consumer Staples", etf: "XLP" },
  { sector: "Utilities", etf: "XLU" },
  { sector: "Industrials", etf: "XLI" },
  { sector: "Materials", etf: "XLB" },
  { sector: "Real Estate", etf: "XLRE" },
  { sector: "Communication Services", etf: "XLC" },
]);

/** Other names accepted for a sector (after lower-casing and dropping spaces, `-`, `_`, `&`). */
const SECTOR_ALIASES: Readonly<Record<string, string>> = {
  technology: "Information Technology",
  tech: "Information Technology",
  it: "Information Technology",
  financial: "Financials",
  finance: "Financials",
  healthcare: "Health Care",
  health: "Health Care",
  consumercyclical: "Consumer Discretionary",
  consumerdefensive: "Consumer Staples",
  industrial: "Industrials",
  utility: "Utilities",
  material: "Materials",
  basicmaterials: "Materials",
  realestate: "Real Estate",
  communications: "Communication Services",
  communication: "Communication Services",
  telecom: "Communication Services",
};

const squash = (s: string) => s.toLowerCase().replace(/[\s\-_&]+/g, "");

/**
 * The sector a caller's `{sector}` names: an ETF symbol (`XLK`), a GICS name in any case
 * (`information technology`), or a common alias (`Technology`, `Healthcare`). Null when none.
 * @example
 * resolveSector("xlk"); // { sector: "Information Technology", etf: "XLK" }
 * @see docs/methodology.md#flow-market-wide-screens
 */
export function resolveSector(raw: string): { sector: string; etf: string } | null {
  const up = raw.trim().toUpperCase();
  const byEtf = SECTOR_ETFS.find((s) => s.etf === up);
  if (byEtf) return byEtf;
  const key = squash(raw);
  const name = (Object.hasOwn(SECTOR_ALIASES, key) ? SECTOR_ALIASES[key] : undefined) ?? SECTOR_ETFS.find((s) => squash(s.sector) === key)?.sector;
  return name ? SECTOR_ETFS.find((s) => s.sector === name)! : null;
}

/** Bullish and bearish premium of a session's trades (direction as in the window scores). */
export function directionalPremium(trades: readonly OverviewTrade[]): { bullishPremium: number; bearishPremium: number } {
  let bullishPremium = 0;
  let bearishPremium = 0;
  for (const t of trades) {
    const d = directionSign(t);
    if (d > 0) bullishPremium += t.premiumUsd;
    else if (d < 0) bearishPremium += t.premiumUsd;
  }
  return { bullishPremium, bearishPremium };
}

/** `100 * (bullish - bearish) / (bullish + bearish)`, 0 when nothing is directional. */
export function firOf(bullishPremium: number, bearishPremium: number): number {
  const d = bullishPremium + bearishPremium;
  return d > 0 ? (100 * (bullishPremium - bearishPremium)) / d : 0;
}

const int = z.number().int();

/** The sector's totals (reference `SectorMetrics`). */
export const SectorMetricsSchema = z.object({
  totalPremium: z.number(),
  callPremium: z.number(),
  putPremium: z.number(),
  netPremium: z.number().meta({ description: "callPremium - putPremium, USD." }),
  totalVolume: int.min(0),
  callVolume: int.min(0),
  putVolume: int.min(0),
  netVolume: int.meta({ description: "callVolume - putVolume." }),
  fir: z.number().meta({ description: "Flow imbalance ratio, -100..100: 100 (bullish - bearish) / (bullish + bearish) premium." }),
  putCallRatio: z.number().meta({ description: "putVolume / callVolume (0 without call volume)." }),
});

/** One ticker's part of the sector (reference `TopContributor`). */
export const TopContributorSchema = z.object({
  ticker: z.string(),
  netPremium: z.number(),
  callPremium: z.number(),
  putPremium: z.number(),
  pctOfSector: z.number().meta({ description: "100 |netPremium| / the sum of |netPremium| over the sector's tickers (0..100)." }),
});

/** One industry of the sector (reference `IndustryBreakdown`). */
export const IndustryBreakdownSchema = z.object({
  industry: z.string(),
  netPremium: z.number(),
  totalPremium: z.number(),
  pctOfSector: z.number().meta({ description: "The industry's share of the sector's total premium, percent." }),
  tickerCount: int.min(0),
});

/** A sector's flow without its name and date. */
export interface SectorFlow {
  metrics: z.output<typeof SectorMetricsSchema>;
  topContributors: Array<z.output<typeof TopContributorSchema>>;
  industryBreakdown: Array<z.output<typeof IndustryBreakdownSchema>>;
  tickerCount: number;
}

/** One member of a sector in one session. */
export interface SectorMember {
  ticker: string;
  industry: string;
  /** The session's totals; null when the ticker did not trade. */
  totals: TickerSessionTotals | null;
  bullishPremium: number;
  bearishPremium: number;
}

/**
 * A sector's session from its members that traded: summed premium and volume by right, net
 * premium and volume (call minus put), FIR of the summed bullish and bearish premium, put/call
 * volume ratio; the `topN` tickers by `|netPremium|` (ties by ticker) with their share of the
 * summed `|netPremium|`; industries by total premium (ties by name) with their share of the
 * sector's premium. `tickerCount` counts members that traded.
 * @example
 * sectorFlow(members, 10).metrics.fir;
 * @see docs/methodology.md#flow-market-wide-screens
 */
export function sectorFlow(members: readonly SectorMember[], topN: number): SectorFlow {
  const m = { totalPremium: 0, callPremium: 0, putPremium: 0, netPremium: 0, totalVolume: 0, callVolume: 0, putVolume: 0, netVolume: 0, fir: 0, putCallRatio: 0 };
  let bull = 0;
  let bear = 0;
  let absNet = 0;
  const traded = members.filter((x): x is SectorMember & { totals: TickerSessionTotals } => x.totals !== null);
  const industries = new Map<string, { industry: string; netPremium: number; totalPremium: number; pctOfSector: number; tickerCount: number }>();
  for (const x of traded) {
    const t = x.totals;
    m.totalPremium += t.totalPremium;
    m.callPremium += t.callPremium;
    m.putPremium += t.putPremium;
    m.totalVolume += t.totalVolume;
    m.callVolume += t.callVolume;
    m.putVolume += t.putVolume;
    bull += x.bullishPremium;
    bear += x.bearishPremium;
    absNet += Math.abs(t.callPremium - t.putPremium);
    const ind = industries.get(x.industry) ?? { industry: x.industry, netPremium: 0, totalPremium: 0, pctOfSector: 0, tickerCount: 0 };
    ind.netPremium += t.callPremium - t.putPremium;
    ind.totalPremium += t.totalPremium;
    ind.tickerCount++;
    industries.set(x.industry, ind);
  }
  m.netPremium = m.callPremium - m.putPremium;
  m.netVolume = m.callVolume - m.putVolume;
  m.fir = firOf(bull, bear);
  m.putCallRatio = m.callVolume > 0 ? m.putVolume / m.callVolume : 0;
  const topContributors = traded
    .map((x) => {
      const netPremium = x.totals.callPremium - x.totals.putPremium;
      return {
        ticker: x.ticker,
        netPremium,
        callPremium: x.totals.callPremium,
        putPremium: x.totals.putPremium,
        pctOfSector: absNet > 0 ? (100 * Math.abs(netPremium)) / absNet : 0,
      };
    })
    .sort((a, b) => Math.abs(b.netPremium) - Math.abs(a.netPremium) || (a.ticker < b.ticker ? -1 : 1))
    .slice(0, topN);
  const industryBreakdown = [...industries.values()]
    .map((i) => ({ ...i, pctOfSector: m.totalPremium > 0 ? (100 * i.totalPremium) / m.totalPremium : 0 }))
    .sort((a, b) => b.totalPremium - a.totalPremium || (a.industry < b.industry ? -1 : 1));
  return { metrics: m, topContributors, industryBreakdown, tickerCount: traded.length };
}
