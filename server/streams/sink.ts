/**
 * The transport under a stream connection (SSE response body or WebSocket peer): one frame at a
 * time, with backpressure as a returned promise. See docs/api.md#stream-backpressure.
 */

/** One thing to write: an event (id, name, JSON text of its data) or a keep-alive. */
export interface OutFrame {
  id?: string;
  event?: string;
  /** JSON text. */
  data?: string;
  /** SSE reconnection time, ms (ignored on WebSocket). */
  retry?: number;
  /** A keep-alive (`: ping` on SSE, `{"event":"ping"}` on WebSocket). */
  ping?: true;
}

export interface StreamSink {
  /** Write one frame. A returned promise means "not accepted yet": no next write until it settles. */
  write(frame: OutFrame): void | Promise<void>;
  /** End the transport after what was written. */
  end(code?: "closed" | "reconnect" | "shutdown"): void;
  /** Tear the transport down at once (slow reader, takeover by a resumed connection). */
  abort(): void;
}

/** Remove CR and LF from a single-line SSE field (h3 does the same). */
function line(v: string): string {
  return v.replace(/[\r\n]/g, "");
}

/**
 * A frame in the event-stream format (WHATWG HTML, "Server-sent events").
 * @example sseText({ id: "k3v9x0q2m1c8b7a5.3", event: "credits", data: '{"remaining":90}' })
 * // "id: k3v9x0q2m1c8b7a5.3\nevent: credits\ndata: {\"remaining\":90}\n\n"
 */
export function sseText(frame: OutFrame): string {
  if (frame.ping) return ": ping\n\n";
  let out = "";
  if (frame.id !== undefined) out += `id: ${line(frame.id)}\n`;
  if (frame.event) out += `event: ${line(frame.event)}\n`;
  if (frame.retry !== undefined && Number.isInteger(frame.retry) && frame.retry >= 0) out += `retry: ${frame.retry}\n`;
  for (const l of (frame.data ?? "").split(/\r\n|\r|\n/)) out += `data: ${l}\n`;
  return out + "\n";
}

/**
 * A frame as one WebSocket text message `{id, event, data}` (`data` is the parsed JSON).
 * @example wsText({ id: "k3v9x0q2m1c8b7a5.3", event: "credits", data: '{"remaining":90}' })
 * // '{"id":"k3v9x0q2m1c8b7a5.3","event":"credits","data":{"remaining":90}}'
 */
export function wsText(frame: OutFrame): string {
  if (frame.ping) return '{"event":"ping"}';
  const id = frame.id === undefined ? "" : `"id":${JSON.stringify(frame.id)},`;
  return `{${id}"event":${JSON.stringify(frame.event ?? "message")},"data":${frame.data ?? "null"}}`;
}
