// GET /v1/contract/{symbol}/rvol and /v1/underlying/{ticker}/rvol: relative-volume bars against
// the same time of day in the baseline sessions (spec "Flow endpoints", RVOL parameters; records
// "Contract RVOL response" and "Ticker RVOL response").
import type { z } from "zod";
import { ContractSymbolParamsSchema, FlowTickerParamsSchema, RvolQuerySchema } from "../../../../lib/api/flow";
import { ContractRvolSchema, rvol, rvolPrintColumns, rvolSessions, TickerRvolSchema, type RvolPrintColumns } from "../../../../lib/flow";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute, type FlowState } from "../flow-route";
import { yieldToTimers } from "../sessions/session-summary";
import { isTradingDay, previousTradingDay } from "../../../../lib/time";
import { computeOffLoop, FLOW_RVOL } from "../../../daily-store/compute-pool";
import { ApiError } from "../../../errors";
import { FLOW_FIRST_DATE, currentFlowDate, openingBoard, resolveFlowContract, resolveFlowDate, resolveFlowTicker, sessionPrints } from "../sessions/tape";
import { contractRootOfPath, tickerOfPath } from "../shared/path-symbols";

type Query = z.output<typeof RvolQuerySchema>;
/** A session of an RVOL call: its prints as columns. */
type ColumnSession = { date: string; prints: RvolPrintColumns };
/** A validated RVOL query (what a compute task carries). */
export type RvolQuery = Query;

/**
 * The sessions an RVOL call reads (view and baseline), each session's prints as columns (only
 * `symbol`'s when given): a year of records held at once would be gigabytes of heap.
 */
async function rvolInput(
  state: FlowState,
  ticker: string,
  symbol: string | null,
  q: Query,
  nowMs: number,
  signal?: AbortSignal,
): Promise<{ date: string; sessions: ColumnSession[] }> {
  const date = resolveFlowDate(q.date, nowMs);
  const plan = rvolSessions(date, q.interval, q.avg_period);
  const dates = [...plan.baseline, ...plan.view].filter((d) => d >= FLOW_FIRST_DATE);
  const sessions: ColumnSession[] = [];
  for (const d of dates) {
    await yieldToTimers();
    if (signal?.aborted) throw signal.reason;
    sessions.push({ date: d, prints: rvolPrintColumns(await sessionPrints(state, ticker, d, nowMs), symbol) });
  }
  return { date, sessions };
}

/**
 * Whether a contract is known: it printed in a session the call read, or it is listed on the
 * opening board of the last session of its life so far (its expiry's, or the current session's).
 * A strike never listed is 404, as for an unknown ticker (spec: a contract never seen).
 * @see docs/methodology.md#flow-contract-listing
 */
async function contractKnown(state: FlowState, ticker: string, symbol: string, expiry: string, sessions: readonly ColumnSession[], nowMs: number): Promise<boolean> {
  if (sessions.some((s) => s.prints.tsMs.length > 0)) return true;
  const today = currentFlowDate(nowMs);
  let last = expiry < today ? expiry : today;
  if (!isTradingDay(last)) last = previousTradingDay(last);
  if (last < FLOW_FIRST_DATE) return true; // no board to tell
  const { board, oi } = await openingBoard(state, ticker, last);
  return !board || oi.has(symbol);
}

const options = (q: Query, date: string, nowMs: number) => ({
  date,
  interval: q.interval,
  bucket: q.bucket,
  avgPeriod: q.avg_period,
  orderBy: q.order_by,
  order: q.order,
  limit: q.limit,
  format: q.format,
  asOfMs: nowMs,
});

/** What an RVOL call is about, once resolved: a ticker, or a contract of a ticker. */
export type RvolTarget = { kind: "ticker"; ticker: string } | { kind: "contract"; ticker: string; symbol: string; expiry: string };

/**
 * The RVOL answer of a resolved target, or null for a contract never listed. It reads up to a
 * year and more of raw prints, so with a compute pool it runs in a worker (compute-worker.ts).
 */
export async function rvolAnswer(state: FlowState, target: RvolTarget, q: Query, nowMs: number, signal?: AbortSignal) {
  const { date, sessions } = await rvolInput(state, target.ticker, target.kind === "contract" ? target.symbol : null, q, nowMs, signal);
  if (target.kind === "ticker") return rvol({ kind: "ticker" }, sessions, options(q, date, nowMs));
  if (!(await contractKnown(state, target.ticker, target.symbol, target.expiry, sessions, nowMs))) return null;
  return rvol({ kind: "contract", symbol: target.symbol }, sessions, options(q, date, nowMs));
}

/** `rvolAnswer` in the compute pool when the app has one, else here. */
function pooledRvol(state: FlowState, target: RvolTarget, q: Query, nowMs: number, signal: AbortSignal) {
  return computeOffLoop(state.services.computePool, { kind: FLOW_RVOL, target, query: q, nowMs }, () => rvolAnswer(state, target, q, nowMs, signal), signal);
}

const DESCRIPTION =
  "Volume and premium per bar against the average of the same time of day over the `avg_period` sessions before the window, " +
  "with the window's totals and RVOL ratios. Long baselines read many sessions: the first call for a ticker can take seconds.";

export const contractRvolRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/contract/:symbol/rvol",
  operationId: "getContractRvol",
  cost: 1,
  query: RvolQuerySchema,
  params: ContractSymbolParamsSchema,
  symbolsOf: contractRootOfPath,
  data: ContractRvolSchema,
  summary: "Relative-volume bars for one contract",
  description: DESCRIPTION,
  tags: ["Contracts"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId, signal }) => {
    const { symbol, ticker, contract } = await resolveFlowContract(state, p.symbol);
    const data = await pooledRvol(state, { kind: "contract", ticker, symbol, expiry: contract.expiry }, q, nowMs, signal);
    if (data === null) throw new ApiError(404, "symbol_not_found", `Unknown symbol "${symbol}": the contract was never listed.`);
    return { data, meta: flowMeta(services, requestId) };
  },
});

export const underlyingRvolRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/underlying/:ticker/rvol",
  operationId: "getUnderlyingRvol",
  cost: 1,
  query: RvolQuerySchema,
  params: FlowTickerParamsSchema,
  symbolsOf: tickerOfPath,
  data: TickerRvolSchema,
  summary: "Relative-volume bars for a ticker",
  description: DESCRIPTION + " Ticker bars split call and put volume and carry the underlying price.",
  tags: ["Underlying"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId, signal }) => {
    const ticker = await resolveFlowTicker(state, p.ticker);
    return { data: await pooledRvol(state, { kind: "ticker", ticker }, q, nowMs, signal), meta: flowMeta(services, requestId) };
  },
});
