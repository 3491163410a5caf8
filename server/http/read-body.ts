/**
 * Read a request body as text with a byte limit enforced while streaming: a declared
 * `Content-Length` over the limit is refused unread, and a chunked body is read only until it
 * passes the limit. Memory stays under the limit plus one chunk whatever the client sends.
 * See docs/api.md#http (request bodies).
 */

/** The body, or `tooLarge` when it passed `maxBytes` (the rest is left unread). */
export type BodyText = { tooLarge: false; text: string } | { tooLarge: true };

/**
 * Read at most `maxBytes` of `request`'s body as UTF-8 text.
 *
 * Past the limit the stream is released, not cancelled: cancelling destroys Node's request and
 * with it the socket, so the 413 could not be sent. Answer with `Connection: close` (see
 * `BODY_TOO_LARGE_HEADERS`) so the unread rest is dropped with the connection.
 * @example const body = await readBodyText(request, 16 * 1024); if (body.tooLarge) return tooLarge();
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<BodyText> {
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > maxBytes) return { tooLarge: true };
  if (request.body === null) return { tooLarge: false, text: "" };
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let received = 0;
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      if (received > maxBytes) return { tooLarge: true };
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    reader.releaseLock();
  }
  return { tooLarge: false, text: text + decoder.decode() };
}

/** Headers for a 413 sent before the body was read to its end: the connection must not be reused. */
export const BODY_TOO_LARGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({ Connection: "close" });
