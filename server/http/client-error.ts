import type { Socket } from "node:net";
import { toApiError } from "../errors";
import { errorBody } from "./render-error";
import { EXPOSED_HEADERS } from "./cors";

const REASONS: Record<number, string> = { 400: "Bad Request", 408: "Request Timeout", 414: "URI Too Long", 431: "Request Header Fields Too Large" };

/** The status Node's parser error maps to. */
export function clientErrorStatus(code: string | undefined): number {
  if (code === "HPE_HEADER_OVERFLOW") return 431;
  if (code === "HPE_URI_TOO_LONG") return 414;
  if (code === "ERR_HTTP_REQUEST_TIMEOUT" || code === "ERR_HTTP_HEADERS_TIMEOUT") return 408;
  return 400;
}

/**
 * The Node server's `clientError` listener: requests Node rejects before any handler runs
 * (oversized headers, malformed HTTP, header timeouts) still get the enveloped error, then the
 * connection closes. Replaces Node's bare default answer.
 */
export function handleClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || !socket.writable || (socket as Socket & { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  const status = clientErrorStatus(error.code);
  const body = JSON.stringify(errorBody(toApiError({ status }), "lower"));
  const head = [
    `HTTP/1.1 ${status} ${REASONS[status]}`,
    "Content-Type: application/json; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Cache-Control: no-store",
    "Access-Control-Allow-Origin: *",
    `Access-Control-Expose-Headers: ${EXPOSED_HEADERS.join(", ")}`,
    "Connection: close",
  ].join("\r\n");
  socket.end(`${head}\r\n\r\n${body}`);
}
