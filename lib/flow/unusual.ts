/**
 * Unusual-activity screens over the daily contract rows: volume against the contract's own
 * baseline (RVOL) and open-interest changes (opening and closing positions).
 * @see docs/methodology.md#flow-market-wide-screens
 */
import * as z from "zod";
import type { IsoDate } from "../time";
import { MONEYNESS_BANDS } from "./params";
import type { TopContractRow } from "./rollups";
import { moneynessPct } from "./trade-facts";

const int = z.number().int();
const count = int.min(0);
const right = z.enum(["C", "P"]);

/** One row of the unusual-volume screen (reference `UnusualVolumeItem`). */
export const UnusualVolumeRowSchema = z.object({
  symbol: z.string(),
  ticker: z.string(),
  expiration: z.string(),
  strike: z.number(),
  right,
  dte: int,
  date: z.string(),
  volume: count,
  avgVolume: z.number().meta({ description: "Mean daily volume over the `avg_period` sessions before `date` (0 on sessions without trades)." }),
  rvol: z.number().meta({ description: "volume / avgVolume." }),
  premium: z.number(),
  openInterest: count,
  prevOi: count,
  oiChange: int,
  oiChangePct: z.number().meta({ description: "100 * oiChange / prevOi (0 when prevOi is 0)." }),
  volumeOiRatio: z.number(),
  bidVolume: count,
  askVolume: count,
  bidPct: z.number().meta({ description: "Percent of the volume at or below the bid." }),
  askPct: z.number().meta({ description: "Percent of the volume at or above the ask." }),
  lastPrice: z.number(),
  underlyingPrice: z.number(),
  iv: z.number(),
  moneynessPct: z.number().meta({ description: "Percent out of the money at the last trade (negative in the money)." }),
  sweepVolume: count,
  sweepPremium: z.number(),
  multiLegVolume: count,
  multiLegPremium: z.number(),
});
/** One row of the unusual-volume screen. */
export type UnusualVolumeRow = z.output<typeof UnusualVolumeRowSchema>;

/** One row of the unusual-OI screen (reference `UnusualOiItem`). */
export const UnusualOiRowSchema = z.object({
  symbol: z.string(),
  ticker: z.string(),
  expiration: z.string(),
  strike: z.number(),
  right,
  dte: int,
  date: z.string(),
  openInterest: count,
  prevOi: count,
  oiChange: int,
  oiChangePct: z.number(),
  volume: count,
  premium: z.number(),
  volumeOiRatio: z.number(),
  bidVolume: count,
  askVolume: count,
  lastPrice: z.number(),
  underlyingPrice: z.number(),
  iv: z.number(),
  positionType: z.enum(["opening", "closing"]).meta({ description: "opening when OI rose, closing when it fell." }),
  sweepVolume: count,
  sweepPremium: z.number(),
  multiLegVolume: count,
  multiLegPremium: z.number(),
});
/** One row of the unusual-OI screen. */
export type UnusualOiRow = z.output<typeof UnusualOiRowSchema>;

/** Filters shared by both screens (every bound inclusive). */
interface ContractRowFilters {
  minPremium?: number;
  right?: "C" | "P";
  minDte?: number;
  maxDte?: number;
  onlySweeps?: boolean;
  onlyMultiLeg?: boolean;
  excludeMultiLeg?: boolean;
}

const within = (x: number, lo?: number, hi?: number) => (lo === undefined || x >= lo) && (hi === undefined || x <= hi);

function passesShared(r: TopContractRow, f: ContractRowFilters): boolean {
  return (
    within(r.totalPremium, f.minPremium) &&
    (f.right === undefined || r.right === f.right) &&
    within(r.dte, f.minDte, f.maxDte) &&
    (!f.onlySweeps || r.sweepVolume > 0) &&
    (!f.onlyMultiLeg || r.multiLegVolume > 0) &&
    (!f.excludeMultiLeg || r.multiLegVolume === 0)
  );
}

const bySymbol = (a: { symbol: string }, b: { symbol: string }) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0);

/** OI before the session (`openInterest - oiChange`) and the change in percent of it (0 when it is 0). */
function oiFields(r: TopContractRow): { prevOi: number; oiChangePct: number } {
  const prevOi = r.openInterest - r.oiChange;
  return { prevOi, oiChangePct: prevOi > 0 ? (100 * r.oiChange) / prevOi : 0 };
}

/** Moneyness classes of the `moneyness` filter: ITM below -3%, ATM within +-3%, OTM above +3% (deep bands included). */
export function moneynessClass(pct: number): "ITM" | "ATM" | "OTM" {
  return pct < -MONEYNESS_BANDS.atmPct ? "ITM" : pct > MONEYNESS_BANDS.atmPct ? "OTM" : "ATM";
}

/** Filters and order of the unusual-volume screen (the reference's parameters). */
export interface UnusualVolumeFilters extends ContractRowFilters {
  limit: number;
  minRvol: number;
  minAvgVolume: number;
  minStrike?: number;
  maxStrike?: number;
  expiration?: string;
  minVolOiRatio?: number;
  minOiChange?: number;
  maxOiChange?: number;
  minOiChangePct?: number;
  /** Fraction 0..1 of the volume at or below the bid. */
  minBidImbalance?: number;
  /** Fraction 0..1 of the volume at or above the ask. */
  minAskImbalance?: number;
  moneyness?: "ITM" | "ATM" | "OTM";
  minMoneynessPct?: number;
  maxMoneynessPct?: number;
  minIv?: number;
  maxIv?: number;
  excludeTickers?: ReadonlySet<string>;
  orderBy: "rvol" | "volume" | "premium" | "vol_oi" | "oi_change";
}

const UV_KEY: Record<UnusualVolumeFilters["orderBy"], (r: UnusualVolumeRow) => number> = {
  rvol: (r) => r.rvol,
  volume: (r) => r.volume,
  premium: (r) => r.premium,
  vol_oi: (r) => r.volumeOiRatio,
  oi_change: (r) => r.oiChange,
};

/**
 * Contracts whose volume on `date` is at least `minRvol` times their mean daily volume over the
 * baseline sessions (`avgVolume`: summed volume / number of sessions, a session without trades
 * counting 0), with `avgVolume >= minAvgVolume` (a contract with no baseline volume has no RVOL and
 * is left out); then the other filters (inclusive); ordered by the key descending, ties by symbol;
 * cut to `limit`.
 * @param baseline the daily rows of each baseline session (their number is the divisor)
 * @example
 * unusualVolume("2024-03-06", todayRows, tenPriorSessions, { limit: 50, minRvol: 2, minAvgVolume: 100, orderBy: "rvol" });
 * @see docs/methodology.md#flow-market-wide-screens
 */
export function unusualVolume(
  date: IsoDate,
  rows: readonly TopContractRow[],
  baseline: ReadonlyArray<readonly TopContractRow[]>,
  f: UnusualVolumeFilters,
): UnusualVolumeRow[] {
  const n = baseline.length;
  if (n === 0) return [];
  const past = new Map<string, number>();
  for (const day of baseline) for (const r of day) past.set(r.symbol, (past.get(r.symbol) ?? 0) + r.totalVolume);
  const out: UnusualVolumeRow[] = [];
  for (const r of rows) {
    if (f.excludeTickers?.has(r.ticker) || !passesShared(r, f)) continue;
    const avgVolume = (past.get(r.symbol) ?? 0) / n;
    if (avgVolume <= 0 || avgVolume < f.minAvgVolume) continue;
    const rvol = r.totalVolume / avgVolume;
    const { prevOi, oiChangePct } = oiFields(r);
    const mny = moneynessPct(r.right, r.strike, r.underlyingPrice);
    const bidShare = r.totalVolume > 0 ? r.bidVolume / r.totalVolume : 0;
    const askShare = r.totalVolume > 0 ? r.askVolume / r.totalVolume : 0;
    if (
      rvol < f.minRvol ||
      !within(r.strike, f.minStrike, f.maxStrike) ||
      (f.expiration !== undefined && r.expiration !== f.expiration) ||
      !within(r.volumeOiRatio, f.minVolOiRatio) ||
      !within(r.oiChange, f.minOiChange, f.maxOiChange) ||
      !within(oiChangePct, f.minOiChangePct) ||
      !within(bidShare, f.minBidImbalance) ||
      !within(askShare, f.minAskImbalance) ||
      (f.moneyness !== undefined && moneynessClass(mny) !== f.moneyness) ||
      !within(mny, f.minMoneynessPct, f.maxMoneynessPct) ||
      !within(r.iv, f.minIv, f.maxIv)
    ) {
      continue;
    }
    out.push({
      symbol: r.symbol,
      ticker: r.ticker,
      expiration: r.expiration,
      strike: r.strike,
      right: r.right,
      dte: r.dte,
      date,
      volume: r.totalVolume,
      avgVolume,
      rvol,
      premium: r.totalPremium,
      openInterest: r.openInterest,
      prevOi,
      oiChange: r.oiChange,
      oiChangePct,
      volumeOiRatio: r.volumeOiRatio,
      bidVolume: r.bidVolume,
      askVolume: r.askVolume,
      bidPct: 100 * bidShare,
      askPct: 100 * askShare,
      lastPrice: r.lastPrice,
      underlyingPrice: r.underlyingPrice,
      iv: r.iv,
      moneynessPct: mny,
      sweepVolume: r.sweepVolume,
      sweepPremium: r.sweepPremium,
      multiLegVolume: r.multiLegVolume,
      multiLegPremium: r.multiLegPremium,
    });
  }
  const key = UV_KEY[f.orderBy];
  return out.sort((a, b) => key(b) - key(a) || bySymbol(a, b)).slice(0, f.limit);
}

/** Filters and order of the unusual-OI screen (the reference's parameters). */
export interface UnusualOiFilters extends ContractRowFilters {
  limit: number;
  minOiChange: number;
  minOiChangePct: number;
  minVolume?: number;
  direction: "opening" | "closing" | "both";
  orderBy: "oi_change" | "oi_change_pct" | "volume" | "premium";
}

const UOI_KEY: Record<UnusualOiFilters["orderBy"], (r: UnusualOiRow) => number> = {
  oi_change: (r) => Math.abs(r.oiChange),
  oi_change_pct: (r) => Math.abs(r.oiChangePct),
  volume: (r) => r.volume,
  premium: (r) => r.premium,
};

/**
 * Contracts traded on `date` whose open interest moved into the session (`oiChange`, OI at the
 * session's start minus OI at the previous session's start, non-zero) by at least `minOiChange`
 * contracts AND `minOiChangePct` percent of the previous OI, in absolute value; `direction` keeps
 * rises (`opening`), falls (`closing`) or both; then the other filters; ordered descending by
 * `|oiChange|`, `|oiChangePct|`, volume or premium, ties by symbol; cut to `limit`.
 * @example
 * unusualOi("2024-03-06", rows, { limit: 50, minOiChange: 500, minOiChangePct: 25, direction: "both", orderBy: "oi_change" });
 * @see docs/methodology.md#flow-market-wide-screens
 */
export function unusualOi(date: IsoDate, rows: readonly TopContractRow[], f: UnusualOiFilters): UnusualOiRow[] {
  const out: UnusualOiRow[] = [];
  for (const r of rows) {
    if (r.oiChange === 0 || !passesShared(r, f) || !within(r.totalVolume, f.minVolume)) continue;
    if ((f.direction === "opening" && r.oiChange < 0) || (f.direction === "closing" && r.oiChange > 0)) continue;
    const { prevOi, oiChangePct } = oiFields(r);
    if (Math.abs(r.oiChange) < f.minOiChange || Math.abs(oiChangePct) < f.minOiChangePct) continue;
    out.push({
      symbol: r.symbol,
      ticker: r.ticker,
      expiration: r.expiration,
      strike: r.strike,
      right: r.right,
      dte: r.dte,
      date,
      openInterest: r.openInterest,
      prevOi,
      oiChange: r.oiChange,
      oiChangePct,
      volume: r.totalVolume,
      premium: r.totalPremium,
      volumeOiRatio: r.volumeOiRatio,
      bidVolume: r.bidVolume,
      askVolume: r.askVolume,
      lastPrice: r.lastPrice,
      underlyingPrice: r.underlyingPrice,
      iv: r.iv,
      positionType: r.oiChange > 0 ? "opening" : "closing",
      sweepVolume: r.sweepVolume,
      sweepPremium: r.sweepPremium,
      multiLegVolume: r.multiLegVolume,
      multiLegPremium: r.multiLegPremium,
    });
  }
  const key = UOI_KEY[f.orderBy];
  return out.sort((a, b) => key(b) - key(a) || bySymbol(a, b)).slice(0, f.limit);
}
