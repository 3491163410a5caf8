import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * The lingering close after an answer sent before its request body arrived in full: what the
 * client still sends is read and dropped until it stops (no byte for LINGER_IDLE_MS), hangs up,
 * or LINGER_MS or LINGER_BYTES run out. Apache and nginx linger the same way (nginx:
 * lingering_timeout 5 s, lingering_time 30 s); ours are shorter because a client that is told
 * 413 stops within a round trip.
 */
const LINGER_MS = 2_000;
const LINGER_IDLE_MS = 500;
const LINGER_BYTES = 64 << 20;

/**
 * Close the connection after a response that was sent before its request body arrived in full
 * (a 413 at a body limit, a 401/405 that never looked at the body). Node would otherwise keep the
 * connection and either read the rest of the body to discard it (a 450 MB upload read for
 * nothing) or leave it half-read until the keep-alive timeout. Call once per request.
 *
 * The answer is followed by a FIN, and the socket is destroyed only once the client has stopped
 * sending: destroying it with unread data in the kernel sends a reset, and a client still writing
 * its upload then fails its write and drops the answer it had not read yet. Node itself does that
 * after a `Connection: close` answer (`socket.destroySoon()`), which is how a 413 looked like a
 * dropped connection on a loaded machine. Reading to discard costs a few milliseconds of CPU per
 * 64 MiB and buffers nothing.
 */
export function closeWhenBodyUnread(request: IncomingMessage, response: ServerResponse): void {
  const socket = request.socket;
  // A `Connection: close` answer makes Node call `socket.destroySoon()` once the answer is
  // written, which would destroy the socket with the body unread: linger instead.
  response.once("prefinish", () => {
    if (request.complete || socket.destroyed) return;
    socket.destroySoon = () => lingerThenClose(request, socket);
  });
  response.once("finish", () => {
    if (!request.complete && !socket.destroyed) lingerThenClose(request, socket);
  });
}

const lingering = new WeakSet<Socket>();

/** Send FIN after the answer, read and drop what the client still sends, then destroy the socket. */
function lingerThenClose(request: IncomingMessage, socket: Socket): void {
  if (lingering.has(socket)) return;
  lingering.add(socket);
  let discarded = 0;
  const close = () => socket.destroy();
  const deadline = setTimeout(close, LINGER_MS);
  let idle = setTimeout(close, LINGER_IDLE_MS);
  deadline.unref?.();
  idle.unref?.();
  socket.once("close", () => {
    clearTimeout(deadline);
    clearTimeout(idle);
  });
  // Read the rest through the request, as Node's own `_dump` does: the web-stream adapter that
  // read the body so far would pause the request again as soon as its queue filled.
  request.removeAllListeners("data");
  request.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_BYTES) return close();
    clearTimeout(idle);
    idle = setTimeout(close, LINGER_IDLE_MS);
    idle.unref?.();
  });
  // The client's own FIN: nothing more can come, so nothing unread can cause a reset.
  socket.once("end", close);
  request.resume();
  // Let the answer flush, then send FIN; whatever the client still sends is never used.
  socket.end();
}
