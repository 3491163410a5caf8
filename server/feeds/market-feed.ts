/**
 * The contract of a live source: what `optionscope serve --feed NAME` starts, serves through its
 * `market` and reports on at `/v1/status/feed`. A second vendor implements this (and writes into a
 * `LiveMarket` through its `LiveSink`); nothing else in the server knows which vendor it is.
 * @see docs/data.md#live-feeds
 */
import type { LiveMarket } from "./live-market";

/** Where a feed is: starting, serving fresh data, serving with a part down, or not serving. */
export type FeedState = "connecting" | "live" | "degraded" | "down";

/** A stretch of data the feed could not deliver and could not fill afterwards: recorded, never interpolated. */
export interface FeedGap {
  /** What is missing: a symbol's boards, a stream's events. */
  kind: "boards" | "trades" | "quotes" | "bars";
  /** The symbol (boards), or the stream's cluster (`options`, `stocks`, `indices`). */
  source: string;
  fromMs: number;
  toMs: number;
  reason: string;
}

/** One connection or poll loop of a feed. */
export interface FeedPartStatus {
  name: string;
  state: FeedState;
  /** Wall-clock instant of the last message or answer received, ms; null before the first. */
  lastMessageMs: number | null;
  /** The last error, as the log wrote it (never the key). */
  lastError: string | null;
  reconnects: number;
}

/** A feed's state as `/v1/status/feed` and the `feed_status` log line show it. */
export interface FeedStatus {
  feed: string;
  state: FeedState;
  /** Wall-clock instant the status was taken, ms. */
  atMs: number;
  /** Newest board instant per symbol, ms (null before the first board). */
  boards: Record<string, number | null>;
  /** Seconds from the oldest of the newest boards to now: the feed's lag. */
  lagS: number | null;
  /** Wall-clock instant of the last message of any part, ms. */
  lastMessageMs: number | null;
  parts: FeedPartStatus[];
  /** Counters since the start (messages, malformed, 429s, prints, ...). */
  counters: Record<string, number>;
  /** The most recent gaps (the last 50), oldest first. */
  gaps: FeedGap[];
}

/** A live source. */
export interface MarketFeed {
  /** Vendor name (`massive`). */
  readonly name: string;
  /** The market the server answers from. */
  readonly market: LiveMarket;
  /**
   * Connect, authenticate and take the first snapshot of every symbol. Rejects with a `FeedError`
   * when the start cannot succeed (a refused key, an unknown underlying); transient failures are
   * retried in the background instead.
   */
  start(): Promise<void>;
  status(): FeedStatus;
  /** Close connections and timers. */
  stop(): Promise<void>;
}

/** Why a feed cannot start or keep running; `code` is stable (the CLI's message and exit code follow it). */
export class FeedError extends Error {
  override readonly name = "FeedError";
  constructor(
    readonly code: "bad_key" | "not_entitled" | "quota_exceeded" | "unknown_underlying" | "unreachable",
    message: string,
  ) {
    super(message);
  }
}
