// GET /v1/flow/{ticker}: the scored options flow of a ticker, newest first, paged by cursor
// (spec "Flow endpoints"; parameters and shape from the reference's getFlow).
import { runStepsOnLoop, timeSlicer } from "../../../yield-to-loop";
import { scoreFlowColumnsSteps } from "../../../../lib/flow/flow-columns";
import type { z } from "zod";
import { FlowFeedDataSchema, FlowFeedQuerySchema, FlowTickerParamsSchema } from "../../../../lib/api/flow";
import {
  DEFAULT_FLOW_SCORE_WEIGHTS,
  detectMultiLeg,
  flowTradeItem,
  ivChanges,
  scoredTradesFromColumns,
  timeframeWindow,
  windowScores,
  type FlowTradeItem,
  type ScoredTrade,
  type WindowScores,
} from "../../../../lib/flow";
import { feedTradeExtras, packageCluster, sweepCluster, tradeRvol, type ClusterInfo, type FeedTradeExtras } from "../../../../lib/flow/feed-extras";
import { formatTsNsIso } from "../../../../lib/market/prints/ts-ns";
import { apiErrors } from "../../../errors";
import { memoizeJson } from "../../../http/json-body";
import { checkBounds, CONTRACT_FILTER_BOUNDS, matchesContractFilter } from "../shared/trade-filters";
import { FLOW_ROUTE_DEFAULTS, flowMeta, flowRoute } from "../flow-route";
import { FEED_PAGING_HINT } from "../shared/paging-hints";
import { resolveFlowDate, resolveFlowTicker, sessionTape, TAPE_PRINTS_PER_PIECE, tapeIndexAt, tapeTrades, type SessionTape } from "../sessions/tape";
import { tickerOfPath } from "../shared/path-symbols";
import { storedVolumeBaseline, type VolumeBaseline } from "../sessions/contract-volumes";

type Query = z.output<typeof FlowFeedQuerySchema>;

/** Opaque cursor: the session and the tape index of the last row returned. */
function encodeCursor(date: string, index: number): string {
  return Buffer.from(`f1:${date}:${index}`).toString("base64url");
}

function decodeCursor(raw: string, date: string): number {
  const text = Buffer.from(raw, "base64url").toString("utf8");
  const m = /^f1:(\d{4}-\d{2}-\d{2}):(\d{1,9})$/.exec(text);
  if (!m || m[1] !== date) throw apiErrors.invalidParameter("cursor", "not a cursor of this feed and date; pass `meta.nextCursor` back unchanged with the same filters.");
  return Number(m[2]);
}

/** The trade window `[fromMs, toMs)`: the timeframe's, or `start_time`/`end_time` within the session. */
function tradeWindow(q: Query, tape: SessionTape, nowMs: number): { fromMs: number; toMs: number } {
  const w = timeframeWindow(tape.date, q.timeframe, nowMs);
  const fromMs = q.start_time !== undefined ? Math.max(tape.openMs, q.start_time) : w.fromMs;
  const toMs = q.end_time !== undefined ? Math.min(tape.uptoMs, q.end_time + 1) : w.toMs;
  if (q.start_time !== undefined && q.end_time !== undefined && q.start_time > q.end_time) {
    throw apiErrors.invalidParameter("start_time", "must not be after `end_time`.");
  }
  return { fromMs, toMs: Math.max(fromMs, toMs) };
}

/**
 * The contract's mean daily volume in the RVOL baseline: 0 when it did not trade in it, null
 * without a stored baseline. @see docs/methodology.md#flow-feed-rvol
 */
function avgVolumeOf(t: ScoredTrade, baseline: VolumeBaseline | null): number | null {
  return baseline ? (baseline.avgVolume.get(t.symbol) ?? 0) : null;
}

function passes(t: ScoredTrade, q: Query, baseline: VolumeBaseline | null): boolean {
  return (
    (q.min_rvol === undefined || (tradeRvol(t.dailyVolume, avgVolumeOf(t, baseline)).rvol ?? -1) >= q.min_rvol) &&
    matchesContractFilter(t, q) &&
    (q.trade_type === null || (q.trade_type.has("sweep") && t.isSweep) || (q.trade_type.has("multi_leg") && t.isMultiLeg)) &&
    (!q.single_leg_only || !t.isMultiLeg) &&
    (q.min_contracts === undefined || t.size >= q.min_contracts) &&
    (q.max_contracts === undefined || t.size <= q.max_contracts) &&
    (q.min_flow_score === undefined || t.flowScore >= q.min_flow_score) &&
    (q.min_flow_bonus === undefined || t.flowBonus >= q.min_flow_bonus) &&
    (q.min_size_ratio === undefined || t.sizeRatio >= q.min_size_ratio)
  );
}

/** What a tape's feed items read besides each trade (docs/methodology.md#flow-feed-context-fields). */
interface FeedContext {
  tape: SessionTape;
  prevIv: (number | null)[];
  /** Per tape index: the print's sweep or multi-leg cluster. */
  clusters: (ClusterInfo | undefined)[];
  /** The RVOL baseline of the tape's session (null while it is not stored); set per request. */
  baseline: VolumeBaseline | null;
}

const CONTEXTS = new WeakMap<SessionTape, FeedContext>();

/** A tape's feed context, computed once per tape. */
function feedContext(tape: SessionTape): FeedContext {
  let c = CONTEXTS.get(tape);
  if (!c) {
    const trades = tapeTrades(tape);
    const clusters: (ClusterInfo | undefined)[] = new Array(trades.length);
    const { packages, packageOf } = detectMultiLeg(tape.prints);
    const packageClusters = packages.map((pk) => packageCluster(tape.date, tape.ticker, pk, tape.prints[pk.printIndices[pk.printIndices.length - 1]].tsMs));
    const sweepClusters = tape.sweeps.groups.map((g) => sweepCluster(tape.date, tape.ticker, g));
    trades.forEach((t, i) => {
      clusters[i] = t.sweepGroup >= 0 ? sweepClusters[t.sweepGroup] : packageOf[i] >= 0 ? packageClusters[packageOf[i]] : undefined;
    });
    c = { tape, prevIv: ivChanges(trades).prevIv, clusters, baseline: null };
    CONTEXTS.set(tape, c);
  }
  return c;
}

/** The context fields of the trade at tape index `index`. */
function extrasOf(t: ScoredTrade, ctx: FeedContext, q: Query, index: number): FeedTradeExtras {
  const board = ctx.tape.board;
  return feedTradeExtras(t, {
    rates: board ? { rate: board.rate, dividendYield: board.dividendYield } : null,
    weights: q.conviction_weights ?? DEFAULT_FLOW_SCORE_WEIGHTS,
    prevIv: ctx.prevIv[index] ?? null,
    avgVolume: avgVolumeOf(t, ctx.baseline),
    cluster: q.include_clusters ? ctx.clusters[index] : undefined,
  });
}

/** Memoised items by trade, one set per RVOL baseline (or none yet) and `include_clusters`. */
const ITEMS = new WeakMap<object, { clusters: WeakMap<ScoredTrade, FlowTradeItem>; plain: WeakMap<ScoredTrade, FlowTradeItem> }>();
const NO_BASELINE = {};

function itemMemo(baseline: VolumeBaseline | null, includeClusters: boolean): WeakMap<ScoredTrade, FlowTradeItem> {
  const key = baseline ?? NO_BASELINE;
  let m = ITEMS.get(key);
  if (!m) {
    m = { clusters: new WeakMap(), plain: new WeakMap() };
    ITEMS.set(key, m);
  }
  return includeClusters ? m.clusters : m.plain;
}

/**
 * A trade's feed item, built and serialised once per scored trade (the tape's trades live as long
 * as the tape): a 500-row page is then the join of 500 memoized texts instead of a walk over every
 * field of every row (most of a warm request's CPU before; bench/README.md#flow-feed-warm-path).
 */
function feedItem(ctx: FeedContext, t: ScoredTrade, q: Query, index: number): FlowTradeItem {
  const tape = ctx.tape;
  // Custom weights re-score the trades (new objects each call) and change `dteMultiplier`: not kept.
  const memo = q.conviction_weights ? null : itemMemo(ctx.baseline, q.include_clusters);
  let item = memo?.get(t);
  if (!item) {
    item = memoizeJson({ ...flowTradeItem(t, t.sweepGroup >= 0 ? tape.sweeps.groups[t.sweepGroup] : null), ...extrasOf(t, ctx, q, index) });
    memo?.set(t, item);
  }
  return item;
}

/** One page of the feed: its rows (serialised once, as a whole) and where it ended. */
interface FeedPage {
  items: FlowTradeItem[];
  more: boolean;
  last: { index: number; tsNs: string } | null;
}

/** The page newest first from `before`, stopping one row past `limit` (so `more` is known). */
function buildPage(ctx: FeedContext, trades: readonly ScoredTrade[], q: Query, lo: number, before: number): FeedPage {
  const items: FlowTradeItem[] = [];
  let more = false;
  let last: FeedPage["last"] = null;
  for (let k = before - lo - 1; k >= 0; k--) {
    const t = trades[k];
    if (!passes(t, q, ctx.baseline)) continue;
    if (items.length === q.limit) {
      more = true;
      break;
    }
    items.push(feedItem(ctx, t, q, lo + k));
    last = { index: lo + k, tsNs: t.tsNs };
  }
  return { items, more, last };
}

/** Filters of a query as text (the window and paging parts excluded). */
function filterKey(q: Query): string {
  const { limit: _l, cursor: _c, date: _d, timeframe: _t, ...filters } = q;
  return JSON.stringify(filters, (_k, v) => (v instanceof Set ? [...v] : v));
}

/**
 * The filters that make two requests "the same" for the paging hint: everything but the window
 * (`start_time`, `end_time`) and the paging (`limit`, `cursor`), with the resolved session date.
 * @see docs/methodology.md#flow-paging-hint
 */
function hintFilterKey(q: Query, date: string): string {
  const { limit: _l, cursor: _c, start_time: _s, end_time: _e, date: _d, ...filters } = q;
  return `${date}|${JSON.stringify(filters, (_k, v) => (v instanceof Set ? [...v].sort() : v))}`;
}

const PAGES = new WeakMap<SessionTape, Map<string, FeedPage>>();

/** Pages and aggregates differ once the baseline is stored (its values never change after). */
function baselineKey(ctx: FeedContext): string {
  return ctx.baseline ? `b${ctx.baseline.sessions}` : "b-";
}

/**
 * The page, memoised per tape (a tape is replaced when prints arrive, so a cached page never goes
 * stale) and per window, cursor, limit and filters, with its rows serialised once as a whole: a
 * repeated warm query re-filters nothing and serialises only the envelope around the rows.
 */
function cachedPage(ctx: FeedContext, trades: readonly ScoredTrade[], q: Query, lo: number, before: number, windowKey: string): FeedPage {
  const tape = ctx.tape;
  const key = `${windowKey}|${before}|${q.limit}|${baselineKey(ctx)}|${filterKey(q)}`;
  let byKey = PAGES.get(tape);
  if (!byKey) {
    byKey = new Map();
    PAGES.set(tape, byKey);
  }
  let page = byKey.get(key);
  if (!page) {
    page = buildPage(ctx, trades, q, lo, before);
    memoizeJson(page.items);
    if (byKey.size > 64) byKey.clear();
    byKey.set(key, page);
  }
  return page;
}

const AGGREGATES = new WeakMap<SessionTape, Map<string, WindowScores>>();

/**
 * The window's scores over every trade passing the filters, memoised per tape (a tape is replaced
 * when prints arrive) and per window and filters, so paging and repeated calls do not rescan.
 */
function windowAggregate(ctx: FeedContext, trades: readonly ScoredTrade[], q: Query, fromMs: number, toMs: number): WindowScores {
  const tape = ctx.tape;
  const key = `${fromMs}|${toMs}|${baselineKey(ctx)}|${filterKey(q)}`;
  let byKey = AGGREGATES.get(tape);
  if (!byKey) {
    byKey = new Map();
    AGGREGATES.set(tape, byKey);
  }
  let agg = byKey.get(key);
  if (!agg) {
    agg = windowScores(trades.filter((t) => passes(t, q, ctx.baseline)));
    if (byKey.size > 64) byKey.clear();
    byKey.set(key, agg);
  }
  return agg;
}

export const flowFeedRoute = flowRoute({
  ...FLOW_ROUTE_DEFAULTS,
  path: "/v1/flow/:ticker",
  operationId: "getFlow",
  cost: 1,
  query: FlowFeedQuerySchema,
  params: FlowTickerParamsSchema,
  symbolsOf: tickerOfPath,
  check: (q) => checkBounds(q, [...CONTRACT_FILTER_BOUNDS, ["min_contracts", "max_contracts"]]),
  data: FlowFeedDataSchema,
  summary: "Scored options flow for a ticker",
  description:
    "The ticker's option trades in the window (the trailing `timeframe` of the session so far, or `start_time`..`end_time`), " +
    "newest first, each with its Flow Score (-100..100), FlowBonus (0..100) and conviction components, plus the window's VWF, SDF and FIR " +
    "over every trade that passes the filters. Pages by `cursor` (`meta.nextCursor`) without gaps or repeats while prints arrive; " +
    "an account that instead sends several overlapping windows of the same filters within seconds gets an informational `X-Skylit-Hint` header.",
  tags: ["Flow"],
  handler: async ({ query: q, params: p, state, nowMs, services, requestId, principal }) => {
    const started = performance.now();
    const ticker = await resolveFlowTicker(state, p.ticker);
    const date = resolveFlowDate(q.date, nowMs);
    // A cold tape's trades, context and stored baseline are each tens of ms (SPY): sliced.
    const slice = timeSlicer();
    const tape = await sessionTape(state, ticker, date, nowMs);
    await slice();
    const { fromMs, toMs } = tradeWindow(q, tape, nowMs);
    // Recorded once the window is valid. Cursor pages are the paging the hint recommends: neither recorded nor hinted.
    const hint =
      q.cursor === undefined &&
      state.hints.note({
        account: principal?.accountId ?? "",
        feed: `flow|${ticker}`,
        filters: hintFilterKey(q, date),
        start: q.start_time,
        end: q.end_time === undefined ? undefined : q.end_time + 1,
        atMs: services.wallNowMs(),
      });
    const lo = tapeIndexAt(tape, fromMs);
    const hi = tapeIndexAt(tape, toMs);
    // Custom weights re-score the whole tape: in pieces, as the tape was scored.
    const trades = q.conviction_weights
      ? scoredTradesFromColumns(
          tape.prints,
          tape.columns,
          await runStepsOnLoop(scoreFlowColumnsSteps(tape.columns, { normPremiumUsd: tape.norm, weights: q.conviction_weights }, TAPE_PRINTS_PER_PIECE)),
          lo,
          hi,
        )
      : tapeTrades(tape).slice(lo, hi);
    await slice();
    const before = q.cursor === undefined ? hi : Math.max(lo, Math.min(hi, decodeCursor(q.cursor, date)));
    const ctx = feedContext(tape);
    await slice();
    // The stored RVOL baseline, or null while it is not (docs/methodology.md#flow-feed-rvol).
    const baseline = storedVolumeBaseline(state, ticker, date, nowMs);
    await slice();
    // Set after the last yield: another request on this tape sets its own before reading it.
    ctx.baseline = baseline;
    // Re-scored trades (custom weights) are new objects each call: their page is not kept.
    const page = q.conviction_weights ? buildPage(ctx, trades, q, lo, before) : cachedPage(ctx, trades, q, lo, before, `${fromMs}|${toMs}`);
    const agg = windowAggregate(ctx, trades, q, fromMs, toMs);
    const { more, last } = page;
    return {
      data: {
        ticker,
        date,
        timeframe: q.timeframe,
        startTime: new Date(fromMs).toISOString(),
        endTime: new Date(toMs).toISOString(),
        trades: page.items,
        aggregate: { vwf: agg.vwf, sdf: agg.sdf, fir: agg.fir },
        tradeCount: agg.tradeCount,
        sweepCount: agg.sweepCount,
        totalPremium: agg.totalPremium,
        queryTimeMs: Math.round(performance.now() - started),
      },
      meta: flowMeta(services, requestId, {
        ...(more && last ? { nextCursor: encodeCursor(date, last.index) } : {}),
        ...(last ? { nextEndTime: formatTsNsIso(last.tsNs) } : {}),
      }),
      ...(hint ? { headers: { "X-Skylit-Hint": FEED_PAGING_HINT } } : {}),
    };
  },
});
