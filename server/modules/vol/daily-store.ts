// The daily-readings store: each symbol's readings on the closing board of a completed session,
// computed once (a finished session never changes) and kept for the app's lifetime. Every
// history-based number (IV rank and percentiles, sigma's odds and days, VRP, the history and
// derived routes) reads its sessions from here instead of rebuilding closing boards per request.
// See docs/api.md#volatility-daily-store.
import type { IsoDate, MarketData } from "../../../lib/market/market-data";
import { previousTradingDay } from "../../../lib/time";
import { sessionCloseReading, type SessionCloseReading } from "../../../lib/vol";
import { LruCache } from "../../cache/lru-cache";

/** Sessions of history kept behind each symbol by default: one year (the IV-rank window). */
export const DEFAULT_HISTORY_SESSIONS = 252;

/** Readings kept in memory: the whole universe's year (146 x 252) with room to spare. */
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

/** A store over one market. */
export function createDailyStore(market: MarketData): DailyStore {
  const cache = new LruCache<string, Promise<SessionCloseReading | null>>(STORE_ENTRIES);
  const reading = (symbol: string, date: IsoDate) => {
    const key = `${symbol}|${date}`;
    let p = cache.get(key);
    if (!p) {
      p = sessionCloseReading(market, symbol, date);
      cache.set(key, p);
      // A failed read is not kept: the next caller tries again.
      p.catch(() => cache.set(key, undefined as never));
    }
    return p;
  };
  return {
    reading,
    async before(symbol, today, sessions) {
      const out: SessionCloseReading[] = [];
      // In order, one board at a time: boards are CPU work, so parallel reads would only interleave.
      for (const d of sessionsBefore(today, sessions)) {
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
      return sessionsBefore(today, sessions).every((d) => cache.has(`${symbol}|${d}`));
    },
    size: () => cache.size,
  };
}
