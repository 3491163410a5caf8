import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { ApiError, toApiError } from "../errors";
import { errorBody } from "./render-error";
import { EXPOSED_HEADERS } from "./cors";

const REASONS: Record<number, string> = {
  400: "Bad Request",
  405: "Method Not Allowed",
  408: "Request Timeout",
  413: "Content Too Large",
  414: "URI Too Long",
  431: "Request Header Fields Too Large",
};

/** A method token and a space: the bytes start a request line. */
const REQUEST_LINE_START = /^[A-Za-z]+ /;

/**
 * Node reports one overflow for the request line and the headers together (`maxHeaderSize`).
 * It is the URL (414) when the read that overflowed starts a request line and holds no line end
 * before the point where parsing stopped: the headers were never reached. Otherwise (a header,
 * or a read that continues an earlier one) it is 431.
 */
function overflowStatus(rawPacket: Buffer | undefined, bytesParsed: number | undefined): 414 | 431 {
  if (!rawPacket || rawPacket.length === 0) return 431;
  const head = rawPacket.subarray(0, 16).toString("latin1");
  const parsed = bytesParsed !== undefined && bytesParsed > 0 ? rawPacket.subarray(0, bytesParsed) : rawPacket;
  return REQUEST_LINE_START.test(head) && !parsed.includes(0x0a) ? 414 : 431;
}

/** The status Node's parser error maps to. */
function clientErrorStatus(code: string | undefined, rawPacket?: Buffer, bytesParsed?: number): number {
  if (code === "HPE_HEADER_OVERFLOW") return overflowStatus(rawPacket, bytesParsed);
  if (code === "HPE_URI_TOO_LONG") return 414;
  if (code === "ERR_HTTP_REQUEST_TIMEOUT" || code === "ERR_HTTP_HEADERS_TIMEOUT") return 408;
  return 400;
}

/** The enveloped error's headers (CORS open, no caching, the connection closes after it). */
function errorHeaders(body: string, extra: Record<string, string>): Record<string, string> {
  return {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body)),
    "Cache-Control": "no-store",
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers": EXPOSED_HEADERS.join(", "),
    ...extra,
    Connection: "close",
  };
}

/** A complete HTTP/1.1 answer carrying `error` in the envelope, as raw text for a bare socket. */
function rawErrorResponse(error: ApiError, extra: Record<string, string> = {}): string {
  const body = JSON.stringify(errorBody(error, "lower"));
  const head = Object.entries(errorHeaders(body, extra)).map(([k, v]) => `${k}: ${v}`);
  return [`HTTP/1.1 ${error.status} ${REASONS[error.status] ?? "Error"}`, ...head].join("\r\n") + `\r\n\r\n${body}`;
}

/**
 * The Node server's `clientError` listener: requests Node rejects before or while a handler runs
 * (oversized URL or headers, malformed HTTP or framing, header/request timeouts) get the enveloped
 * error, then the connection closes. Like Node's default, an answer is written only when no
 * response has started on the socket; otherwise the socket is just closed.
 */
export function handleClientError(error: Error & { code?: string; rawPacket?: Buffer; bytesParsed?: number }, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(rawErrorResponse(toApiError({ status: clientErrorStatus(error.code, error.rawPacket, error.bytesParsed) })));
  // Whatever the client still sends is not read: close once the answer is out.
  socket.once("finish", () => socket.destroy());
}

/**
 * The Node server's `connect` listener: CONNECT (a proxy tunnel) is never served. Without a
 * listener Node drops the socket with no answer; this sends 405 enveloped.
 */
export function handleConnect(_request: IncomingMessage, socket: Duplex): void {
  const error = new ApiError(405, "method_not_allowed", "CONNECT is not supported; this is an API server, not a proxy.");
  socket.end(rawErrorResponse(error, { Allow: "GET" }));
  socket.once("finish", () => socket.destroy());
}

/**
 * Answer an HTTP/1.1 request without `Host` with 400 enveloped (RFC 9112 section 3.2) and return
 * true; false for anything else. The server runs with Node's own check off (it would answer a
 * bare 400), so this must run before the app.
 */
export function rejectWithoutHost(request: IncomingMessage, response: ServerResponse): boolean {
  if (request.headers.host !== undefined || request.httpVersion !== "1.1") return false;
  const error = new ApiError(400, "invalid_request", "The Host header is required on HTTP/1.1 requests.");
  const body = JSON.stringify(errorBody(error, "lower"));
  response.writeHead(400, errorHeaders(body, {}));
  response.end(body);
  return true;
}
