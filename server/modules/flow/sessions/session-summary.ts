/**
 * Compact per-ticker session summaries: what the market-wide and multi-day endpoints (search,
 * history, top contracts, overview, the market-wide screens and the market tide) read instead of holding every ticker's tape. A finished
 * session's summary is memoised for good; today's is rebuilt at most once a minute from the
 * (cached, extended) tape.
 * @see docs/methodology.md#flow-session-summaries
 */
import { putFromLoop } from "../../../daily-store/store";
import { timeSlicer, yieldToLoop } from "../../../yield-to-loop";
import {
  contractDailyRollups,
  foldTideMinutes,
  tickerDailyRollup,
  type TideMinuteFold,
  type OverviewTrade,
  type TickerDailyRow,
  type TopContractRow,
} from "../../../../lib/flow";
import { directionSign } from "../../../../lib/flow";
import { previousTradingDay, sessionBounds } from "../../../../lib/time";
import { planDefinition } from "../../../accounts/plans";
import type { Principal } from "../../../accounts/types";
import { computeOffLoop, FLOW_SUMMARY_STORED } from "../../../daily-store/compute-pool";
import type { StoredSummary } from "./stored-summary";
import { CONTRACT_VOLUME, FLOW_SUMMARY } from "../../../daily-store/kinds";
import { contractVolumesOf } from "./contract-volumes";
import type { FlowState } from "../flow-route";
import { FLOW_FIRST_DATE, flowUniverse, openingBoard, sessionTape, sessionUptoMs, tapeTrades, type SessionTape } from "./tape";

/** One ticker's session in the few numbers the market-wide endpoints need. */
export interface SessionSummary {
  ticker: string;
  date: string;
  /** The history row; null when the ticker did not trade. */
  row: TickerDailyRow | null;
  /** Per-contract rows of the top-contract screener. */
  contracts: TopContractRow[];
  /**
   * The session's trades folded by right and direction (at most six), each with summed premium and
   * size: every number of the market overview is a sum over these groups.
   */
  overviewTrades: OverviewTrade[];
  /** Cumulative premium by minute from the open: `premiumByMinute[m]` is the premium before open + m minutes. */
  premiumByMinute: Float64Array;
  /**
   * The session's trades folded by minute, right, multi-leg and deep-ITM flags (plain number
   * arrays): the market tide sums these. @see docs/methodology.md#flow-market-tide
   */
  tideMinutes: TideMinuteFold;
}

function foldForOverview(tape: SessionTape): OverviewTrade[] {
  const groups = new Map<string, OverviewTrade>();
  for (const t of tapeTrades(tape)) {
    const d = directionSign(t);
    const key = `${t.right}${d}`;
    const g = groups.get(key);
    if (g) {
      g.premiumUsd += t.premiumUsd;
      g.size += t.size;
    } else {
      // aggression carries only the direction: `directionSign` reads its sign with the right.
      groups.set(key, { right: t.right, premiumUsd: t.premiumUsd, size: t.size, aggression: d === 0 ? 0 : d > 0 === (t.right === "C") ? 1 : -1 });
    }
  }
  return [...groups.values()];
}

function premiumCurve(tape: SessionTape): Float64Array {
  const minutes = Math.round((tape.closeMs - tape.openMs) / 60_000);
  const curve = new Float64Array(minutes + 1);
  const { tsMs } = tape.columns;
  const premium = tape.scores.premiumUsd;
  for (let i = 0; i < tape.columns.n; i++) curve[Math.floor((tsMs[i] - tape.openMs) / 60_000) + 1] += premium[i];
  for (let m = 1; m <= minutes; m++) curve[m] += curve[m - 1];
  return curve;
}

/** Open interest at the start of the previous session (the screener's `oiChange`). */
async function previousOpenInterest(state: FlowState, ticker: string, date: string): Promise<ReadonlyMap<string, number> | undefined> {
  const prior = previousTradingDay(date);
  if (prior < FLOW_FIRST_DATE) return undefined;
  const { board, oi } = await openingBoard(state, ticker, prior);
  return board ? oi : undefined;
}

/**
 * Computes the summary of `ticker`'s session `date` up to `nowMs` from its tape (no memo, no
 * store): what the on-demand path and the background fill worker both run.
 * @see docs/methodology.md#flow-session-summaries
 */
export async function computeSessionSummary(state: FlowState, ticker: string, date: string, nowMs: number): Promise<SessionSummary> {
  const uptoMs = sessionUptoMs(date, nowMs);
  // A scan should not evict the hot tapes: use a cached tape, else build one and drop it.
  const tape = await sessionTape(state, ticker, date, nowMs, { cache: uptoMs < sessionBounds(date).closeMs });
  const trades = tapeTrades(tape);
  const previousOi = await previousOpenInterest(state, ticker, date);
  return {
    ticker,
    date,
    row: tickerDailyRollup(date, trades),
    contracts: contractDailyRollups(date, trades, { openInterest: tape.oi, previousOpenInterest: previousOi }),
    overviewTrades: foldForOverview(tape),
    premiumByMinute: premiumCurve(tape),
    tideMinutes: foldTideMinutes(trades, tape.openMs),
  };
}

/**
 * A finished session's summary from the persisted daily store, if the server has one and the row
 * is there (server/daily-store: filled in the background, computed once per data directory).
 */
function storedSummary(state: FlowState, ticker: string, date: string): SessionSummary | undefined {
  return state.services.dailyStore?.get<SessionSummary>(FLOW_SUMMARY, ticker, date);
}

/**
 * The summary of `ticker`'s session `date` up to `nowMs`. A finished session is read from the
 * memo, else the persisted daily store, else computed (and written to the store).
 * @example (await sessionSummary(state, "SPY", "2024-03-05", nowMs)).row?.totalPremium
 */
export async function sessionSummary(state: FlowState, ticker: string, date: string, nowMs: number): Promise<SessionSummary> {
  const uptoMs = sessionUptoMs(date, nowMs);
  const finished = uptoMs >= sessionBounds(date).closeMs;
  // Today's summaries refresh once a minute: a live clock would otherwise fill the memo with one
  // summary per request and ticker. A finished session's key is its close.
  const key = `summary|${ticker}|${date}|${finished ? uptoMs : Math.floor(uptoMs / 60_000) * 60_000}`;
  let p = state.summaries.get(key) as Promise<SessionSummary> | undefined;
  if (!p) {
    const stored = finished ? storedSummary(state, ticker, date) : undefined;
    p = stored ? Promise.resolve(stored) : finished ? computeFinishedSummary(state, ticker, date, nowMs) : computeSummary(state, ticker, date, nowMs);
    state.summaries.set(key, p);
    p.catch(() => state.summaries.delete(key));
  }
  return p;
}

/** A session's summary so far, computed in the compute pool when there is one. */
function computeSummary(state: FlowState, ticker: string, date: string, nowMs: number): Promise<SessionSummary> {
  return computeOffLoop(state.services.computePool, { kind: FLOW_SUMMARY, symbol: ticker, session: date, nowMs }, () =>
    computeSessionSummary(state, ticker, date, nowMs),
  );
}

/**
 * A finished session's summary, computed and written to the daily store (when the server has one)
 * before it resolves, so a caller that sees the summary sees it stored. With a compute pool the
 * worker encodes the rows (an SPXW summary is 1.7 MB of rows) and the loop writes their bytes.
 */
async function computeFinishedSummary(state: FlowState, ticker: string, date: string, nowMs: number): Promise<SessionSummary> {
  const store = state.services.dailyStore;
  if (!store) return computeSummary(state, ticker, date, nowMs);
  const task = { kind: FLOW_SUMMARY_STORED, symbol: ticker, session: date, nowMs } as const;
  const r = await computeOffLoop<StoredSummary | { summary: SessionSummary; summaryBody?: undefined; volumesBody?: undefined }>(
    state.services.computePool,
    task,
    async () => ({
      summary: await computeSessionSummary(state, ticker, date, nowMs),
    }),
  );
  if (r.summaryBody && store.putEncoded) {
    store.putEncoded(FLOW_SUMMARY, ticker, date, r.summaryBody);
    // Its per-contract volumes too: the flow feed's RVOL baseline reads them (contract-volumes.ts).
    store.putEncoded(CONTRACT_VOLUME, ticker, date, r.volumesBody);
  } else {
    // Compressed off the loop (an SPXW summary is 1.7 MB before deflate).
    await Promise.all([putFromLoop(store, FLOW_SUMMARY, ticker, date, r.summary), putFromLoop(store, CONTRACT_VOLUME, ticker, date, contractVolumesOf(r.summary))]);
  }
  return r.summary;
}

/**
 * The summary of a finished session if this process holds one (built or read before), without
 * reading the store; undefined when it holds none or its build failed.
 */
export function heldSummary(state: FlowState, ticker: string, date: string): Promise<SessionSummary | undefined> | undefined {
  const p = state.summaries.get(`summary|${ticker}|${date}|${sessionBounds(date).closeMs}`) as Promise<SessionSummary> | undefined;
  return p?.catch(() => undefined);
}

/** The tickers a market-wide scan covers: the universe, limited to the caller's plan symbols. */
export async function scanTickers(state: FlowState, principal: Principal | null): Promise<string[]> {
  const all = [...(await flowUniverse(state)).keys()];
  const allowed = principal ? planDefinition(principal.plan).symbols : null;
  return allowed ? all.filter((t) => allowed.has(t)) : all;
}

/**
 * Lets timers run between two pieces of CPU-bound work: the simulated market answers through
 * microtasks only, so without this the request's time limit (a timer) could not fire until the
 * whole scan had finished.
 */
export function yieldToTimers(): Promise<void> {
  return yieldToLoop();
}

/** Summaries of many tickers' sessions, in the given order (sequential: the work is CPU-bound). */
export async function summariesOf(state: FlowState, tickers: readonly string[], date: string, nowMs: number, signal?: AbortSignal): Promise<SessionSummary[]> {
  if (state.services.computePool) return pooledInOrder(tickers, signal, (t) => sessionSummary(state, t, date, nowMs));
  const out: SessionSummary[] = [];
  for (const t of tickers) {
    await yieldToTimers();
    if (signal?.aborted) throw signal.reason;
    out.push(await sessionSummary(state, t, date, nowMs));
  }
  return out;
}

/**
 * With a compute pool every missing summary is asked for at once (the pool's workers share them
 * out; the loop only awaits); in input order. A caller gone meanwhile stops waiting, and the rows
 * still computed are kept for the next caller.
 */
async function pooledInOrder<K>(keys: readonly K[], signal: AbortSignal | undefined, one: (k: K) => Promise<SessionSummary>): Promise<SessionSummary[]> {
  // Asking is not free: a stored summary is decoded on this thread. Time-sliced, so a scan of the
  // universe's stored summaries does not hold the loop for all of them in one stretch.
  const asked: Promise<SessionSummary>[] = [];
  const slice = timeSlicer();
  for (const k of keys) {
    if (signal?.aborted) throw signal.reason;
    const p = one(k);
    // Handled here too: one may fail while the rest are still being asked for.
    p.catch(() => {});
    asked.push(p);
    await slice();
  }
  const all = Promise.all(asked);
  if (!signal) return all;
  if (signal.aborted) throw signal.reason;
  all.catch(() => {});
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    all.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Summaries of one ticker over several sessions, in date order. */
export async function summariesByDate(state: FlowState, ticker: string, dates: readonly string[], nowMs: number, signal?: AbortSignal): Promise<SessionSummary[]> {
  if (state.services.computePool) return pooledInOrder(dates, signal, (d) => sessionSummary(state, ticker, d, nowMs));
  const out: SessionSummary[] = [];
  for (const d of dates) {
    await yieldToTimers();
    if (signal?.aborted) throw signal.reason;
    out.push(await sessionSummary(state, ticker, d, nowMs));
  }
  return out;
}
