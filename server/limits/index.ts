// Rate limits
export { createRateLimiter } from "./rate-limiter";
// Concurrency slots
export { createConcurrencyLimiter, streamSymbolsInUse } from "./concurrency-limiter";
export { SLOT_HISTORICAL, SLOT_STREAM_SYMBOLS } from "../accounts/types";
export type { RateLimiter } from "../accounts/types";
// Headers and errors
export { rateLimitedError, rateLimitHeaders, tooManyConcurrentError } from "./limit-errors";
