/**
 * Stream settings: the spec's timings (from `createApp({ streams })` / env, DESIGN section 7) plus
 * the tuning knobs of the stream hub (tick, revalidation, resume window, queues, caps).
 * See docs/api.md#streams.
 */
import type { AppServices, StreamTimings } from "../services";

/** Hub tuning; every field has a documented default. */
export interface StreamTuning {
  /** Real milliseconds between hub ticks (deadline checks, board refresh). Default 50. */
  tickMs: number;
  /** Real milliseconds between key/account re-checks (spec: within a second). Default 1000. */
  revalidateMs: number;
  /** Events kept per lineage for resumption. Default 1000. */
  replayMaxEvents: number;
  /** Resume window, seconds of stream time: older events are forgotten. Default 600. */
  replayWindowS: number;
  /** Lineages remembered at once (oldest detached ones are forgotten first). Default 20000. */
  maxLineages: number;
  /** Non-board events waiting for a slow reader before it is dropped. Default 256. */
  queueMaxEvents: number;
  /** Events of an `events` topic (flow trades) a connection may be behind before the oldest are skipped (`lagged`). Default 5000. */
  eventsBacklogMax: number;
  /** Real milliseconds a write may stay unaccepted before the reader is dropped. Default 30000. */
  slowReaderMs: number;
  /** Bytes a WebSocket may buffer before its writes count as blocked. Default 262144. */
  wsHighWaterBytes: number;
  /** Server-wide open connections; over it -> 503 `stream_capacity`. Default 5000. */
  maxConnections: number;
  /** Server-wide distinct (symbol, board options) topics; over it -> 503 `stream_capacity`. Default 500. */
  maxTopics: number;
  /** `Retry-After` of 429 `stream_limit_reached`, seconds. Default 2. */
  limitRetryAfterS: number;
  /** `Retry-After` of 503 `stream_capacity` / `stream_unavailable`, seconds. Default 5. */
  capacityRetryAfterS: number;
  /** A WebSocket upgrade that was charged but never opened is refunded after this, ms. Default 10000. */
  upgradeGraceMs: number;
  /** New boards handed to subscribers per event-loop turn, all topics together (setImmediate between batches). Default 64. */
  fanoutBatch: number;
}

/** Timings and tuning together, as the hub uses them. */
export type StreamSettings = StreamTimings & StreamTuning;

const DEFAULT_STREAM_TUNING: StreamTuning = Object.freeze({
  tickMs: 50,
  revalidateMs: 1000,
  replayMaxEvents: 1000,
  replayWindowS: 600,
  maxLineages: 20_000,
  queueMaxEvents: 256,
  eventsBacklogMax: 5000,
  slowReaderMs: 30_000,
  wsHighWaterBytes: 256 * 1024,
  maxConnections: 5000,
  maxTopics: 500,
  limitRetryAfterS: 2,
  capacityRetryAfterS: 5,
  upgradeGraceMs: 10_000,
  fanoutBatch: 64,
});

/**
 * Override hub tuning for an app before its first stream opens (tests, bench).
 * @example configureStreams(app.services, { tickMs: 5, revalidateMs: 100 })
 */
export function configureStreams(services: AppServices, tuning: Partial<StreamTuning>): void {
  Object.assign(services.streamTuning, tuning);
}

/** The settings of an app: its timings and any tuning set with `configureStreams`. */
export function streamSettings(services: AppServices): StreamSettings {
  return { ...DEFAULT_STREAM_TUNING, ...services.streamTuning, ...services.streams };
}
