import { LruCache } from "../../cache/lru-cache";
import type { AppServices } from "../../services";
import { routeDefiner } from "../define-route";
import { createCoverage, type Coverage } from "./coverage";
import { createDailyStore, DEFAULT_HISTORY_SESSIONS, type DailyStore } from "./daily-store";

/** Memoised live readings kept per app (one per symbol and minute). */
const MEMO_ENTRIES = 5_000;

/** Tuning of the volatility module. */
export interface VolOptions {
  /**
   * Completed sessions of daily readings kept behind each symbol (IV rank, sigma odds, VRP):
   * default 252 (one year). Tests lower it to keep cold paths short.
   */
  historySessions?: number;
}

/** The volatility module's state. */
export interface VolState {
  services: AppServices;
  /** Live readings per (symbol, board minute) and other per-minute values (screener rows). */
  memo: LruCache<string, unknown>;
  /** The covered symbols (option roots and tickers with a PM-settled chain), read once. */
  coverage: Coverage;
  /** Daily closing readings per symbol and session, each computed once. */
  daily: DailyStore;
  /** Sessions of history behind every history-based reading. */
  historySessions: number;
}

/** The volatility module's state for one app (nothing is computed until a route asks). */
export function createVolState(services: AppServices, options: VolOptions = {}): VolState {
  return {
    services,
    memo: new LruCache<string, unknown>(MEMO_ENTRIES),
    coverage: createCoverage(services.market),
    daily: createDailyStore(services.market),
    historySessions: options.historySessions ?? DEFAULT_HISTORY_SESSIONS,
  };
}

/** `defineRoute` for volatility routes (`ctx.state` is the `VolState`). */
export const volRoute = routeDefiner<VolState>();
