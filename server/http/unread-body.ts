import type { IncomingMessage, ServerResponse } from "node:http";

/** After an answer sent before its body arrived, how long and how much of the rest is read and discarded. */
const LINGER_MS = 500;
const LINGER_BYTES = 1 << 20;

/**
 * Close the connection after a response that was sent before its request body arrived in full
 * (a 413 at a body limit, a 401/405 that never looked at the body). Node would otherwise keep the
 * connection and either read the rest of the body to discard it (a 450 MB upload read for
 * nothing) or leave it half-read until the keep-alive timeout. Call once per request.
 *
 * The close lingers, as web servers' do: the answer is followed by a FIN and what the client still
 * sends is read and dropped for a moment (at most LINGER_MS and LINGER_BYTES) before the socket
 * goes. Destroying it at once leaves unread data in the kernel, which answers with a reset that
 * can discard the answer before the client has read it (the 413 then looks like a dropped
 * connection, which happened on a loaded machine).
 */
export function closeWhenBodyUnread(request: IncomingMessage, response: ServerResponse): void {
  response.once("finish", () => {
    if (request.complete) return;
    const socket = request.socket;
    if (socket.destroyed) return;
    let discarded = 0;
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref?.();
    socket.once("close", () => clearTimeout(timer));
    request.on("data", (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > LINGER_BYTES) socket.destroy();
    });
    request.resume();
    // Let the answer flush, then send FIN; whatever the client still sends is never used.
    socket.end();
  });
}
