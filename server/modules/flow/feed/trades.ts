// GET /v1/underlying/{ticker}/trades and /v1/contract/{symbol}/trades: enriched trade rows of one
// session window (flowseeker.yaml `getUnderlyingTrades`, `getContractTrades`). The ticker feed is
// newest first; the contract feed is largest premium first and pages by cursor.
// @see docs/methodology.md#flow-trade-rows
import type { z } from "zod";
import { coarseMoneyness, optionTradeRow, type ScoredTrade } from "../../../../lib/flow";
import { FlowRefContractParamsSchema } from "../../../../lib/api/flow-contracts";
import { ContractTradesQuerySchema, FlowRefTickerParamsSchema, OptionTradeListDataSchema, UnderlyingTradesQuerySchema } from "../../../../lib/api/flow-feed";
import { apiErrors } from "../../../errors";
import { checkBounds } from "../shared/trade-filters";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute, type FlowState } from "../flow-route";
import { CONTRACT_PAGING_HINT } from "../shared/paging-hints";
import { rowExtras, tradeRowContext, type TradeRowContext } from "./trade-row-context";
import { resolveFlowContract, resolveFlowDate, resolveFlowInstantDate, resolveFlowTicker, sessionTape, tapeIndexAt, tapeTrades } from "../sessions/tape";
import { contractRootOfPath, tickerOfPath } from "../shared/path-symbols";

type BaseQuery = z.output<typeof ContractTradesQuerySchema>;

/**
 * The session (ET date of `start`, else of `end`, else the current one) and the window
 * `[fromMs, toMs)` clipped to the open and to now/the close. `endMs` overrides `end` (a cursor's
 * frozen end).
 */
async function tradesWindow(state: FlowState, ticker: string, q: BaseQuery, nowMs: number, endMs?: number) {
  const anchor = q.start ?? q.end;
  const date = anchor === undefined ? resolveFlowDate(undefined, nowMs) : resolveFlowInstantDate(anchor, nowMs, q.start !== undefined ? "start" : "end");
  const tape = await sessionTape(state, ticker, date, nowMs);
  const fromMs = Math.max(tape.openMs, q.start ?? tape.openMs);
  const toMs = Math.max(fromMs, Math.min(tape.uptoMs, endMs ?? q.end ?? tape.uptoMs));
  return { date, tape, fromMs, toMs };
}

/** The window's session resolves (a trading day from the first session to today), before any debit. */
function checkWindowSession(q: BaseQuery, nowMs: number): void {
  const anchor = q.start ?? q.end;
  if (anchor !== undefined) resolveFlowInstantDate(anchor, nowMs, q.start !== undefined ? "start" : "end");
}

/** The print-kind and premium filters both feeds share. */
function passesBase(t: ScoredTrade, q: BaseQuery): boolean {
  return (
    (!q.only_sweeps || t.isSweep) &&
    (!q.only_multi_leg || t.isMultiLeg) &&
    (!q.exclude_multi_leg || !t.isMultiLeg) &&
    (q.min_premium === undefined || t.premiumUsd >= q.min_premium)
  );
}

function rowOf(ctx: TradeRowContext, index: number, micros: boolean) {
  const c = ctx.ivs;
  return optionTradeRow(tapeTrades(ctx.tape)[index], {
    prevIv: c.prevIv[index],
    ivDirection: c.direction[index],
    ticker: ctx.tape.ticker,
    micros,
    extras: rowExtras(ctx, index),
  });
}

export const underlyingTradesRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/underlying/:ticker/trades",
  operationId: "getUnderlyingTrades",
  cost: 5,
  query: UnderlyingTradesQuerySchema,
  params: FlowRefTickerParamsSchema,
  symbolsOf: tickerOfPath,
  check: (q, { nowMs }) => {
    checkBounds(q, [
      ["start", "end"],
      ["min_dte", "max_dte"],
      ["min_strike", "max_strike"],
      ["min_moneyness_pct", "max_moneyness_pct"],
    ]);
    checkWindowSession(q, nowMs);
    if (q.only_multi_leg && q.exclude_multi_leg) throw apiErrors.invalidParameter("only_multi_leg", "cannot be combined with `exclude_multi_leg=true`.");
  },
  data: OptionTradeListDataSchema,
  summary: "Enriched trades of a ticker",
  description:
    "The ticker's option trades in `[start, end)` of one session, newest first, as enriched rows (side against the NBBO, premium, " +
    "moneyness, open interest, cumulative volume, sweep, block, multi-leg and cross flags, IV direction, Flow Score), after the filters; at most `limit` rows.",
  tags: ["Underlying"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId }) => {
    const ticker = await resolveFlowTicker(state, p.ticker);
    const { tape, fromMs, toMs } = await tradesWindow(state, ticker, q, nowMs);
    const trades = tapeTrades(tape);
    const ctx = await tradeRowContext(state, tape);
    const data = [];
    for (let i = tapeIndexAt(tape, toMs) - 1, lo = tapeIndexAt(tape, fromMs); i >= lo && data.length < q.limit; i--) {
      const t = trades[i];
      if (
        !passesBase(t, q) ||
        (q.moneyness !== undefined && coarseMoneyness(t.moneyness) !== q.moneyness) ||
        (q.min_moneyness_pct !== undefined && t.moneynessPct < q.min_moneyness_pct) ||
        (q.max_moneyness_pct !== undefined && t.moneynessPct > q.max_moneyness_pct) ||
        (q.min_dte !== undefined && t.dte < q.min_dte) ||
        (q.max_dte !== undefined && t.dte > q.max_dte) ||
        (q.min_strike !== undefined && t.strike < q.min_strike) ||
        (q.max_strike !== undefined && t.strike > q.max_strike) ||
        (q.expiration !== undefined && t.expiry !== q.expiration)
      ) {
        continue;
      }
      data.push(rowOf(ctx, i, false));
    }
    return { data, meta: flowMeta(services, requestId) };
  },
});

/**
 * Whether this account split windows of the same contract and filters within seconds (the hint
 * header's rule); records the window as sent. @see docs/methodology.md#flow-paging-hint
 */
function pagingHint(state: FlowState, account: string, symbol: string, date: string, q: BaseQuery): boolean {
  const filters = `${symbol}|${date}|${q.only_sweeps}|${q.only_multi_leg}|${q.exclude_multi_leg}|${q.min_premium ?? ""}`;
  return state.hints.note({ account, feed: "contract-trades", filters, start: q.start, end: q.end, atMs: state.services.wallNowMs() });
}

/** Opaque cursor of the contract feed: the session, the window's frozen end and the last row's tape index. */
function encodeCursor(date: string, endMs: number, index: number): string {
  return Buffer.from(`ct1:${date}:${endMs}:${index}`).toString("base64url");
}

function decodeCursor(raw: string): { date: string; endMs: number; index: number } {
  const m = /^ct1:(\d{4}-\d{2}-\d{2}):(\d{1,15}):(\d{1,9})$/.exec(Buffer.from(raw, "base64url").toString("utf8"));
  if (!m) throw apiErrors.invalidParameter("cursor", "not a cursor of this feed; pass `meta.nextCursor` back unchanged with the same filters.");
  return { date: m[1], endMs: Number(m[2]), index: Number(m[3]) };
}

export const contractTradesRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/contract/:symbol/trades",
  operationId: "getContractTrades",
  cost: 5,
  query: ContractTradesQuerySchema,
  params: FlowRefContractParamsSchema,
  symbolsOf: contractRootOfPath,
  check: (q, { nowMs }) => {
    checkBounds(q, [["start", "end"]]);
    checkWindowSession(q, nowMs);
    if (q.only_multi_leg && q.exclude_multi_leg) throw apiErrors.invalidParameter("only_multi_leg", "cannot be combined with `exclude_multi_leg=true`.");
  },
  data: OptionTradeListDataSchema,
  summary: "Enriched trades of a contract",
  description:
    "One contract's trades in `[start, end)` of one session, largest premium first (ties in time order), as enriched rows with " +
    "microsecond times. When a page is full `meta.nextCursor` is set: pass it back as `cursor` with the same parameters; the window's " +
    "end is frozen in the cursor, so pages never skip or repeat a trade while prints arrive.",
  tags: ["Contract"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId, principal }) => {
    const { symbol, ticker } = await resolveFlowContract(state, p.symbol);
    const cursor = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
    const { date, tape, fromMs, toMs } = await tradesWindow(state, ticker, q, nowMs, cursor?.endMs);
    if (cursor && cursor.date !== date) throw apiErrors.invalidParameter("cursor", "belongs to another session; pass it back with the same `start` and `end`.");
    const trades = tapeTrades(tape);
    const picked: number[] = [];
    for (let i = tapeIndexAt(tape, fromMs), hi = tapeIndexAt(tape, toMs); i < hi; i++) {
      if (trades[i].symbol === symbol && passesBase(trades[i], q)) picked.push(i);
    }
    const before = (a: number, b: number) => trades[b].premiumUsd - trades[a].premiumUsd || a - b;
    picked.sort(before);
    let start = 0;
    if (cursor) {
      if (cursor.index >= trades.length) throw apiErrors.invalidParameter("cursor", "does not match this window; pass it back with the same filters.");
      while (start < picked.length && before(picked[start], cursor.index) <= 0) start++;
    }
    const page = picked.slice(start, start + q.limit);
    const more = start + q.limit < picked.length;
    const ctx = await tradeRowContext(state, tape);
    const hint = !cursor && pagingHint(state, principal?.accountId ?? "", symbol, date, q);
    return {
      data: page.map((i) => rowOf(ctx, i, true)),
      meta: flowMeta(services, requestId, more ? { nextCursor: encodeCursor(date, toMs, page[page.length - 1]) } : {}),
      ...(hint ? { headers: { "X-Skylit-Hint": CONTRACT_PAGING_HINT } } : {}),
    };
  },
});
