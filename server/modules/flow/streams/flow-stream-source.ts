/**
 * What `/v1/flow/stream` carries: the scored trades of its tickers, minute by minute on the market
 * clock, as an `events` topic of the stream machinery (admission, billing, resume, limits and
 * fan-out are the machinery's). A topic's state is the trades of a trailing window of finished
 * minutes in print order; each connection writes those after its lineage's position, so a resumed
 * stream gets what it missed with no gap and no repeat, and a slow reader catches up from the
 * newest state. See docs/api.md#flow-stream.
 */
import type { FlowStreamQuery } from "../../../../lib/api/flow-stream";
import { flowTradeItem, scoredTradesFromColumns, type ScoredTrade } from "../../../../lib/flow";
import { premiumBand, premiumBandThresholds, type PremiumBand } from "../../../../lib/flow/premium-percentile";
import { premiumUsd } from "../../../../lib/flow";
import { previousTradingDay, sessionBounds } from "../../../../lib/time";
import type { EventsState, PositionedEvent, TopicSource } from "../../../streams/board-hub";
import { SharedEvent } from "../../../streams/sink";
import { createStreamHub, type StreamHub } from "../../../streams/stream-hub";
import type { FlowState } from "../flow-route";
import { streamTradePasses, type FlowStreamFilter } from "./flow-stream-filter";
import { buildTape, currentFlowDate, extendTape, FLOW_FIRST_DATE, sessionPrints, tapeIndexAt, type SessionTape } from "../sessions/tape";

const MINUTE_MS = 60_000;

/** The hub's only topic name: a flow stream is one topic whatever its tickers (billed as one). */
export const FLOW_STREAM_TOPIC = "flow";

/**
 * Trade positions: `tsMs * POS_PER_MS + k`, `k` the trade's rank among the topic's trades of the
 * same millisecond (print order, then ticker). Below 2^53 until 2039.
 */
const POS_PER_MS = 4096;

/** The stream's options: the resolved tickers (sorted) and the trade filters. */
export interface FlowStreamTopicQuery {
  tickers: string[];
  filter: FlowStreamFilter;
}

/** The topic query of a request, with its tickers already resolved. */
export function topicQueryOf(tickers: readonly string[], filter: FlowStreamFilter): FlowStreamTopicQuery {
  return { tickers: [...tickers].sort(), filter };
}

/** The position of a connection opened at `nowMs`: before every trade printed at or after it (live only). */
export function livePosition(nowMs: number): number {
  return nowMs * POS_PER_MS - 1;
}

/** One scored trade of a ticker's minute, with its shared `trade` event. */
interface MinuteTrade {
  ticker: string;
  /** Index in the ticker's tape (print order). */
  index: number;
  t: ScoredTrade;
  band: PremiumBand | null;
  event: SharedEvent;
}

/** The `trade` event's data: the feed item plus the ticker, contract, band and the live-feed flags. */
function tradeEventData(ticker: string, tape: SessionTape, t: ScoredTrade, band: PremiumBand | null): string {
  const item = flowTradeItem(t, t.sweepGroup >= 0 ? tape.sweeps.groups[t.sweepGroup] : null);
  return JSON.stringify({
    ticker,
    symbol: t.symbol,
    ...item,
    premiumPercentile: band,
    sweep_trade: t.isSweep,
    multi_leg: t.isMultiLeg,
    cross_trade: t.isCross,
  });
}

/** Options of the source (tests shorten the window). */
export interface FlowStreamSourceOptions {
  /** Finished minutes a state carries (the resume reach), default 11 (the 600 s resume window and one more). */
  windowMinutes?: number;
}

/**
 * The flow trades as a stream topic source. It keeps its own session tapes (one per ticker,
 * extended minute by minute, so a market-wide stream does not churn the module's tape cache), one
 * list of scored trades per (ticker, minute) shared by every topic, and each topic's filtered minutes.
 */
function flowTopicSource(state: FlowState, options: FlowStreamSourceOptions = {}): TopicSource<FlowStreamTopicQuery, EventsState> {
  const windowMinutes = options.windowMinutes ?? 11;
  const tapes = new Map<string, Promise<SessionTape>>();
  const minuteTrades = new Map<string, Promise<MinuteTrade[]>>();
  const bands = new Map<string, Promise<number[] | null>>();
  const topicMinutes = new Map<string, Map<number, Promise<PositionedEvent[]>>>();
  /** Per topic, the positions of every minute it built this session (kept after the window moves on). */
  const topicPositions = new Map<string, { positions: Map<number, Float64Array>; endMs: number }>();
  let sessionDate = "";

  /** Forget everything of another session. */
  function enterSession(date: string): void {
    if (date === sessionDate) return;
    sessionDate = date;
    tapes.clear();
    minuteTrades.clear();
    bands.clear();
    topicMinutes.clear();
    topicPositions.clear();
  }

  /** How many positions after `afterPos` the topic had before `beforeMs` (the minutes it built). */
  function countAfter(key: string, afterPos: number, beforeMs: number): number {
    const known = topicPositions.get(key);
    if (!known) return 0;
    const fromMinute = Math.floor(afterPos / POS_PER_MS / MINUTE_MS) * MINUTE_MS;
    let n = 0;
    for (const [m, list] of known.positions) {
      if (m < fromMinute || m >= beforeMs) continue;
      for (let i = 0; i < list.length; i++) if (list[i] > afterPos) n++;
    }
    return n;
  }

  /** The ticker's tape through `uptoMs` (extended in order; concurrent callers share it). */
  function tapeUpTo(ticker: string, date: string, uptoMs: number): Promise<SessionTape> {
    const prev = tapes.get(ticker);
    const next = prev
      ? prev.then(
          (tape) => (tape.uptoMs >= uptoMs ? tape : extendTape(state, tape, uptoMs)),
          () => buildTape(state, ticker, date, uptoMs),
        )
      : buildTape(state, ticker, date, uptoMs);
    tapes.set(ticker, next);
    return next;
  }

  /** The ticker's premium band thresholds for `date` (from the previous session's prints). */
  function thresholdsOf(ticker: string, date: string): Promise<number[] | null> {
    let p = bands.get(ticker);
    if (!p) {
      const prior = previousTradingDay(date);
      p =
        prior < FLOW_FIRST_DATE
          ? Promise.resolve(null)
          : sessionPrints(state, ticker, prior, sessionBounds(prior).closeMs).then((prints) => premiumBandThresholds(prints.map((x) => premiumUsd(x.price, x.size))));
      bands.set(ticker, p);
      p.catch(() => bands.delete(ticker));
    }
    return p;
  }

  /** The ticker's scored trades printed in `[minuteMs, minuteMs + 1 min)`. */
  function tradesOfMinute(ticker: string, date: string, minuteMs: number, uptoMs: number): Promise<MinuteTrade[]> {
    const key = `${ticker}|${minuteMs}`;
    let p = minuteTrades.get(key);
    if (!p) {
      p = Promise.all([tapeUpTo(ticker, date, uptoMs), thresholdsOf(ticker, date)]).then(([tape, thresholds]) => {
        const lo = tapeIndexAt(tape, minuteMs);
        const hi = tapeIndexAt(tape, minuteMs + MINUTE_MS);
        return scoredTradesFromColumns(tape.prints, tape.columns, tape.scores, lo, hi).map((t, k) => {
          const band = premiumBand(t.premiumUsd, thresholds);
          return { ticker, index: lo + k, t, band, event: new SharedEvent("trade", tradeEventData(ticker, tape, t, band)) };
        });
      });
      minuteTrades.set(key, p);
      p.catch(() => minuteTrades.delete(key));
    }
    return p;
  }

  /** A topic's trades of one minute, in print order then ticker, with their positions. */
  async function topicMinute(q: FlowStreamTopicQuery, date: string, minuteMs: number, uptoMs: number): Promise<PositionedEvent[]> {
    const perTicker = await Promise.all(q.tickers.map((ticker) => tradesOfMinute(ticker, date, minuteMs, uptoMs)));
    const passing: MinuteTrade[] = [];
    for (const list of perTicker) for (const m of list) if (streamTradePasses(m.t, m.band, q.filter)) passing.push(m);
    passing.sort(
      (a, b) =>
        a.t.tsMs - b.t.tsMs || (a.t.tsNs < b.t.tsNs ? -1 : a.t.tsNs > b.t.tsNs ? 1 : 0) || (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : a.index - b.index),
    );
    const out: PositionedEvent[] = [];
    let rank = 0;
    for (let i = 0; i < passing.length; i++) {
      const ms = passing[i].t.tsMs;
      rank = i > 0 && passing[i - 1].t.tsMs === ms ? rank + 1 : 0;
      // Never reached in practice (4096 prints of one topic in one millisecond); kept ordered by dropping.
      if (rank >= POS_PER_MS) continue;
      out.push({ pos: ms * POS_PER_MS + rank, shared: passing[i].event });
    }
    return out;
  }

  function optionsKey(q: FlowStreamTopicQuery): string {
    return `${q.tickers.join(",")}|${JSON.stringify(q.filter)}`;
  }

  return {
    optionsKey,
    connectedFields: (q) => ({ tickers: q.tickers, filters: q.filter }),
    async build(_symbol, q, nowMs): Promise<EventsState> {
      const date = currentFlowDate(nowMs);
      enterSession(date);
      const { openMs, closeMs } = sessionBounds(date);
      const endMs = Math.max(openMs, Math.min(Math.floor(nowMs / MINUTE_MS) * MINUTE_MS, closeMs));
      const fromMs = Math.max(openMs, endMs - windowMinutes * MINUTE_MS);
      const key = optionsKey(q);
      let minutes = topicMinutes.get(key);
      if (!minutes) {
        minutes = new Map();
        topicMinutes.set(key, minutes);
      }
      let known = topicPositions.get(key);
      if (!known) {
        known = { positions: new Map(), endMs: fromMs };
        topicPositions.set(key, known);
      }
      const chunks: Promise<PositionedEvent[]>[] = [];
      // Minutes the window skipped since the topic's last build are built for their counts (`lagged`).
      for (let m = Math.min(known.endMs, fromMs); m < endMs; m += MINUTE_MS) {
        let c = minutes.get(m);
        if (!c && !known.positions.has(m)) {
          c = topicMinute(q, date, m, endMs);
          const positions = known.positions;
          c.then(
            (list) =>
              positions.set(
                m,
                Float64Array.from(list, (e) => e.pos),
              ),
            () => {},
          );
          if (m >= fromMs) minutes.set(m, c);
          c.catch(() => minutes!.delete(m));
        }
        if (m >= fromMs) chunks.push(c ?? topicMinute(q, date, m, endMs));
        else if (c) await c;
      }
      known.endMs = Math.max(known.endMs, endMs);
      for (const m of minutes.keys()) if (m < fromMs) minutes.delete(m);
      for (const k of minuteTrades.keys()) if (Number(k.slice(k.indexOf("|") + 1)) < fromMs) minuteTrades.delete(k);
      const events = (await Promise.all(chunks)).flat();
      return { kind: "events", asOfMs: endMs, fromPos: fromMs * POS_PER_MS, events, missedAfter: (afterPos) => countAfter(key, afterPos, fromMs) };
    },
  };
}

const HUBS = new WeakMap<FlowState, StreamHub<FlowStreamTopicQuery, EventsState>>();

/** The app's flow stream hub, made on first use. */
export function flowStreamHub(state: FlowState, options?: FlowStreamSourceOptions): StreamHub<FlowStreamTopicQuery, EventsState> {
  let hub = HUBS.get(state);
  if (!hub) {
    hub = createStreamHub(state.services, flowTopicSource(state, options));
    HUBS.set(state, hub);
  }
  return hub;
}

/** The app's flow stream hub if one was made (shutdown). */
export function flowStreamHubOf(state: FlowState): StreamHub<FlowStreamTopicQuery, EventsState> | undefined {
  return HUBS.get(state);
}

/** The tickers a query streams: its `ticker` list (resolved) or the universe, by type, minus exclusions. */
export function streamTickersOf(
  q: Pick<FlowStreamQuery, "exclude_ticker" | "show_stocks" | "show_etf" | "show_indices">,
  candidates: ReadonlyArray<{ ticker: string; type: string }>,
): string[] {
  const excluded = new Set(q.exclude_ticker ?? []);
  return candidates
    .filter((s) => !excluded.has(s.ticker))
    .filter((s) => (s.type === "index" ? q.show_indices : s.type === "etf" ? q.show_etf : q.show_stocks))
    .map((s) => s.ticker);
}
