import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Close the connection after a response that was sent before its request body arrived in full
 * (a 413 at a body limit, a 401/405 that never looked at the body). Node would otherwise keep the
 * connection and either read the rest of the body to discard it (a 450 MB upload read for
 * nothing) or leave it half-read until the keep-alive timeout. Call once per request.
 */
export function closeWhenBodyUnread(request: IncomingMessage, response: ServerResponse): void {
  response.once("finish", () => {
    if (request.complete) return;
    const socket = request.socket;
    // Let the answer flush, then close; whatever the client still sends is never read.
    if (!socket.destroyed) socket.destroySoon();
  });
}
