// The typed API client: one method per route, retries per the spec, typed errors, page iterators.
export { createClient, type ClientOptions } from "./create-client";
export { ApiResponseError, DeadlineExceededError, NetworkError, OptionscopeClientError } from "./errors";
export { operations } from "./operations.generated";
export type { OperationRoute, OperationSchemas, OperationSpec, ResponseSchemas } from "./operation-spec";
export type { RateLimitPacing } from "./pacing";
export type { RateLimit } from "./response-headers";
export type { CallOptions } from "./send";
export type { ApiResponse, OperationName, Operations, OptionscopeClient, ParamsOf, RequestOf, ResponseOf, StreamOptions } from "./types";
