// optionscope/server: the API server as a library (create the app, listen, extend the route table).

// App
export { createApp, HOST_PREFIXES } from "./app";
export type { OptionscopeApp } from "./app";
export { DEFAULT_STREAM_TIMINGS, moduleState } from "./services";
export type { AppOptions, AppServices, FetchLike, HostNames, Logger, StreamTimings } from "./services";

// Listening and running
export { listen } from "./http/listen";
export type { ListenOptions, Listening } from "./http/listen";
export { resolveServeConfig, SERVE_USAGE, UsageError } from "./config";
export type { ServeConfig } from "./config";
export { clockFor, startServer } from "./serve";
export type { RunningServer } from "./serve";

// Route table
export { allRoutes, metaRoutes, positioningRoutes } from "./routes";
export { defineRoute, routeCost } from "./routes/define-route";
export type { AnyRoute, RouteContext, RouteDef, RouteHost, RouteModule, RouteResult } from "./routes/define-route";
export * from "./routes/params";
export { validateParams } from "./http/validate";

// Errors
export { ApiError, apiErrors, isApiError } from "./errors";
export { BILLING_CODES, errorBody, renderCode, renderError, toApiError } from "./http/render-error";
export type { ErrorStyle } from "./http/render-error";

// OpenAPI
export { buildOpenApiDocument } from "./openapi/build-document";
export type { DocumentKind } from "./openapi/build-document";

// Accounts and limits (the default stores)
export { openAccountService, accountsDbPath, resolveDataDir, ensureDemoAccount } from "./accounts";
export type { AccountService, Principal, Entitlement, Plan, RateLimiter, ConcurrencyLimiter } from "./accounts";
export { createRateLimiter, createConcurrencyLimiter } from "./limits";
