/**
 * The contract of a live source: what `optionscope serve --feed NAME` starts, serves through its
 * `market` and reports on at `/v1/status/feed`. A second vendor implements this (and writes into a
 * `LiveMarket` through its `LiveSink`); nothing else in the server knows which vendor it is.
 * @see docs/data.md#live-feeds
 */
import type { z } from "zod";
import type { FeedGapSchema, FeedPartStatusSchema, FeedStateSchema, FeedStatusSchema } from "../../lib/api/feed-status";
import type { LiveMarket } from "./live-market";

/** Where a feed is: starting, serving fresh data, serving with a part down, or not serving. */
export type FeedState = z.output<typeof FeedStateSchema>;

/** A stretch of data the feed could not deliver and could not fill afterwards: recorded, never interpolated. */
export type FeedGap = z.output<typeof FeedGapSchema>;

/** One connection or poll loop of a feed. */
export type FeedPartStatus = z.output<typeof FeedPartStatusSchema>;

/** A feed's state as `/v1/status/feed` and the `feed_status` log line show it (its schema: lib/api/feed-status.ts). */
export type FeedStatus = z.output<typeof FeedStatusSchema>;

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
