// Parser of the event-stream format
export { createSseParser, type SseMessage, type SseParser, type SseParserHandlers } from "./sse-parser";
// Retry guidance
export { isRetryableStatus, parseRetryAfter, retryDelayMs, RETRY_DEFAULTS, type BackoffOptions } from "./backoff";
// The client
export {
  openStream,
  StreamClientError,
  RECONNECTABLE_CLOSE_REASONS,
  type StreamClient,
  type StreamClientOptions,
  type StreamEnd,
  type StreamEvent,
  type StreamStatus,
} from "./stream-client";
