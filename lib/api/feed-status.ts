/**
 * `data` of `GET /v1/status/feed`: a live vendor feed's state, lag, last message, counters and
 * recorded gaps (the server's `MarketFeed.status()`). Kept in the library so the server, the OpenAPI
 * document and the typed client share one copy. See docs/data.md#feed-status.
 */
import * as z from "zod";

/** Where a feed is: starting, serving fresh data, serving with a part down, or not serving. */
export const FeedStateSchema = z.enum(["connecting", "live", "degraded", "down"]);

/** A stretch of data the feed could not deliver and could not fill afterwards: recorded, never interpolated. */
export const FeedGapSchema = z.object({
  /** What is missing: a symbol's boards, a stream's events. */
  kind: z.enum(["boards", "trades", "quotes", "bars"]),
  /** The symbol (boards), or the stream's cluster (`options`, `stocks`, `indices`). */
  source: z.string(),
  fromMs: z.number(),
  toMs: z.number(),
  reason: z.string(),
});

/** One connection or poll loop of a feed. */
export const FeedPartStatusSchema = z.object({
  name: z.string(),
  state: FeedStateSchema,
  /** Wall-clock instant of the last message or answer received, ms; null before the first. */
  lastMessageMs: z.number().nullable(),
  /** The last error, as the log wrote it (never the key). */
  lastError: z.string().nullable(),
  reconnects: z.number().int(),
});

/** A feed's state as `/v1/status/feed` and the `feed_status` log line show it. */
export const FeedStatusSchema = z
  .object({
    /** Vendor name (`massive`). */
    feed: z.string(),
    state: FeedStateSchema,
    /** Wall-clock instant the status was taken, ms. */
    atMs: z.number(),
    /** Newest board instant per symbol, ms (null before the first board). */
    boards: z.record(z.string(), z.number().nullable()),
    /** Seconds the oldest of the newest boards is behind the newest board that should exist (docs/methodology.md#staleness). */
    lagS: z.number().nullable(),
    /** Wall-clock instant of the last message of any part, ms. */
    lastMessageMs: z.number().nullable(),
    parts: z.array(FeedPartStatusSchema),
    /** Counters since the start (messages, malformed, 429s, prints, ...). */
    counters: z.record(z.string(), z.number()),
    /** The most recent gaps (the last 50), oldest first. */
    gaps: z.array(FeedGapSchema),
  })
  .meta({ description: "A live feed's state, lag, last message, per-part state, counters and recorded gaps (docs/data.md#feed-status)." });
