/**
 * Shared live boards for every open stream of one topic source: one topic per (symbol, options),
 * refreshed once per simulated minute on the market clock whatever the number of subscribers,
 * built by the module's `TopicSource` (positioning's builds with the same `liveEntry` as
 * `/v1/heatmap`, so a streamed board equals the heatmap board of that minute). Each board is
 * serialised once (its events are `SharedEvent`s, encoded once per transport) and handed to
 * subscribers in batches across event-loop turns.
 * See docs/api.md#stream-events and docs/api.md#stream-fan-out.
 */
import type { AppServices } from "../services";
import type { SharedEvent } from "./sink";

const MINUTE_MS = 60_000;
/**
 * What a module supplies to stream its payload: the state of a topic (a symbol under some
 * options) at a market instant. Everything else (admission, billing, resume, limits, fan-out,
 * both transports) is the streams machinery's.
 */
export interface TopicSource<Q, S extends TopicState = BoardState> {
  /** Stable text of the options: topics with equal keys share one state. */
  optionsKey(query: Q): string;
  /** The topic's state at `nowMs`: a board, or unavailable with a reason. */
  build(symbol: string, query: Q, nowMs: number): Promise<S>;
  /** Fields of the `connected` event that describe the options (placed after `symbols`). */
  connectedFields(query: Q): Record<string, unknown>;
}

/** What a topic currently has. */
export type BoardState =
  | {
      kind: "board";
      /** Market instant of the data; a topic's boards are sent in increasing `asOfMs`. */
      asOfMs: number;
      /** Name of the main event (`snapshot` for positioning boards, `bar` for price bars). */
      eventName: string;
      snapshot: Record<string, unknown>;
      /** JSON of `snapshot`, made once per board for every subscriber. */
      snapshotJson: string;
      /** The main event (`lagged: false` / `lagged: true`), encoded once. */
      snapshotEvent: SharedEvent;
      laggedSnapshotEvent: SharedEvent;
      /** A secondary event of the same board, when the source has one (positioning: per-strike velocity). */
      velocity?: { asOf: string };
      velocityJson?: string;
      velocityEvent?: SharedEvent;
    }
  | {
      kind: "unavailable";
      reason: string;
      message: string;
      /** More fields of the `symbol_unavailable` event: a stale board's `asOf`, `ageS` and `stale` (docs/methodology.md#staleness). */
      fields?: Record<string, unknown>;
    };

/** One discrete event of an `events` state, at its place in the topic's order. */
export interface PositionedEvent {
  /** Strictly increasing within a topic, stable across rebuilds (the resume position). */
  pos: number;
  /** Name and JSON data, encoded once for every subscriber. */
  shared: SharedEvent;
}

/**
 * A topic that streams discrete events rather than a replaceable board (the flow stream's
 * trades): the events of a trailing window in `pos` order. Each connection writes those after its
 * lineage's position, one event (and id) each, so a newer state carries what an older one did.
 */
export interface EventsState {
  kind: "events";
  /** Market instant the window ends at; states are sent in increasing `asOfMs`. */
  asOfMs: number;
  /** Every event of the topic at or after this position is in `events` (the window's start). */
  fromPos: number;
  events: readonly PositionedEvent[];
  /** How many of the topic's events after `afterPos` fell out of the window (before `fromPos`). */
  missedAfter(afterPos: number): number;
}

/** What a topic source builds: a board (replaced by the next) or a window of discrete events. */
export type TopicState = BoardState | EventsState;

export type BoardListener<S extends TopicState = TopicState> = (symbol: string, state: S) => void;

interface Topic<Q> {
  key: string;
  symbol: string;
  query: Q;
  listeners: Set<BoardListener>;
  latest: TopicState | null;
  /** Market-clock minute of the last refresh started (floor(ms / 60000)). */
  minute: number;
  refreshing: boolean;
}

/** Options of `createBoardHub`. */
export interface BoardHubOptions {
  /** (subscriber, board) deliveries per event-loop turn, across all topics (default 64). */
  fanoutBatch?: number;
}

interface FanOutJob {
  topic: Topic<unknown>;
  state: TopicState;
  listeners: BoardListener[];
  /** Index of the next listener to hand the state to. */
  next: number;
  done: () => void;
}

/**
 * Create the hub (one per app).
 * @example
 * const hub = createBoardHub(services, { fanoutBatch: 64 });
 * const off = hub.subscribe("SPY", query, (symbol, state) => { ... });
 * await hub.tick(services.clock.now());
 */
export function createBoardHub<Q, S extends TopicState = BoardState>(services: AppServices, source: TopicSource<Q, S>, options: BoardHubOptions = {}) {
  const topics = new Map<string, Topic<Q>>();
  const topicKey = (symbol: string, query: Q) => `${symbol}|${source.optionsKey(query)}`;
  const batch = Math.max(1, Math.floor(options.fanoutBatch ?? 64));
  // One queue for every topic: when all boards change at the minute, the turn's budget is shared
  // by all of them (per-topic batches would each take a full batch in the same turn).
  const jobs: FanOutJob[] = [];
  let pumping = false;

  /**
   * Hand out at most `batch` (subscriber, board) deliveries, oldest job first, then yield to the
   * event loop (setImmediate) if work is left: a board going out to hundreds of streams never
   * holds the loop for long, and each batch's writes (and the socket writes they start, in its
   * microtasks) finish before the next batch begins. A job whose state was replaced by a newer
   * one stops (the newer one's fan-out reaches everybody).
   */
  function pumpFanOut(): void {
    let budget = batch;
    while (budget > 0 && jobs.length > 0) {
      const job = jobs[0];
      const { topic, state, listeners } = job;
      if (topic.latest === state) {
        const end = Math.min(listeners.length, job.next + budget);
        for (; job.next < end; job.next++, budget--) {
          const l = listeners[job.next];
          // a subscriber that left while earlier batches were written gets nothing
          if (!topic.listeners.has(l)) continue;
          try {
            l(topic.symbol, state);
          } catch (error) {
            // one subscriber's failure must not stop the others' boards
            services.logger({ level: "error", msg: "stream_fanout_failed", symbol: topic.symbol, error: String((error as Error)?.message ?? error).slice(0, 300) });
          }
        }
        if (job.next < listeners.length) break;
      }
      jobs.shift();
      job.done();
    }
    if (jobs.length > 0) setImmediate(pumpFanOut);
    else pumping = false;
  }

  /** Queue a fan-out of `state` to the topic's current subscribers; resolves when it is done. */
  function fanOut(t: Topic<Q>, state: TopicState): Promise<void> {
    return new Promise<void>((done) => {
      jobs.push({ topic: t, state, listeners: [...t.listeners], next: 0, done });
      if (!pumping) {
        pumping = true;
        setImmediate(pumpFanOut);
      }
    });
  }

  async function refresh(t: Topic<Q>, nowMs: number): Promise<void> {
    t.refreshing = true;
    t.minute = Math.floor(nowMs / MINUTE_MS);
    try {
      const next = await source.build(t.symbol, t.query, nowMs);
      const prev = t.latest;
      const changed =
        prev === null ||
        prev.kind !== next.kind ||
        (next.kind !== "unavailable" && prev.kind === next.kind && next.asOfMs > prev.asOfMs) ||
        (next.kind === "unavailable" && prev.kind === "unavailable" && next.reason !== prev.reason);
      // Within a symbol asOf never goes backwards.
      if (next.kind !== "unavailable" && prev?.kind === next.kind && next.asOfMs < prev.asOfMs) return;
      t.latest = next;
      // Fan out from a macrotask of its own (boards of many topics finish together), in batches.
      if (changed) await new Promise((r) => setTimeout(r, 0));
      if (changed && t.latest === next) await fanOut(t, next);
    } catch (error) {
      services.logger({ level: "error", msg: "stream_board_failed", symbol: t.symbol, error: String((error as Error)?.message ?? error).slice(0, 300) });
    } finally {
      t.refreshing = false;
    }
  }

  return {
    /** Listen to a topic; the current state (if any) is delivered at once. Returns the unsubscribe. */
    subscribe(symbol: string, query: Q, listener: BoardListener<S>): () => void {
      const key = topicKey(symbol, query);
      let t = topics.get(key);
      if (!t) {
        t = { key, symbol, query, listeners: new Set(), latest: null, minute: -1, refreshing: false };
        topics.set(key, t);
      }
      // The hub hands a listener only states its source built (type S).
      t.listeners.add(listener as BoardListener);
      if (t.latest) listener(symbol, t.latest as S);
      const topic = t;
      return () => {
        topic.listeners.delete(listener as BoardListener);
        if (topic.listeners.size === 0 && topics.get(key) === topic) topics.delete(key);
      };
    },

    /** Whether a topic exists (for the server-wide topic cap). */
    has(symbol: string, query: Q): boolean {
      return topics.has(topicKey(symbol, query));
    },

    /** Refresh every topic whose market minute changed; resolves when those refreshes finish. */
    tick(nowMs: number): Promise<void> {
      const minute = Math.floor(nowMs / MINUTE_MS);
      const work: Promise<void>[] = [];
      for (const t of topics.values()) {
        if (!t.refreshing && t.minute !== minute) work.push(refresh(t, nowMs));
      }
      return work.length ? Promise.all(work).then(() => {}) : Promise.resolve();
    },

    get size(): number {
      return topics.size;
    },
  };
}

export type BoardHub<Q = unknown, S extends TopicState = BoardState> = ReturnType<typeof createBoardHub<Q, S>>;
