import { ApiError } from "../errors";

/**
 * The HTTP request of a route call, for the routes that only make sense over HTTP (streams, the
 * API descriptions). Tool calls never reach them (`isToolRoute`); this is the guard.
 * @throws ApiError 400 `invalid_request` when the call did not come over HTTP
 */
export function httpRequestOf(request: Request | null): Request {
  if (request === null) throw new ApiError(400, "invalid_request", "This endpoint is served over HTTP only.");
  return request;
}
