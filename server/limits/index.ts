// Rate limits
export { createRateLimiter, RATE_WINDOW_SECONDS } from "./rate-limiter";
// Concurrency slots
export { createConcurrencyLimiter, streamSymbolsInUse } from "./concurrency-limiter";
export { SLOT_HISTORICAL, SLOT_STREAM_SYMBOLS } from "../accounts/types";
export type { ConcurrencyLimiter, RateLimiter } from "../accounts/types";
// Headers and errors
export { rateLimitedError, rateLimitHeaders, tooManyConcurrentError, type RateDecision } from "./limit-errors";
