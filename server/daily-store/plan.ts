// What the background fill computes, in which order: the volatility window first, newest session
// first (a year of closing readings gates the screener, and every live vol reading needs the last
// session's), then the most recent finished session's flow summaries (every market-wide flow read
// of "yesterday" needs them), then the older flow sessions backwards down to the flow horizon (by default the windows of the flow
// endpoints' defaults; older sessions are computed on demand). Pure: the worker runs the steps,
// skipping rows the store already holds. See docs/operations.md#daily-fill-horizon.
import { HISTORICAL_COMPARE_PARAMS, PREMIUM_RVOL_LOOKBACK_SESSIONS } from "../../lib/flow";
import type { IsoDate } from "../../lib/market/market-data";
import { isTradingDay, previousTradingDay, sessionBounds, sessionDateAt } from "../../lib/time";
import { CONTRACT_TOP, CONTRACT_VOLUME, FLOW_SUMMARY, MARKET_SESSION, MARKET_SYMBOL, PRINT_INDEX, VOL_READING, type DailyKind } from "./kinds";

/** Which symbols and sessions to fill. */
export interface FillScope {
  /** Tickers of the flow summaries (the flow universe). */
  flowTickers: readonly string[];
  /**
   * Whether each flow session's market-wide contract table follows its summaries: only when the
   * fill covers the whole flow universe (the table is built from every ticker's summary).
   */
  contractTables?: boolean;
  /** Whether each flow session's market-wide table (totals and tide) follows its summaries: same rule. */
  marketSessions?: boolean;
  /** Whether each flow session's print-time index follows its summaries (same rule: the whole universe). */
  printIndexes?: boolean;
  /** Symbols of the volatility readings (the vol module's coverage). */
  volSymbols: readonly string[];
  /** Sessions of volatility history the module reads behind a live board (its `historySessions`). */
  volSessions: number;
  /** First session of flow summaries (FLOW_FIRST_DATE; tests and the CLI narrow it). */
  flowFrom: IsoDate;
  /**
   * Flow sessions filled, counted back from the last finished session (Infinity: all of them back
   * to `flowFrom`; absent: all, as before there was a horizon). The filler passes
   * `DEFAULT_FLOW_FILL_SESSIONS` unless told otherwise.
   */
  flowSessions?: number;
}

/**
 * Default flow horizon: the longest default trailing window of a route that reads stored
 * summaries (the overview's premium RVOL and the historical compare: 20 sessions before their
 * date), plus the last finished session itself, so after the close, when "today" is finished
 * and its own 20-session baseline starts a session earlier, those reads stay warm.
 * See docs/operations.md#daily-fill-horizon.
 */
export const DEFAULT_FLOW_FILL_SESSIONS = Math.max(PREMIUM_RVOL_LOOKBACK_SESSIONS, HISTORICAL_COMPARE_PARAMS.lookbackSessions) + 1;

/** One step: the rows of one kind at one session (written in small transactions). */
export interface FillStep {
  kind: DailyKind;
  session: IsoDate;
  symbols: readonly string[];
}

/** The most recent session whose close is at or before `nowMs`. */
export function lastFinishedSession(nowMs: number): IsoDate {
  const d = sessionDateAt(nowMs);
  if (isTradingDay(d) && sessionBounds(d).closeMs <= nowMs) return d;
  return previousTradingDay(d);
}

/** `count` trading sessions ending at `last`, most recent first. */
function sessionsBackFrom(last: IsoDate, count: number): IsoDate[] {
  const out: IsoDate[] = [];
  for (let d = last; out.length < count; d = previousTradingDay(d)) out.push(d);
  return out;
}

/**
 * The steps of a fill at `nowMs`, in order; each kind's sessions newest first. The vol window is
 * the module's history behind today's board plus the last finished session (tomorrow's board
 * reads it): `volSessions + 1` sessions. Flow: the last `flowSessions` finished sessions.
 * @example fillPlan(scope, Date.parse("2024-03-06T15:00:00Z"))[0] // { kind: "vol-reading", session: "2024-03-05", ... }
 */
export function fillPlan(scope: FillScope, nowMs: number): FillStep[] {
  const last = lastFinishedSession(nowMs);
  const steps: FillStep[] = [];
  const flowSessions = scope.flowSessions ?? Number.POSITIVE_INFINITY;
  // Each flow session's market-wide contract table right after its summaries, from which it is built.
  const flow = (session: IsoDate) =>
    scope.flowTickers.length > 0 &&
    session >= scope.flowFrom &&
    steps.push(
      { kind: FLOW_SUMMARY, session, symbols: scope.flowTickers },
      ...(scope.contractTables ? [{ kind: CONTRACT_TOP as DailyKind, session, symbols: [MARKET_SYMBOL] }] : []),
      ...(scope.marketSessions ? [{ kind: MARKET_SESSION as DailyKind, session, symbols: [MARKET_SYMBOL] }] : []),
      ...(scope.printIndexes ? [{ kind: PRINT_INDEX as DailyKind, session, symbols: [MARKET_SYMBOL] }] : []),
    );
  const vol = (session: IsoDate) => scope.volSymbols.length > 0 && steps.push({ kind: VOL_READING, session, symbols: scope.volSymbols });
  // The volatility window first: it gates the screener's warm-up, the most called cold route; a
  // flow read of the last session meanwhile computes what it needs in the compute pool.
  const volDates = sessionsBackFrom(last, scope.volSessions + 1);
  for (const d of volDates) vol(d);
  if (flowSessions >= 1) flow(last);
  let n = 1;
  for (let d = previousTradingDay(last); n < flowSessions && d >= scope.flowFrom; d = previousTradingDay(d), n++) flow(d);
  return steps;
}

/** Rows planned per kind (progress totals). */
export function plannedRows(steps: readonly FillStep[]): Record<DailyKind, number> {
  // Contract volumes have no steps of their own: they are written with their summaries (run-fill.ts).
  const out: Record<DailyKind, number> = { [FLOW_SUMMARY]: 0, [VOL_READING]: 0, [CONTRACT_TOP]: 0, [MARKET_SESSION]: 0, [PRINT_INDEX]: 0, [CONTRACT_VOLUME]: 0 };
  for (const s of steps) out[s.kind] += s.symbols.length;
  return out;
}
