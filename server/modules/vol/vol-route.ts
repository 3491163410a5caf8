import { cacheShareBytes } from "../../cache/cache-budget";
import { LruCache } from "../../cache/lru-cache";
import type { MemoLow } from "./premium-low";
import type { AppServices } from "../../services";
import type { StreamHub } from "../../streams/stream-hub";
import { routeDefiner } from "../define-route";
import type { VolStreamQuery } from "./vol-source";
import { sessionDateAt } from "../../../lib/time";
import { createCoverage, type Coverage } from "./coverage";
import { VOL_READING } from "../../daily-store/kinds";
import { warmRecordCloses } from "./event-record";
import { liveReading } from "./live-reading";
import { optionVolume } from "../../../lib/vol/screener-fields";
import { createDailyStore, DEFAULT_HISTORY_SESSIONS, VOL_SPLIT, type DailyStore } from "./daily-store";

/** The S&P reference of `ratio_vix` (spec: the volatility module keys the S&P complex on SPXW). */
export const REFERENCE_SYMBOL = "SPXW";

/** Memoised live readings kept per app (one per symbol and minute). */
const MEMO_ENTRIES = 5_000;

/** Premium lows kept: every covered root's tilt contracts (146 x up to 14) several times over. */
const PREMIUM_LOW_ENTRIES = 10_000;

/** Tuning of the volatility module. */
export interface VolOptions {
  /**
   * Completed sessions of daily readings kept behind each symbol (IV rank, sigma odds, VRP):
   * default 252 (one year). Tests lower it to keep cold paths short.
   */
  historySessions?: number;
  /**
   * Covered symbols, when not the whole universe (a deployment's coverage list; tests use a few
   * symbols). Names outside the universe are ignored.
   */
  symbols?: readonly string[];
}

/** The volatility module's state. */
export interface VolState {
  services: AppServices;
  /** Live readings per (symbol, board minute) and other per-minute values (screener rows). */
  memo: LruCache<string, unknown>;
  /** Tilt contracts' running premium lows per (symbol, session, contract), extended each minute (`premium-low.ts`). */
  premiumLows: LruCache<string, MemoLow>;
  /** The covered symbols (option roots and tickers with a PM-settled chain), read once. */
  coverage: Coverage;
  /** Daily closing readings per symbol and session, each computed once. */
  daily: DailyStore;
  /** Sessions of history behind every history-based reading. */
  historySessions: number;
  /**
   * Fill the daily store for every covered symbol (the S&P reference first), once; resolves when
   * done. Started by the first screener call; see docs/api.md#volatility-daily-store.
   */
  warmUp(): Promise<void>;
  /**
   * Progress of the warm-up in steps: each symbol's history, each symbol's board of today, then
   * the minute's screener rows (one step), so done = total only once it has finished; null before
   * it starts. While it waits for the background fill: the fill's rows.
   */
  warmProgress(): { done: number; total: number; finished: boolean } | null;
  /** The live stream hub, made on the first stream (`volStreamHub`). */
  hub: StreamHub<VolStreamQuery> | null;
  /** The screener's per-minute background refresh (`startMinuteRefresh`), once started. */
  refreshTimer?: ReturnType<typeof setInterval>;
}

/** The volatility module's state for one app (nothing is computed until a route asks). */
export function createVolState(services: AppServices, options: VolOptions = {}): VolState {
  const coverage = createCoverage(services.market, options.symbols);
  const volShare = cacheShareBytes(services.cacheBytes, "vol");
  const persisted = services.dailyStore;
  const daily = createDailyStore(services.market, { persisted, nowMs: () => services.clock.now(), compute: services.computePool, maxBytes: volShare * VOL_SPLIT.daily });
  const historySessions = options.historySessions ?? DEFAULT_HISTORY_SESSIONS;
  let warming: Promise<void> | null = null;
  let progress: { done: number; total: number; finished: boolean } | null = null;
  // While the background fill computes the readings (server/daily-store), the warm-up waits for it
  // instead of building the same boards on the request thread, and reports the fill's progress.
  let waitingForFill = false;
  const state: VolState = {
    services,
    memo: new LruCache<string, unknown>({ maxEntries: MEMO_ENTRIES, maxBytes: volShare * VOL_SPLIT.memo }),
    premiumLows: new LruCache<string, MemoLow>({ maxEntries: PREMIUM_LOW_ENTRIES, maxBytes: volShare * VOL_SPLIT.premiumLows }),
    coverage,
    daily,
    historySessions,
    warmUp() {
      warming ??= (async () => {
        if (persisted?.fill.snapshot().running && !persisted.fill.snapshot().kinds[VOL_READING].finished) {
          waitingForFill = true;
          await persisted.fill.ready(VOL_READING);
          waitingForFill = false;
        }
        const symbols = [...(await coverage.all()).keys()].sort((a, b) => Number(b === REFERENCE_SYMBOL) - Number(a === REFERENCE_SYMBOL));
        progress = { done: 0, total: 2 * symbols.length + 1, finished: false };
        const today = sessionDateAt(services.clock.now());
        for (const s of symbols) {
          // The sessions every route reads: those before today's (a live board's) session.
          await daily.before(s, today, historySessions);
          // And the closes of its earnings record, outside that window (read by `events`).
          await warmRecordCloses(state, s, today);
          progress.done++;
          // Let requests in between symbols: the warm-up is background work.
          await new Promise((r) => setImmediate(r));
        }
        // Today's boards too: a symbol's first board of a session builds the session's fixed part
        // (strike grid, open interest) and its volume from the day's option tape so far (`opt_vol`:
        // the tape is generated from the open on first use, then a minute at a time), which the
        // first screener minute would otherwise pay for.
        for (const s of symbols) {
          const live = await liveReading(state, s, services.clock.now());
          if (live) optionVolume(live.board);
          progress.done++;
          await new Promise((r) => setImmediate(r));
        }
        // And the minute's screener rows: the rest of what a symbol reads once per process (its
        // earnings calendar, the code paths' first runs), so the first minute costs what the next do.
        // Imported here: the screener's route module imports this one.
        const { minuteRows } = await import("./screener");
        await minuteRows(state, services.clock.now(), { yieldBetween: true });
        progress.done++;
        progress.finished = true;
      })();
      warming.catch(() => {
        warming = null;
      });
      return warming;
    },
    warmProgress: () => {
      if (waitingForFill && persisted) {
        const { done, total } = persisted.fill.snapshot().kinds[VOL_READING];
        return { done, total, finished: false };
      }
      return progress ? { ...progress } : null;
    },
    hub: null,
  };
  // With a persisted store, the year of readings loads as soon as the background fill has it
  // (a read from disk, not a rebuild), so the first screener call after a start is not a 503.
  if (persisted) {
    void persisted.fill.ready(VOL_READING).then(() => {
      if (persisted.fill.snapshot().kinds[VOL_READING].finished) state.warmUp().catch(() => undefined);
    });
  }
  return state;
}

/** `defineRoute` for volatility routes (`ctx.state` is the `VolState`). */
export const volRoute = routeDefiner<VolState>();
