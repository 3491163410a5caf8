/**
 * A finished session's market-wide contract table (daily-store kind `contract-top`): read from a
 * small cache, else the store; built from every universe ticker's session summary (the fill
 * worker's producer, and the first market-wide request that read them all).
 * @see docs/methodology.md#flow-contract-top-table
 */
import { contractTable, contractTableRows, openContractTable, type ContractTable, type OpenContractTable, type TopContractRow } from "../../../../lib/flow";
import { sessionBounds } from "../../../../lib/time";
import { cacheShareBytes } from "../../../cache/cache-budget";
import { LruCache } from "../../../cache/lru-cache";
import { CONTRACT_TOP, MARKET_SYMBOL } from "../../../daily-store/kinds";
import { putFromLoop } from "../../../daily-store/store";
import type { FlowState } from "../flow-route";
import { summariesOf } from "./session-summary";
import { flowUniverse, sessionUptoMs } from "./tape";

/** Opened tables kept per app, within the budget's `flowContractTables` share: one is ~10 MB of columns; a weekly scan reads five. */

const tables = new WeakMap<FlowState, LruCache<string, OpenContractTable>>();

function cacheOf(state: FlowState): LruCache<string, OpenContractTable> {
  let c = tables.get(state);
  if (!c) {
    c = new LruCache<string, OpenContractTable>({ maxBytes: cacheShareBytes(state.services.cacheBytes, "flowContractTables") });
    tables.set(state, c);
  }
  return c;
}

/** True once `date`'s session has closed at `nowMs` (its data never changes again). */
export function isFinishedSession(date: string, nowMs: number): boolean {
  return sessionUptoMs(date, nowMs) >= sessionBounds(date).closeMs;
}

/** The universe's tickers in order: the table's rows follow this order. */
async function universeTickers(state: FlowState): Promise<string[]> {
  return [...(await flowUniverse(state)).keys()];
}

/**
 * The table of a finished session if one is cached or stored, else undefined (the caller reads
 * the summaries). A table written for another universe is not used.
 */
export async function storedContractTable(state: FlowState, date: string, nowMs: number): Promise<OpenContractTable | undefined> {
  if (!isFinishedSession(date, nowMs)) return undefined;
  const cache = cacheOf(state);
  const hit = cache.get(date);
  if (hit) return hit;
  const stored = state.services.dailyStore?.get<ContractTable>(CONTRACT_TOP, MARKET_SYMBOL, date);
  if (!stored) return undefined;
  const universe = await universeTickers(state);
  if (stored.tickers.length !== universe.length || stored.tickers.some((t, i) => t !== universe[i])) return undefined;
  const open = openContractTable(stored);
  cache.set(date, open);
  return open;
}

/**
 * The tickers to limit a table to: undefined when `tickers` is the table's whole list (no
 * filter), a set when it is a part of it, null when it names a ticker the table lacks.
 */
export function tableSubset(table: OpenContractTable, tickers: readonly string[]): ReadonlySet<string> | undefined | null {
  const all = table.table.tickers;
  if (tickers.length === all.length && tickers.every((t, i) => t === all[i])) return undefined;
  const have = new Set(all);
  return tickers.every((t) => have.has(t)) ? new Set(tickers) : null;
}

/**
 * After a request read every universe ticker's finished session: store the table (when the
 * store lacks it) and cache it. `rows` are the tickers' contracts concatenated in `tickers` order.
 */
export async function rememberContractTable(state: FlowState, date: string, nowMs: number, tickers: readonly string[], rows: readonly TopContractRow[]): Promise<void> {
  if (!isFinishedSession(date, nowMs)) return;
  const universe = await universeTickers(state);
  if (tickers.length !== universe.length || tickers.some((t, i) => t !== universe[i])) return;
  const table = contractTable(tickers, rows);
  cacheOf(state).set(date, openContractTable(table));
  const store = state.services.dailyStore;
  // ~10 MB of columns: deflated off the loop.
  if (store && !store.symbolsAt(CONTRACT_TOP, date).has(MARKET_SYMBOL)) await putFromLoop(store, CONTRACT_TOP, MARKET_SYMBOL, date, table);
}

/**
 * The table of session `date` built from every universe ticker's summary (stored ones read,
 * missing ones computed): the fill worker's producer.
 */
export async function buildContractTable(state: FlowState, date: string, nowMs: number): Promise<ContractTable> {
  const tickers = await universeTickers(state);
  const summaries = await summariesOf(state, tickers, date, nowMs);
  return contractTable(
    tickers,
    summaries.flatMap((s) => s.contracts),
  );
}

/**
 * The contract rows of `tickers` (a market-wide scan, in order) on session `date`: from the
 * session's table when there is one, else from the summaries (then the table is kept).
 */
export async function marketContractRows(state: FlowState, tickers: readonly string[], date: string, nowMs: number, signal?: AbortSignal): Promise<TopContractRow[]> {
  const table = await storedContractTable(state, date, nowMs);
  const subset = table && tableSubset(table, tickers);
  if (table && subset !== null) return contractTableRows(table, subset);
  const rows = (await summariesOf(state, tickers, date, nowMs, signal)).flatMap((s) => s.contracts);
  await rememberContractTable(state, date, nowMs, tickers, rows);
  return rows;
}
