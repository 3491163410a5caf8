/**
 * Dark-pool totals per ticker, per day or over a range.
 * @see docs/methodology.md#dark-pool-levels-and-daily-totals
 */
import { DARK_POOL_BLOCK_USD } from "./dark-pool-trades";

/** What a daily row needs of a print (its trade date is supplied with it). */
export interface DailyPrint {
  ticker: string;
  price: number;
  size: number;
  notionalUsd: number;
}

/** One row: a ticker on a day (`date` set) or over the range (`date` null). */
export interface DarkPoolDailyRow {
  date: string | null;
  ticker: string;
  sector: string;
  industry: string;
  prints: number;
  shares: number;
  notional: number;
  /** Notional-weighted average price, USD (`notional / shares`). */
  vwap: number;
  blockPrints: number;
  blockNotional: number;
  /** Largest single print, USD. */
  largestPrint: number;
  /** Days with prints in the row. */
  days: number;
  /** Average daily dark-pool shares as a percent of ADV; null when ADV is unknown. */
  pctAvgVol: number | null;
}

/** Sort keys of `/v1/dark-pool/daily`. */
export const DAILY_SORTS = ["notional", "shares", "prints", "block_notional", "block_prints", "largest_print", "date"] as const;
export type DailySort = (typeof DAILY_SORTS)[number];

/**
 * Sums prints into rows, one per ticker per day (`groupBy: "day"`) or per ticker (`"ticker"`).
 * `days` is an iterable of `[date, prints of that date]`; `describe` gives sector and industry.
 * `pctAvgVol` is left null: fill it with `dailyPctAvgVol` for the rows served (ADV costs a fetch).
 * @see docs/methodology.md#dark-pool-levels-and-daily-totals
 */
export function darkPoolDailyRows(
  days: Iterable<readonly [string, readonly DailyPrint[]]>,
  groupBy: "day" | "ticker",
  describe: (ticker: string) => { sector: string; industry: string },
): DarkPoolDailyRow[] {
  const rows = new Map<string, DarkPoolDailyRow & { dayList: Set<string> }>();
  for (const [date, prints] of days) {
    for (const p of prints) {
      const key = groupBy === "day" ? `${p.ticker}|${date}` : p.ticker;
      let r = rows.get(key);
      if (!r) {
        const d = describe(p.ticker);
        r = {
          date: groupBy === "day" ? date : null,
          ticker: p.ticker,
          sector: d.sector,
          industry: d.industry,
          prints: 0,
          shares: 0,
          notional: 0,
          vwap: 0,
          blockPrints: 0,
          blockNotional: 0,
          largestPrint: 0,
          days: 0,
          pctAvgVol: null,
          dayList: new Set(),
        };
        rows.set(key, r);
      }
      r.prints += 1;
      r.shares += p.size;
      r.notional += p.notionalUsd;
      if (p.notionalUsd >= DARK_POOL_BLOCK_USD) {
        r.blockPrints += 1;
        r.blockNotional += p.notionalUsd;
      }
      if (p.notionalUsd > r.largestPrint) r.largestPrint = p.notionalUsd;
      r.dayList.add(date);
    }
  }
  const out: DarkPoolDailyRow[] = [];
  for (const r of rows.values()) {
    const { dayList, ...row } = r;
    row.days = dayList.size;
    row.vwap = row.shares > 0 ? Math.round((row.notional / row.shares) * 1e4) / 1e4 : 0;
    row.notional = Math.round(row.notional * 100) / 100;
    row.blockNotional = Math.round(row.blockNotional * 100) / 100;
    out.push(row);
  }
  return out;
}

/**
 * Average daily dark-pool shares of a row as a percent of the ticker's ADV; null when ADV is unknown.
 * @example dailyPctAvgVol({ shares: 3_000_000, days: 2 }, 10_000_000) // 15
 */
export function dailyPctAvgVol(row: { shares: number; days: number }, advShares: number | null): number | null {
  if (advShares === null || !(advShares > 0) || row.days === 0) return null;
  return Math.round((row.shares / row.days / advShares) * 100 * 1e4) / 1e4;
}

/**
 * Orders rows by `sort` (`date` ties broken by notional, every other key by ticker then date).
 * @see docs/methodology.md#dark-pool-levels-and-daily-totals
 */
export function sortDarkPoolDailyRows(rows: DarkPoolDailyRow[], sort: DailySort, order: "asc" | "desc"): DarkPoolDailyRow[] {
  const sign = order === "asc" ? 1 : -1;
  const num: Record<Exclude<DailySort, "date">, (r: DarkPoolDailyRow) => number> = {
    notional: (r) => r.notional,
    shares: (r) => r.shares,
    prints: (r) => r.prints,
    block_notional: (r) => r.blockNotional,
    block_prints: (r) => r.blockPrints,
    largest_print: (r) => r.largestPrint,
  };
  const byName = (a: DarkPoolDailyRow, b: DarkPoolDailyRow) =>
    (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0) || ((a.date ?? "") < (b.date ?? "") ? -1 : (a.date ?? "") > (b.date ?? "") ? 1 : 0);
  const cmp =
    sort === "date"
      ? (a: DarkPoolDailyRow, b: DarkPoolDailyRow) =>
          sign * ((a.date ?? "") < (b.date ?? "") ? -1 : (a.date ?? "") > (b.date ?? "") ? 1 : 0) || b.notional - a.notional || byName(a, b)
      : (a: DarkPoolDailyRow, b: DarkPoolDailyRow) => sign * (num[sort](a) - num[sort](b)) || byName(a, b);
  return rows.sort(cmp);
}
