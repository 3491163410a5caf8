/**
 * Per-contract daily volumes in the daily store (kind `contract-volume`) and the flow feed's RVOL
 * baseline read from them: the mean daily volume of each contract over the sessions before the
 * feed's. The rows are written with the session summaries they are read from (the background
 * fill, and any summary a request computes); the feed only reads what is stored, so a baseline
 * not stored yet is null (never a placeholder) and its missing sessions are computed in the
 * compute pool, off the event loop, for a later request.
 * @see docs/methodology.md#flow-feed-rvol
 */
import { putFromLoop } from "../../../daily-store/store";
import { FEED_RVOL_PARAMS } from "../../../../lib/flow/feed-extras";
import { CONTRACT_VOLUME } from "../../../daily-store/kinds";
import type { FlowState } from "../flow-route";
import { sessionsBefore } from "./market-scan";
import type { SessionSummary } from "./session-summary";

/** One ticker's session volume per contract: contract symbols and their summed print sizes. */
export interface ContractVolumes {
  symbols: string[];
  volumes: Float64Array;
}

/** The per-contract volumes of a session summary. */
export function contractVolumesOf(summary: Pick<SessionSummary, "contracts">): ContractVolumes {
  const rows = summary.contracts;
  return { symbols: rows.map((r) => r.symbol), volumes: Float64Array.from(rows, (r) => r.totalVolume) };
}

/** A ticker's RVOL baseline for one session: each contract's mean daily volume over `sessions` sessions. */
export interface VolumeBaseline {
  sessions: number;
  avgVolume: ReadonlyMap<string, number>;
}

/** A baseline found missing is looked for again in the store after this long, ms of wall time. */
const MISS_RECHECK_MS = 1000;
/** Baselines remembered per app (one per ticker and session read). */
const MEMO_MAX = 512;

interface Memo {
  found: Map<string, VolumeBaseline | null>;
  missedAt: Map<string, number>;
  /** `ticker|session` rows being computed in the pool. */
  computing: Set<string>;
}
const MEMOS = new WeakMap<FlowState, Memo>();

function memoOf(state: FlowState): Memo {
  let m = MEMOS.get(state);
  if (!m) {
    m = { found: new Map(), missedAt: new Map(), computing: new Set() };
    MEMOS.set(state, m);
  }
  return m;
}

/**
 * The mean of the stored volumes: each contract's summed volume over the sessions divided by their
 * number (a session it did not trade in counts 0), as the unusual-volume screen's `avgVolume`.
 */
function meanVolumes(rows: readonly ContractVolumes[]): VolumeBaseline {
  const sum = new Map<string, number>();
  for (const r of rows) for (let i = 0; i < r.symbols.length; i++) sum.set(r.symbols[i], (sum.get(r.symbols[i]) ?? 0) + r.volumes[i]);
  const avgVolume = new Map<string, number>();
  for (const [symbol, v] of sum) avgVolume.set(symbol, v / rows.length);
  return { sessions: rows.length, avgVolume };
}

/**
 * The stored RVOL baseline of `ticker` for session `date`: null when the daily store lacks any of
 * its sessions (then they are computed in the compute pool, when the app has one, and stored for
 * a later call) or when `date` has no session before it. Never computes on the event loop: one
 * indexed read of at most `FEED_RVOL_PARAMS.baselineSessions` small rows, memoised.
 */
export function storedVolumeBaseline(state: FlowState, ticker: string, date: string, nowMs: number): VolumeBaseline | null {
  const store = state.services.dailyStore;
  if (!store) return null;
  const key = `${ticker}|${date}`;
  const memo = memoOf(state);
  const hit = memo.found.get(key);
  if (hit !== undefined) return hit;
  const missed = memo.missedAt.get(key);
  if (missed !== undefined && performance.now() - missed < MISS_RECHECK_MS) return null;
  const sessions = sessionsBefore(date, FEED_RVOL_PARAMS.baselineSessions);
  let baseline: VolumeBaseline | null = null;
  if (sessions.length > 0) {
    const rows = store.range<ContractVolumes>(CONTRACT_VOLUME, ticker, sessions[0], sessions[sessions.length - 1]);
    const missing = sessions.filter((d) => !rows.has(d));
    if (missing.length > 0) {
      memo.missedAt.set(key, performance.now());
      computeMissing(state, ticker, missing, nowMs);
      return null;
    }
    baseline = meanVolumes(sessions.map((d) => rows.get(d)!));
  }
  if (memo.found.size >= MEMO_MAX) memo.found.clear();
  memo.found.set(key, baseline);
  memo.missedAt.delete(key);
  return baseline;
}

/** Compute and store the missing sessions' volumes in the compute pool (none without one: the background fill writes them). */
function computeMissing(state: FlowState, ticker: string, sessions: readonly string[], nowMs: number): void {
  const { computePool: pool, dailyStore: store } = state.services;
  if (!pool || !store) return;
  const computing = memoOf(state).computing;
  for (const session of sessions) {
    const key = `${ticker}|${session}`;
    if (computing.has(key)) continue;
    computing.add(key);
    pool
      .run<ContractVolumes>({ kind: CONTRACT_VOLUME, symbol: ticker, session, nowMs })
      .then((v) => putFromLoop(store, CONTRACT_VOLUME, ticker, session, v))
      // A failed computation (no worker, a closed store) leaves the row to the background fill.
      .catch(() => {})
      .finally(() => computing.delete(key));
  }
}
