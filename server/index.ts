// optionscope/server: the API server as a library (create the app, listen, extend the route table).

// App
export { createApp, HOST_PREFIXES } from "./app";
export type { OptionscopeApp } from "./app";
export { DEFAULT_STREAM_TIMINGS } from "./services";
export type { AppOptions, AppServices, FetchLike, HostNames, Logger, StreamTimings } from "./services";

// Listening and running
export { listen } from "./http/listen";
export type { ListenOptions, Listening } from "./http/listen";
export { resolveServeConfig, SERVE_USAGE, UsageError } from "./config";
export type { ServeConfig } from "./config";
export { clockFor, startServer } from "./serve";
export type { RunningServer } from "./serve";

// Real markets: live feeds, the store of record and its replay (docs/data.md#live-feeds, docs/data.md#store-of-record)
export { createLiveMarket } from "./feeds/live-market";
export type { LiveMarket, LiveMarketOptions } from "./feeds/live-market";
export { FeedError } from "./feeds/market-feed";
export type { FeedGap, FeedPartStatus, FeedState, FeedStatus, MarketFeed } from "./feeds/market-feed";
export { createMassiveFeed } from "./feeds/massive/massive-feed";
export type { MassiveFeed, MassiveFeedOptions } from "./feeds/massive/massive-feed";
export { recordFeed, RECORD_LAG_MS } from "./feeds/record-feed";
export { openRecordedMarket } from "./recording/recorded-market";
export type { RecordedMarket, RecordedMarketOptions } from "./recording/recorded-market";
export { startRecording, RecordingError } from "./recording/recorder";
export type { MinuteAck, RecordingHandle, RecordingOptions } from "./recording/recorder";
export { importCboeQuotes } from "./recording/cboe-import";
export type { ImportOptions, ImportProgress, ImportSummary } from "./recording/cboe-import";

// Modules and the route table
export * from "./modules";
export { validateParams } from "./http/validate";

// Errors
export { ApiError, apiErrors, isApiError, toApiError } from "./errors";
export { BILLING_CODES, errorBody, renderCode, renderError } from "./http/render-error";
export type { ErrorStyle } from "./http/render-error";

// OpenAPI
export { buildOpenApiDocument } from "./openapi/build-document";
export type { DocumentKind } from "./openapi/build-document";

// Accounts and limits (the default stores)
export { openAccountService, accountsDbPath, resolveDataDir, ensureDemoAccount } from "./accounts";
export type { AccountService, Principal, Entitlement, Plan, RateLimiter, ConcurrencyLimiter } from "./accounts";
export { createRateLimiter, createConcurrencyLimiter } from "./limits";
