// The daily-readings store: each symbol's readings on the closing board of a completed session,
// computed once (a finished session never changes) and kept for the app's lifetime; with the
// server's persisted daily store (server/daily-store) a finished session's reading is read from
// disk when the memo does not have it, and written there when computed, so it is computed once
// per data directory (the background fill usually has it already). Every
// history-based number (IV rank and percentiles, sigma's odds and days, VRP, the history and
// derived routes) reads its sessions from here instead of rebuilding closing boards per request.
// See docs/api.md#volatility-daily-store.
import type { IsoDate, MarketData } from "../../../lib/market/market-data";
import { previousTradingDay, sessionBounds } from "../../../lib/time";
import { sessionCloseReading, type SessionCloseReading } from "../../../lib/vol";
import { cacheShareBytes } from "../../cache/cache-budget";
import { LruCache } from "../../cache/lru-cache";
import { computeOffLoop, type ComputePool } from "../../daily-store/compute-pool";
import { VOL_READING } from "../../daily-store/kinds";
import type { DailyDataStore } from "../../daily-store/store";

/** Sessions of history kept behind each symbol by default: one year (the IV-rank window). */
export const DEFAULT_HISTORY_SESSIONS = 252;

/** Readings kept in memory by default: the whole universe's year (146 x 252) with room to spare. */
const STORE_ENTRIES = 100_000;

/** Daily closing readings per symbol and session. */
export interface DailyStore {
  /** The reading of one session (null when the market has no closing board for it). */
  reading(symbol: string, date: IsoDate): Promise<SessionCloseReading | null>;
  /**
   * The readings of the `sessions` trading sessions before `today`, oldest first; sessions
   * without a board are left out. Computed once per session, shared by every caller.
   */
  before(symbol: string, today: IsoDate, sessions: number): Promise<SessionCloseReading[]>;
  /** True when every one of those sessions is already in the store (no board to build). */
  has(symbol: string, today: IsoDate, sessions: number): boolean;
  /** Sessions computed so far (all symbols). */
  size(): number;
}

/** The trading sessions before `today`, oldest first. */
export function sessionsBefore(today: IsoDate, sessions: number): IsoDate[] {
  const out: IsoDate[] = [];
  let d = today;
  for (let i = 0; i < sessions; i++) {
    d = previousTradingDay(d);
    out.push(d);
  }
  return out.reverse();
}

/** Where a store finds finished sessions beyond its memo, and what "finished" means. */
export interface DailyStoreOptions {
  /** The persisted daily store (absent: memory only). */
  persisted?: DailyDataStore;
  /** The market clock: a session is finished (and persisted) once its close is at or before now. */
  nowMs?: () => number;
  /** Worker threads that build closing readings (absent: built on this thread). */
  compute?: ComputePool;
  /** Bytes the in-memory readings may hold (default: the budget's `vol` share of the default total, in part). */
  maxBytes?: number;
}

/**
 * Parts of the budget's `vol` share: live readings and screener rows, premium lows, daily closing
 * readings. @see docs/operations.md#cache-budget
 */
export const VOL_SPLIT = { memo: 0.4, premiumLows: 0.2, daily: 0.4 } as const;

/** A store over one market. */
export function createDailyStore(market: MarketData, options: DailyStoreOptions = {}): DailyStore {
  const cache = new LruCache<string, Promise<SessionCloseReading | null>>({
    maxEntries: STORE_ENTRIES,
    maxBytes: options.maxBytes ?? cacheShareBytes(undefined, "vol") * VOL_SPLIT.daily,
  });
  const { persisted } = options;
  const now = options.nowMs ?? (() => market.clock.now());
  const finished = (date: IsoDate) => sessionBounds(date).closeMs <= now();
  const remember = (symbol: string, date: IsoDate, r: SessionCloseReading | null) => cache.set(`${symbol}|${date}`, Promise.resolve(r));
  /** The stored reading, put in the memo (undefined when not stored or not finished). */
  const fromDisk = (symbol: string, date: IsoDate): SessionCloseReading | null | undefined => {
    if (!persisted || !finished(date)) return undefined;
    const r = persisted.get<SessionCloseReading | null>(VOL_READING, symbol, date);
    if (r !== undefined) remember(symbol, date, r);
    return r;
  };
  const reading = (symbol: string, date: IsoDate) => {
    const key = `${symbol}|${date}`;
    let p = cache.get(key);
    if (!p) {
      const stored = fromDisk(symbol, date);
      if (stored !== undefined) return Promise.resolve(stored);
      const done = finished(date);
      const task = { kind: VOL_READING, symbol, session: date, nowMs: now() } as const;
      p = computeOffLoop(options.compute, task, () => sessionCloseReading(market, symbol, date)).then((r) => {
        if (done) persisted?.put(VOL_READING, symbol, date, r);
        return r;
      });
      cache.set(key, p);
      // A failed read is not kept: the next caller tries again.
      p.catch(() => cache.delete(key));
    }
    return p;
  };
  return {
    reading,
    async before(symbol, today, sessions) {
      const dates = sessionsBefore(today, sessions);
      const out: SessionCloseReading[] = [];
      // Whatever the memo lacks comes from disk in one range read, before any board is built.
      if (persisted && dates.length > 0 && dates.some((d) => !cache.has(`${symbol}|${d}`))) {
        const stored = persisted.range<SessionCloseReading | null>(VOL_READING, symbol, dates[0], dates[dates.length - 1]);
        for (const d of dates) if (stored.has(d) && finished(d) && !cache.has(`${symbol}|${d}`)) remember(symbol, d, stored.get(d)!);
      }
      // With workers, every missing reading is asked for at once and the loop only awaits them.
      if (options.compute) return (await Promise.all(dates.map((d) => reading(symbol, d)))).filter((r): r is SessionCloseReading => r !== null);
      // Else in order, one board at a time: boards are CPU work, so parallel reads would only interleave.
      for (const d of dates) {
        const fresh = !cache.has(`${symbol}|${d}`);
        const r = await reading(symbol, d);
        if (r) out.push(r);
        // A closing board is tens of ms of CPU and a year of them seconds: let other requests
        // run between two fresh ones instead of holding the event loop for the whole symbol.
        if (fresh) await new Promise((resolve) => setImmediate(resolve));
      }
      return out;
    },
    has(symbol, today, sessions) {
      return sessionsBefore(today, sessions).every((d) => cache.has(`${symbol}|${d}`) || fromDisk(symbol, d) !== undefined);
    },
    size: () => cache.size,
  };
}
