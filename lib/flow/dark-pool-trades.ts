/**
 * Dark-pool (off-exchange) print queries: the row shape, the filters, time paging by cursor and
 * ranking by size. Pure; the server fetches the tape and supplies sector, industry and ADV.
 * @see docs/methodology.md#dark-pool-trades-filters-and-paging
 */
import { compareTsNs } from "../market/prints/ts-ns";
import { FlowError } from "./errors";

/** A notional of at least this many USD makes a print a block. @see docs/methodology.md#dark-pool-levels-and-daily-totals */
export const DARK_POOL_BLOCK_USD = 1_000_000;

/** One off-exchange print with the fields the dark-pool endpoints filter on. */
export interface DarkPoolRow {
  id: string;
  tsMs: number;
  /** Nanoseconds since the epoch, decimal string (orders prints within a millisecond). */
  tsNs: string;
  ticker: string;
  /** USD per share. */
  price: number;
  /** Shares. */
  size: number;
  /** `price * size`, USD rounded to the cent. */
  notionalUsd: number;
  venue: "FINN" | "FINC";
  sector: string;
  industry: string;
}

/** Decimal places of a print price the notional is exact to (sub-penny prices carry at most 4). */
const PRICE_DECIMALS = 1e6;

/**
 * Notional of a print, USD rounded to the cent, half a cent up. Computed on integers (millionths
 * of a dollar), not on the binary product: `145.545 * 131` is 19066.394999... in binary, and a
 * rounding of that reads .39 where the decimal notional 19066.395 rounds to .40.
 * @example printNotionalUsd(145.545, 131) // 19066.4
 * @see docs/methodology.md#dark-pool-trades-filters-and-paging
 */
export function printNotionalUsd(price: number, size: number): number {
  const priceUnits = Math.round(price * PRICE_DECIMALS);
  const units = priceUnits * size;
  const unitsPerCent = PRICE_DECIMALS / 100;
  if (Number.isSafeInteger(units)) return Math.floor((units + unitsPerCent / 2) / unitsPerCent) / 100;
  if (!Number.isInteger(size)) return Math.round(price * size * 100) / 100;
  const big = BigInt(priceUnits) * BigInt(size) + BigInt(unitsPerCent / 2);
  return Number(big / BigInt(unitsPerCent)) / 100;
}

/**
 * The print's size as a percent of the ticker's average daily volume, or null when no ADV is known.
 * @example pctOfAvgVolume(15_530, 100_000) // 15.53
 * @see docs/methodology.md#dark-pool-trades-filters-and-paging
 */
export function pctOfAvgVolume(sizeShares: number, advShares: number | null | undefined): number | null {
  if (advShares === null || advShares === undefined || !(advShares > 0)) return null;
  return Math.round((sizeShares / advShares) * 100 * 1e4) / 1e4;
}

/** Filters of `/v1/dark-pool/trades` other than the tickers and dates (which pick the tape). */
export interface DarkPoolFilter {
  minNotionalUsd?: number;
  maxNotionalUsd?: number;
  minPrice?: number;
  maxPrice?: number;
  minSize?: number;
  maxSize?: number;
  venue?: "FINN" | "FINC";
  /** Lower-cased sector names. */
  sectors?: ReadonlySet<string>;
  /** Lower-cased industry names. */
  industries?: ReadonlySet<string>;
  /** Strict bounds on the trade time, nanosecond strings. */
  afterNs?: string;
  beforeNs?: string;
  /** A time-of-day window as instants: `fromMs <= tsMs < toMs` (set per trade date). */
  fromMs?: number;
  toMs?: number;
}

/** True when a row passes every filter that is set. */
export function matchesDarkPoolFilter(row: DarkPoolRow, f: DarkPoolFilter): boolean {
  if (f.minNotionalUsd !== undefined && row.notionalUsd < f.minNotionalUsd) return false;
  if (f.maxNotionalUsd !== undefined && row.notionalUsd > f.maxNotionalUsd) return false;
  if (f.minPrice !== undefined && row.price < f.minPrice) return false;
  if (f.maxPrice !== undefined && row.price > f.maxPrice) return false;
  if (f.minSize !== undefined && row.size < f.minSize) return false;
  if (f.maxSize !== undefined && row.size > f.maxSize) return false;
  if (f.venue !== undefined && row.venue !== f.venue) return false;
  if (f.sectors && !f.sectors.has(row.sector.toLowerCase())) return false;
  if (f.industries && !f.industries.has(row.industry.toLowerCase())) return false;
  if (f.fromMs !== undefined && row.tsMs < f.fromMs) return false;
  if (f.toMs !== undefined && row.tsMs >= f.toMs) return false;
  if (f.afterNs !== undefined && compareTsNs(row.tsNs, f.afterNs) <= 0) return false;
  if (f.beforeNs !== undefined && compareTsNs(row.tsNs, f.beforeNs) >= 0) return false;
  return true;
}

/** The total time order of prints: trade time (ns), then id. */
export function compareDarkPoolRows(a: { tsNs: string; id: string }, b: { tsNs: string; id: string }): number {
  return compareTsNs(a.tsNs, b.tsNs) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** A position in the time order and the direction it was walked in. */
export interface DarkPoolCursor {
  order: "asc" | "desc";
  tsNs: string;
  id: string;
}

const CURSOR_PREFIX = "dp1|";
const CURSOR_RE = /^dp1\|(asc|desc)\|(\d{1,25})\|([\x21-\x7e]{0,200})$/;

/** Opaque text of a cursor (base64url). */
export function encodeDarkPoolCursor(c: DarkPoolCursor): string {
  return btoa(`${CURSOR_PREFIX}${c.order}|${c.tsNs}|${c.id}`).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The cursor a text encodes.
 * @throws FlowError `invalid_parameter` (parameter `cursor`) for anything `encodeDarkPoolCursor` did not write
 */
export function decodeDarkPoolCursor(text: string): DarkPoolCursor {
  let plain = "";
  try {
    plain = /^[A-Za-z0-9_-]{1,400}$/.test(text) ? atob(text.replace(/-/g, "+").replace(/_/g, "/")) : "";
  } catch {
    plain = "";
  }
  const m = CURSOR_RE.exec(plain);
  if (!m) throw new FlowError("invalid_parameter", "Invalid value for `cursor`: pass back `meta.nextCursor` unchanged.", "cursor");
  return { order: m[1] as "asc" | "desc", tsNs: m[2], id: m[3] };
}

/** First index whose row is strictly after `key` in the time order (rows ascending). */
function firstAfter(rows: readonly DarkPoolRow[], key: { tsNs: string; id: string }): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareDarkPoolRows(rows[mid], key) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose row is at or after `key` (rows ascending). */
function firstAtOrAfter(rows: readonly DarkPoolRow[], key: { tsNs: string; id: string }): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareDarkPoolRows(rows[mid], key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A page and where the next one starts. */
export interface DarkPoolPage<R> {
  rows: R[];
  /** Null when a newest-first walk is exhausted; always set for `asc`. */
  nextCursor: string | null;
}

/** The position before every print: an `asc` walk that has seen nothing yet. */
const ORIGIN = { tsNs: "0", id: "" };

/**
 * One page of a time-ordered walk. `rows` must be in ascending time order (`compareDarkPoolRows`).
 * A cursor resumes strictly after (asc) or before (desc) the last row returned, so walking by
 * cursor never repeats or skips a print, and prints that arrive later (newer) extend an `asc`
 * walk while leaving a `desc` walk untouched.
 * @throws FlowError `invalid_parameter` (parameter `cursor`) when the cursor's order is not `order`
 * @see docs/methodology.md#dark-pool-trades-filters-and-paging
 */
export function pageByTime(
  rows: readonly DarkPoolRow[],
  o: { order: "asc" | "desc"; limit: number; offset: number; cursor?: DarkPoolCursor },
): DarkPoolPage<DarkPoolRow> {
  if (o.cursor && o.cursor.order !== o.order) {
    throw new FlowError("invalid_parameter", `Invalid value for \`cursor\`: it continues an order=${o.cursor.order} walk; pass the same order.`, "cursor");
  }
  if (o.order === "asc") {
    const start = (o.cursor ? firstAfter(rows, o.cursor) : 0) + o.offset;
    const page = rows.slice(start, start + o.limit);
    const last = page.length > 0 ? page[page.length - 1] : (o.cursor ?? (start > 0 ? rows[Math.min(start, rows.length) - 1] : ORIGIN));
    return { rows: page, nextCursor: encodeDarkPoolCursor({ order: "asc", tsNs: last.tsNs, id: last.id }) };
  }
  const end = (o.cursor ? firstAtOrAfter(rows, o.cursor) : rows.length) - o.offset;
  const begin = Math.max(0, end - o.limit);
  const page = end > 0 ? rows.slice(begin, end).reverse() : [];
  const last = page[page.length - 1];
  return { rows: page, nextCursor: begin > 0 && last ? encodeDarkPoolCursor({ order: "desc", tsNs: last.tsNs, id: last.id }) : null };
}

/**
 * One page of prints ranked by notional or size (ties by time, newest first under `desc`), paged by offset.
 * @see docs/methodology.md#dark-pool-trades-filters-and-paging
 */
export function pageByRank(rows: readonly DarkPoolRow[], o: { sort: "notional" | "size"; order: "asc" | "desc"; limit: number; offset: number }): DarkPoolRow[] {
  const sign = o.order === "asc" ? 1 : -1;
  const key = o.sort === "notional" ? (r: DarkPoolRow) => r.notionalUsd : (r: DarkPoolRow) => r.size;
  const sorted = [...rows].sort((a, b) => sign * (key(a) - key(b) || compareDarkPoolRows(a, b)));
  return sorted.slice(o.offset, o.offset + o.limit);
}
