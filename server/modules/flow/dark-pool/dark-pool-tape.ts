// The off-exchange tape of one ET trade date as `DarkPoolRow`s in time order, memoised per app:
// a finished date is fetched once; today's date is extended with what printed since the last call,
// so a day is never refetched and a cursor walk sees each print once.
import { cacheShareBytes } from "../../../cache/cache-budget";
import { LruCache } from "../../../cache/lru-cache";
import { compareDarkPoolRows, printNotionalUsd, type DarkPoolRow } from "../../../../lib/flow/dark-pool-trades";
import type { OffExchangePrint, SymbolInfo } from "../../../../lib/market";
import { isTradingDay, previousTradingDay, sessionBounds } from "../../../../lib/time";
import type { FlowState } from "../flow-route";
import { flowUniverse } from "../sessions/tape";

/**
 * Parts of the budget's `flowDarkPool` share: whole-market days (about 280k prints, tens of MB
 * each), single-ticker days, filtered results kept for paging.
 */
const DARK_POOL_SPLIT = { market: 0.6, tickers: 0.3, matches: 0.1 } as const;
/**
 * Prints of at least this notional (USD) are also kept in a side list per day: the smallest
 * `min_notional` a market-wide query may ask (spec rule 1), so those queries scan ~10% of the tape.
 */
const LARGE_PRINT_USD = 100_000;
/** Sessions averaged for the average daily volume. @see docs/methodology.md#dark-pool-trades-filters-and-paging */
const ADV_SESSIONS = 10;

interface DayTape {
  rows: DarkPoolRow[];
  /** The rows with `notionalUsd >= LARGE_PRINT_USD`, in the same order. */
  large: DarkPoolRow[];
  /** Prints before this instant are in `rows`. */
  toMs: number;
  /** True once the extended session has closed: nothing more will print. */
  complete: boolean;
  /** The extension in progress (one at a time, so concurrent callers never append twice). */
  pending: Promise<void> | null;
}

interface DarkPoolCaches {
  market: LruCache<string, DayTape>;
  tickers: LruCache<string, DayTape>;
  matches: LruCache<string, unknown>;
}

const caches = new WeakMap<FlowState, DarkPoolCaches>();

function cachesOf(state: FlowState): DarkPoolCaches {
  let c = caches.get(state);
  if (!c) {
    const share = cacheShareBytes(state.services.cacheBytes, "flowDarkPool");
    c = {
      market: new LruCache({ maxBytes: share * DARK_POOL_SPLIT.market }),
      tickers: new LruCache({ maxBytes: share * DARK_POOL_SPLIT.tickers }),
      // A cursor walk reuses its filter's result page after page.
      matches: new LruCache({ maxBytes: share * DARK_POOL_SPLIT.matches }),
    };
    caches.set(state, c);
  }
  return c;
}

/** The universe by ticker (sector, industry, type), memoised: the module's one table. */
export const symbolTable = flowUniverse;

function toRow(p: OffExchangePrint, info: SymbolInfo | undefined): DarkPoolRow {
  return {
    id: p.id,
    tsMs: p.tsMs,
    tsNs: p.tsNs,
    ticker: p.ticker,
    price: p.price,
    size: p.size,
    notionalUsd: printNotionalUsd(p.price, p.size),
    venue: p.venue,
    sector: info?.sector ?? "Unknown",
    industry: info?.industry ?? "Unknown",
  };
}

/** Brings a day's tape up to `nowMs` (never past the market clock or the extended close). */
async function extend(state: FlowState, tape: DayTape, tickers: readonly string[] | null, closeMs: number, nowMs: number): Promise<void> {
  while (tape.pending) await tape.pending;
  if (tape.complete) return;
  const market = state.services.market;
  const untilMs = Math.min(nowMs, market.clock.now(), closeMs);
  if (untilMs <= tape.toMs) return;
  tape.pending = (async () => {
    const table = await symbolTable(state);
    const prints = await market.offExchangePrints(tickers, tape.toMs, untilMs);
    for (const p of prints) {
      const row = toRow(p, table.get(p.ticker));
      tape.rows.push(row);
      if (row.notionalUsd >= LARGE_PRINT_USD) tape.large.push(row);
    }
    tape.toMs = untilMs;
    tape.complete = untilMs >= closeMs;
  })();
  try {
    await tape.pending;
  } finally {
    tape.pending = null;
  }
}

/** True for a trading day of the calendar; false for other days and for dates outside its years. */
function isCalendarTradingDay(date: string): boolean {
  try {
    return isTradingDay(date);
  } catch {
    return false; // outside the calendar's years: no session, so no prints
  }
}

async function dayTape(state: FlowState, date: string, ticker: string | null, nowMs: number, largeOnly: boolean): Promise<DarkPoolRow[]> {
  if (!isCalendarTradingDay(date)) return [];
  const { openMs, closeMs } = sessionBounds(date, { extended: true });
  if (nowMs <= openMs) return [];
  const c = cachesOf(state);
  const cache = ticker === null ? c.market : c.tickers;
  const key = `${date}|${ticker ?? "*"}`;
  let tape = cache.get(key);
  if (!tape) {
    tape = { rows: [], large: [], toMs: openMs, complete: false, pending: null };
    cache.set(key, tape);
  }
  const rowsBefore = tape.rows.length;
  await extend(state, tape, ticker === null ? null : [ticker], closeMs, nowMs);
  // A day grows in place: size it again (over the share it leaves the cache, and is refetched next time).
  if (tape.rows.length !== rowsBefore) cache.set(key, tape);
  return largeOnly ? tape.large : tape.rows;
}

/**
 * Off-exchange prints of a trade date up to `nowMs`, in time order (`compareDarkPoolRows`), for the
 * tickers (every name when null). A list is served from the whole-market tape when that date is
 * already held, else ticker by ticker. With `minNotionalUsd >= LARGE_PRINT_USD` the result may
 * hold only the large prints (the caller filters on notional anyway).
 */
export async function darkPoolDay(state: FlowState, date: string, tickers: readonly string[] | null, nowMs: number, minNotionalUsd = 0): Promise<DarkPoolRow[]> {
  const largeOnly = minNotionalUsd >= LARGE_PRINT_USD;
  if (tickers === null) return before(await dayTape(state, date, null, nowMs, largeOnly), nowMs);
  if (cachesOf(state).market.get(`${date}|*`)) {
    const want = new Set(tickers);
    return before(await dayTape(state, date, null, nowMs, largeOnly), nowMs).filter((r) => want.has(r.ticker));
  }
  const parts: DarkPoolRow[][] = [];
  for (const t of tickers) parts.push(before(await dayTape(state, date, t, nowMs, largeOnly), nowMs));
  return parts.length === 1 ? parts[0] : parts.flat().sort(compareDarkPoolRows);
}

/** The rows printed before `nowMs` (a tape may run ahead of this request, extended by a later one). */
function before(rows: DarkPoolRow[], nowMs: number): DarkPoolRow[] {
  if (rows.length === 0 || rows[rows.length - 1].tsMs < nowMs) return rows;
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid].tsMs < nowMs) lo = mid + 1;
    else hi = mid;
  }
  return rows.slice(0, lo);
}

/** Consolidated (extended-session) volume of a ticker on a date, shares; memoised. */
async function sessionVolume(state: FlowState, ticker: string, date: string): Promise<number> {
  const key = `dark-pool|vol|${ticker}|${date}`;
  const hit = state.memo.get(key) as number | undefined;
  if (hit !== undefined) return hit;
  const { openMs, closeMs } = sessionBounds(date, { extended: true });
  const bars = await state.services.market.minuteBars(ticker, openMs, closeMs, { extended: true });
  let v = 0;
  for (let i = 0; i < bars.v.length; i++) v += bars.v[i];
  state.memo.set(key, v);
  return v;
}

/**
 * Average daily volume (shares) of a ticker before a trade date: the mean consolidated volume of the
 * `ADV_SESSIONS` sessions before it, or null when none traded.
 * @see docs/methodology.md#dark-pool-trades-filters-and-paging
 */
export async function averageDailyVolume(state: FlowState, ticker: string, date: string): Promise<number | null> {
  const key = `dark-pool|adv|${ticker}|${date}`;
  const hit = state.memo.get(key) as number | null | undefined;
  if (hit !== undefined) return hit;
  let d = date;
  let sum = 0;
  let n = 0;
  for (let i = 0; i < ADV_SESSIONS; i++) {
    try {
      d = previousTradingDay(d);
    } catch {
      break; // before the calendar's first year: average what there is
    }
    const v = await sessionVolume(state, ticker, d);
    if (v > 0) {
      sum += v;
      n += 1;
    }
  }
  const adv = n > 0 ? sum / n : null;
  state.memo.set(key, adv);
  return adv;
}

/**
 * A filter's matching rows, memoised under `key` (the filter) and the tapes' lengths: tapes only
 * grow and are cut at `nowMs`, so equal lengths mean equal rows, and a cursor walk filters once.
 */
export async function memoMatches<T>(state: FlowState, key: string, version: string, compute: () => Promise<T>): Promise<T> {
  const cache = cachesOf(state).matches;
  const hit = cache.get(key) as { version: string; value: T } | undefined;
  if (hit && hit.version === version) return hit.value;
  const value = await compute();
  cache.set(key, { version, value });
  return value;
}
