/**
 * A finished session's print-time index (daily-store kind `print-index`): which universe tickers
 * printed at each millisecond of the session, so a trade id naming a print's exact time reads
 * those tickers' prints only instead of every ticker's. Built by the fill worker from every
 * ticker's session prints; read from a small cache, else the store.
 * @see docs/methodology.md#flow-print-time-index
 */
import { sessionBounds } from "../../../../lib/time";
import { cacheShareBytes } from "../../../cache/cache-budget";
import { LruCache } from "../../../cache/lru-cache";
import { MARKET_SYMBOL, PRINT_INDEX } from "../../../daily-store/kinds";
import { isFinishedSession } from "./contract-top-table";
import type { FlowState } from "../flow-route";
import { yieldToTimers } from "./session-summary";
import { flowUniverse, sessionPrints } from "./tape";

/** What the store keeps: one entry per (millisecond, ticker) with a print, in time then ticker order. */
export interface PrintTimeIndex {
  /** The universe's tickers, in order (`ticker` holds positions in it). */
  tickers: string[];
  /** Milliseconds between consecutive entries, the first from the session's open (small numbers: they deflate well). */
  gaps: Uint32Array;
  ticker: Uint16Array;
}

/** An opened index: absolute milliseconds. */
interface OpenPrintTimeIndex {
  index: PrintTimeIndex;
  ms: Float64Array;
}

/** Most tickers an index can hold: entries sort on `offset * TICKER_SLOTS + position`. */
const TICKER_SLOTS = 4096;
/** Opened indexes kept per app, within the budget's `flowPrintIndexes` share (~3 MB each for the simulated universe's 330,000 prints a session). */

const caches = new WeakMap<FlowState, LruCache<string, OpenPrintTimeIndex>>();

function cacheOf(state: FlowState): LruCache<string, OpenPrintTimeIndex> {
  let c = caches.get(state);
  if (!c) {
    c = new LruCache<string, OpenPrintTimeIndex>({ maxBytes: cacheShareBytes(state.services.cacheBytes, "flowPrintIndexes") });
    caches.set(state, c);
  }
  return c;
}

/**
 * The index of session `date` from every universe ticker's prints (`printsOf(ticker)`, any order).
 * @example printTimeIndex("2024-03-05", ["SPY"], () => prints).ticker.length // distinct print milliseconds of SPY
 */
export async function printTimeIndex(
  date: string,
  tickers: readonly string[],
  printsOf: (ticker: string) => Promise<ReadonlyArray<{ tsMs: number }>>,
): Promise<PrintTimeIndex> {
  if (tickers.length > TICKER_SLOTS) throw new Error(`print-time index: at most ${TICKER_SLOTS} tickers, got ${tickers.length}`);
  const { openMs } = sessionBounds(date);
  const keys: number[] = [];
  for (let i = 0; i < tickers.length; i++) {
    await yieldToTimers();
    for (const p of await printsOf(tickers[i])) if (p.tsMs >= openMs) keys.push((p.tsMs - openMs) * TICKER_SLOTS + i);
  }
  const sorted = Float64Array.from(keys).sort();
  const gaps: number[] = [];
  const ticker: number[] = [];
  let prevKey = -1;
  let prevMs = 0;
  for (const k of sorted) {
    if (k === prevKey) continue;
    prevKey = k;
    const offset = Math.floor(k / TICKER_SLOTS);
    gaps.push(offset - prevMs);
    ticker.push(k - offset * TICKER_SLOTS);
    prevMs = offset;
  }
  return { tickers: [...tickers], gaps: Uint32Array.from(gaps), ticker: Uint16Array.from(ticker) };
}

/** The index of session `date` built from the universe's session prints: the fill worker's producer. */
export async function buildPrintTimeIndex(state: FlowState, date: string): Promise<PrintTimeIndex> {
  const { closeMs } = sessionBounds(date);
  return printTimeIndex(date, [...(await flowUniverse(state)).keys()], (t) => sessionPrints(state, t, date, closeMs));
}

function open(index: PrintTimeIndex, date: string): OpenPrintTimeIndex {
  const ms = new Float64Array(index.gaps.length);
  let at = sessionBounds(date).openMs;
  for (let i = 0; i < ms.length; i++) ms[i] = at += index.gaps[i];
  return { index, ms };
}

/**
 * The tickers (universe order) with a print at millisecond `ms` of finished session `date`, when
 * the session's index is stored for the current universe; else undefined (the caller reads every ticker).
 */
export async function tickersPrintingAt(state: FlowState, date: string, ms: number, nowMs: number): Promise<string[] | undefined> {
  const { openMs, closeMs } = sessionBounds(date);
  // The index holds the session's regular-hours prints only.
  if (!isFinishedSession(date, nowMs) || ms < openMs || ms >= closeMs) return undefined;
  const cache = cacheOf(state);
  let opened = cache.get(date);
  if (!opened) {
    const stored = state.services.dailyStore?.get<PrintTimeIndex>(PRINT_INDEX, MARKET_SYMBOL, date);
    const universe = [...(await flowUniverse(state)).keys()];
    if (!stored || stored.tickers.length !== universe.length || stored.tickers.some((t, i) => t !== universe[i])) return undefined;
    opened = open(stored, date);
    cache.set(date, opened);
  }
  const { ms: times, index } = opened;
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid] < ms) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < times.length && times[i] === ms; i++) out.push(index.tickers[index.ticker[i]]);
  return out;
}
