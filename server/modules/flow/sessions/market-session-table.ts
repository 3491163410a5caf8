/**
 * A finished session's market-wide table (daily-store kind `market-session`): every universe
 * ticker's session totals (the top-underlying screens) and the market tide summed per minute under
 * each filter set. Read from a small cache, else the store; built from every universe ticker's
 * session summary (the fill worker's producer, and the first market-wide request that read them all).
 * @see docs/methodology.md#flow-market-session-table
 */
import { putFromLoop } from "../../../daily-store/store";
import type { TickerSessionTotals } from "../../../../lib/flow";
import { tideMinuteSeries, type TideFilters, type TideMinuteSeries } from "../../../../lib/flow/market-tide";
import { sessionBounds } from "../../../../lib/time";
import { cacheShareBytes } from "../../../cache/cache-budget";
import { LruCache } from "../../../cache/lru-cache";
import { MARKET_SESSION, MARKET_SYMBOL } from "../../../daily-store/kinds";
import { isFinishedSession } from "./contract-top-table";
import type { FlowState } from "../flow-route";
import { summariesOf, type SessionSummary } from "./session-summary";
import { flowUniverse } from "./tape";

/** What the store keeps for one session. */
export interface MarketSessionTable {
  /** The universe's tickers, in order: `totals` follows it. */
  tickers: string[];
  /** Each ticker's session totals; null when it did not trade. */
  totals: Array<TickerSessionTotals | null>;
  /** Minutes of the session (open to close). */
  minutes: number;
  /** The tide series of every ticker summed per minute, one per filter set ({@link tideVariant}). */
  tide: TideMinuteSeries[];
}

/** An opened table: the tickers' positions looked up once. */
interface OpenMarketSessionTable {
  table: MarketSessionTable;
  indexOf: ReadonlyMap<string, number>;
}

/** Filter sets of the tide, in `tide` order: bit 1 leaves multi-leg trades out, bit 2 deep-ITM trades. */
const TIDE_VARIANTS: readonly TideFilters[] = [{}, { excludeMultiLeg: true }, { excludeDeepItm: true }, { excludeMultiLeg: true, excludeDeepItm: true }];

/** Position of a filter set in `tide`. */
function tideVariant(f: TideFilters): number {
  return (f.excludeMultiLeg ? 1 : 0) | (f.excludeDeepItm ? 2 : 0);
}

/** Opened tables kept per app, within the budget's `flowMarketTables` share (one is ~60 kB; the widest intraday tide reads 30 sessions). */

const tables = new WeakMap<FlowState, LruCache<string, OpenMarketSessionTable>>();

function cacheOf(state: FlowState): LruCache<string, OpenMarketSessionTable> {
  let c = tables.get(state);
  if (!c) {
    c = new LruCache<string, OpenMarketSessionTable>({ maxBytes: cacheShareBytes(state.services.cacheBytes, "flowMarketTables") });
    tables.set(state, c);
  }
  return c;
}

/** Minutes from the open to the close of `date`'s session. */
function sessionMinutes(date: string): number {
  const { openMs, closeMs } = sessionBounds(date);
  return Math.round((closeMs - openMs) / 60_000);
}

async function universeTickers(state: FlowState): Promise<string[]> {
  return [...(await flowUniverse(state)).keys()];
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((t, i) => t === b[i]);

function open(table: MarketSessionTable): OpenMarketSessionTable {
  return { table, indexOf: new Map(table.tickers.map((t, i) => [t, i])) };
}

/** The table of `tickers`' summaries (the universe's, in order) of session `date`. */
function marketSessionTable(date: string, tickers: readonly string[], summaries: readonly SessionSummary[]): MarketSessionTable {
  const minutes = sessionMinutes(date);
  const folds = summaries.map((s) => s.tideMinutes);
  return {
    tickers: [...tickers],
    totals: summaries.map(({ row }) =>
      row
        ? {
            totalPremium: row.totalPremium,
            totalVolume: row.totalVolume,
            callPremium: row.callPremium,
            putPremium: row.putPremium,
            callVolume: row.callVolume,
            putVolume: row.putVolume,
          }
        : null,
    ),
    minutes,
    tide: TIDE_VARIANTS.map((f) => tideMinuteSeries(folds, minutes, f)),
  };
}

/**
 * The table of a finished session if one is cached or stored, else undefined (the caller reads
 * the summaries). A table written for another universe is not used.
 */
async function storedMarketSession(state: FlowState, date: string, nowMs: number): Promise<OpenMarketSessionTable | undefined> {
  if (!isFinishedSession(date, nowMs)) return undefined;
  const cache = cacheOf(state);
  const hit = cache.get(date);
  if (hit) return hit;
  const stored = state.services.dailyStore?.get<MarketSessionTable>(MARKET_SESSION, MARKET_SYMBOL, date);
  if (!stored || !sameList(stored.tickers, await universeTickers(state))) return undefined;
  const opened = open(stored);
  cache.set(date, opened);
  return opened;
}

/**
 * After a request read every universe ticker's summary of a finished session: store the table
 * (when the store lacks it) and cache it. `summaries` follow `tickers`.
 */
async function rememberMarketSession(state: FlowState, date: string, nowMs: number, tickers: readonly string[], summaries: readonly SessionSummary[]): Promise<void> {
  if (!isFinishedSession(date, nowMs) || !sameList(tickers, await universeTickers(state))) return;
  const table = marketSessionTable(date, tickers, summaries);
  cacheOf(state).set(date, open(table));
  const store = state.services.dailyStore;
  // Deflated off the loop.
  if (store && !store.symbolsAt(MARKET_SESSION, date).has(MARKET_SYMBOL)) await putFromLoop(store, MARKET_SESSION, MARKET_SYMBOL, date, table);
}

/** The table of session `date` from every universe ticker's summary (stored ones read, missing ones computed): the fill worker's producer. */
export async function buildMarketSessionTable(state: FlowState, date: string, nowMs: number): Promise<MarketSessionTable> {
  const tickers = await universeTickers(state);
  return marketSessionTable(date, tickers, await summariesOf(state, tickers, date, nowMs));
}

/**
 * Each ticker's session totals on `date` (in `tickers` order): from the session's table when
 * there is one holding them all, else from the summaries (then the table is kept when `tickers`
 * is the universe).
 */
export async function sessionTotalsOf(
  state: FlowState,
  tickers: readonly string[],
  date: string,
  nowMs: number,
  signal?: AbortSignal,
): Promise<Array<TickerSessionTotals | null>> {
  const stored = await storedMarketSession(state, date, nowMs);
  if (stored && tickers.every((t) => stored.indexOf.has(t))) return tickers.map((t) => stored.table.totals[stored.indexOf.get(t)!]);
  const summaries = await summariesOf(state, tickers, date, nowMs, signal);
  await rememberMarketSession(state, date, nowMs, tickers, summaries);
  return summaries.map((s) => s.row);
}

/**
 * The tide of `tickers` on `date` over its first `minutes`, either as summed series (a finished
 * session's table, when `tickers` is its whole universe; `folds` then empty) or as the tickers' folds (then the
 * table is kept when `tickers` is the universe).
 */
export async function tideOf(
  state: FlowState,
  tickers: readonly string[],
  date: string,
  minutes: number,
  nowMs: number,
  f: TideFilters,
  signal?: AbortSignal,
): Promise<{ folds: SessionSummary["tideMinutes"][]; series?: TideMinuteSeries }> {
  const stored = await storedMarketSession(state, date, nowMs);
  if (stored && stored.table.minutes === minutes && sameList(tickers, stored.table.tickers)) return { folds: [], series: stored.table.tide[tideVariant(f)] };
  const summaries = await summariesOf(state, tickers, date, nowMs, signal);
  await rememberMarketSession(state, date, nowMs, tickers, summaries);
  return { folds: summaries.map((s) => s.tideMinutes) };
}
