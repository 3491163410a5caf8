// What `/v1/marks` is made of, one trading session at a time: the king-node samples and the sweep
// and block marks of the whole session (up to the market clock's now). A finished session's never
// change, so they are memoised per market (bounded, least recently used out first); a king sample
// at a past minute never changes either, so the live session reuses those. Rules:
// docs/methodology.md#chart-marks; costs and caching: docs/api.md#chart-marks.
import { groupSweeps } from "../../../lib/flow/sweeps";
import type { KernelEngine } from "../../../lib/kernels";
import type { MarketData } from "../../../lib/market/market-data";
import { exposureGrid, heatmapFrame, kingIndex, POSITIONING_DEFAULTS } from "../../../lib/positioning";
import { blockMarks, kingSampleInstants, MARK_RULES, sweepMarks, type BarMark } from "../../../lib/price/marks";
import { sessionBounds, type IsoDate } from "../../../lib/time";
import { cacheShareBytes } from "../../cache/cache-budget";
import { LruCache } from "../../cache/lru-cache";
import { windowedBoards } from "../positioning/windowed-boards";
import { PRICE_SPLIT } from "./price-route";

/** The king strike at a sample instant (null: no king on that board). */
interface KingSample {
  tsMs: number;
  strike: number | null;
}

/** A sweep or block mark with the instant of its event (its `time` is the minute's). */
interface TimedMark {
  tsMs: number;
  mark: BarMark;
}

/** One session's parts: every king sample and event mark of the session up to `upToMs`. */
export interface SessionMarkParts {
  kings: KingSample[];
  events: TimedMark[];
}

/** Finished sessions kept per market, and past king samples (at most; bytes bound them too). */
const MARKS_CACHE_LIMITS = Object.freeze({ sessions: 256, kingSamples: 20_000 });

interface MarksCache {
  sessions: LruCache<string, Promise<SessionMarkParts>>;
  kings: LruCache<string, number | null>;
  /** Sessions computed (not served from the cache): for tests and the bench. */
  computed: number;
}

const caches = new WeakMap<MarketData, MarksCache>();

/** The market's marks cache, made by the first caller within `maxBytes` (default: the budget's `price` share of the default total, in part). */
function cacheOf(market: MarketData, maxBytes = cacheShareBytes(undefined, "price") * PRICE_SPLIT.marks): MarksCache {
  let c = caches.get(market);
  if (!c) {
    c = {
      sessions: new LruCache({ maxEntries: MARKS_CACHE_LIMITS.sessions, maxBytes: maxBytes * 0.9 }),
      kings: new LruCache({ maxEntries: MARKS_CACHE_LIMITS.kingSamples, maxBytes: maxBytes * 0.1 }),
      computed: 0,
    };
    caches.set(market, c);
  }
  return c;
}

/** How many sessions' parts were computed for `market` (cache misses). */
export function sessionsComputed(market: MarketData): number {
  return cacheOf(market).computed;
}

/** What a session's parts are computed with. */
export interface SessionMarksInput {
  market: MarketData;
  kernels: KernelEngine;
  /** The ticker whose tapes are read, and the option root whose board and heatmap links are used. */
  ticker: string;
  root: string;
  date: IsoDate;
  nowMs: number;
  signal?: AbortSignal;
  /** Bytes the market's marks cache may hold (its share of the app's cache budget). */
  cacheBytes?: number;
}

// The king is the default window's (docs/methodology.md#chart-marks): the simulator generates just
// that window's contracts, and the store of record reads just their rows, with the values the full
// board gives them (docs/architecture.md#windowed-boards).
const KING_WINDOW = { maxStrikes: POSITIONING_DEFAULTS.maxStrikes, maxExpirations: POSITIONING_DEFAULTS.maxExpirations };

async function kingAt(i: SessionMarksInput, cache: MarksCache, t: number): Promise<number | null | undefined> {
  const key = `${i.root}|${t}`;
  const known = cache.kings.get(key);
  if (known !== undefined) return known;
  const windowed = windowedBoards(i.market, KING_WINDOW);
  const chain = windowed ? await windowed(i.root, t) : await i.market.chain(i.root, t);
  if (!chain) return undefined;
  const frame = heatmapFrame(exposureGrid(chain, KING_WINDOW, i.kernels), { live: false, layout: "net" });
  const k = kingIndex(frame.strikes, frame.spot);
  const strike = k < 0 ? null : frame.strikes[k].strike;
  cache.kings.set(key, strike);
  return strike;
}

async function computeParts(i: SessionMarksInput, cache: MarksCache): Promise<SessionMarkParts> {
  cache.computed++;
  const { openMs, closeMs } = sessionBounds(i.date);
  const ext = sessionBounds(i.date, { extended: true });
  const upToMs = Math.min(ext.closeMs, i.nowMs);
  const kings: KingSample[] = [];
  for (const t of kingSampleInstants(openMs, closeMs)) {
    if (t > i.nowMs) break;
    i.signal?.throwIfAborted();
    const strike = await kingAt(i, cache, t);
    if (strike !== undefined) kings.push({ tsMs: t, strike });
  }
  // Sweeps are grouped over the whole session so far, so a sweep is one mark whatever window asks.
  const [prints, tape] = await Promise.all([i.market.optionPrints(i.ticker, ext.openMs, upToMs), i.market.offExchangePrints([i.ticker], ext.openMs, upToMs)]);
  const sweeps = groupSweeps(prints).groups.filter((g) => g.totalPremiumUsd >= MARK_RULES.sweepMinPremiumUsd);
  const blocks = tape.filter((p) => p.price * p.size >= MARK_RULES.blockMinNotionalUsd);
  const events = [
    ...sweepMarks(i.root, sweeps).map((mark, k) => ({ tsMs: sweeps[k].firstTsMs, mark })),
    ...blockMarks(i.root, blocks).map((mark, k) => ({ tsMs: blocks[k].tsMs, mark })),
  ];
  return { kings, events };
}

/**
 * The session's parts: from the cache when the session is finished (its extended close is at or
 * before `nowMs`) and was computed before; computed (and, when finished, kept) otherwise.
 */
export function sessionMarkParts(i: SessionMarksInput): Promise<SessionMarkParts> {
  const cache = cacheOf(i.market, i.cacheBytes);
  if (sessionBounds(i.date, { extended: true }).closeMs > i.nowMs) return computeParts(i, cache);
  const key = `${i.ticker}|${i.root}|${i.date}`;
  const hit = cache.sessions.get(key);
  if (hit) return hit;
  // Shared by concurrent callers, so it must not stop when one of them goes away.
  const parts = computeParts({ ...i, signal: undefined }, cache);
  cache.sessions.set(key, parts);
  parts.catch(() => cache.sessions.delete(key));
  return parts;
}
