/**
 * What the market-wide screens share: the sessions of a trailing window, the default target date
 * of the unusual-activity screens, the tickers a scan covers, and summaries over several sessions.
 * Market-wide data is read only through the session summaries (`session-summary.ts`).
 * @see docs/methodology.md#flow-market-wide-screens
 */
import { addTradingDays, etDateOf, previousTradingDay, tradingDaysBetween } from "../../../../lib/time";
import type { Principal } from "../../../accounts/types";
import type { TopContractRow } from "../../../../lib/flow";
import { marketContractRows } from "./contract-top-table";
import type { FlowState } from "../flow-route";
import { scanTickers, summariesOf, type SessionSummary } from "./session-summary";
import { FLOW_FIRST_DATE, resolveFlowDate, resolveFlowTicker } from "./tape";

/** The `n` trading sessions ending on `date` (oldest first), none before the first session with data. */
export function trailingSessions(date: string, n: number): string[] {
  return tradingDaysBetween(addTradingDays(date, -(n - 1)), date).filter((d) => d >= FLOW_FIRST_DATE);
}

/** The `n` trading sessions before `date` (oldest first), none before the first session with data. */
export function sessionsBefore(date: string, n: number): string[] {
  if (previousTradingDay(date) < FLOW_FIRST_DATE) return [];
  return trailingSessions(previousTradingDay(date), n);
}

/**
 * The target session of the unusual-activity screens: `raw` validated, else the last trading day
 * before today (ET), a settled session.
 */
export function settledFlowDate(raw: string | undefined, nowMs: number): string {
  return raw === undefined ? previousTradingDay(etDateOf(nowMs)) : resolveFlowDate(raw, nowMs);
}

/** The one ticker asked for (validated, entitled by the route's `symbolsOf`), else every ticker of the caller's plan. */
export async function tickersToScan(state: FlowState, principal: Principal | null, ticker: string | undefined): Promise<string[]> {
  return ticker === undefined ? scanTickers(state, principal) : [await resolveFlowTicker(state, ticker)];
}

/** Summaries of the tickers for each date: `out[i][j]` is ticker `j` on `dates[i]`. */
export async function summariesOverSessions(
  state: FlowState,
  tickers: readonly string[],
  dates: readonly string[],
  nowMs: number,
  signal?: AbortSignal,
): Promise<SessionSummary[][]> {
  const out: SessionSummary[][] = [];
  for (const d of dates) out.push(await summariesOf(state, tickers, d, nowMs, signal));
  return out;
}

/**
 * The contract rows of the tickers on `date`, in order: for a market-wide scan the session's
 * contract table when one exists (docs/methodology.md#flow-contract-top-table), else the summaries.
 */
export async function contractRowsOf(
  state: FlowState,
  tickers: readonly string[],
  date: string,
  nowMs: number,
  marketWide: boolean,
  signal?: AbortSignal,
): Promise<TopContractRow[]> {
  if (marketWide) return marketContractRows(state, tickers, date, nowMs, signal);
  return (await summariesOf(state, tickers, date, nowMs, signal)).flatMap((s) => s.contracts);
}
