/**
 * The transport under a stream connection (SSE response body or WebSocket peer): one frame at a
 * time, with backpressure as a returned promise, and the wire encoding of frames. An event that is
 * the same for every subscriber (a topic's board or velocity) is a `SharedEvent`: its bytes are
 * made once and written after each connection's own id. See docs/api.md#stream-backpressure and
 * docs/api.md#stream-fan-out.
 */

const utf8 = new TextEncoder();

/**
 * An event whose name and data are the same for every subscriber. Its wire bytes are encoded once
 * per transport, on first use, and then written as they are by every connection (only the `id`
 * differs per connection, and it goes in front of these bytes).
 * @example
 * const ev = new SharedEvent("velocity", '{"symbol":"SPY"}');
 * ev.sseBytes(); // bytes of 'event: velocity\ndata: {"symbol":"SPY"}\n\n', the same array every call
 */
export class SharedEvent {
  private sse: Uint8Array | null = null;
  private ws: Uint8Array | null = null;

  /** `data` is JSON text. */
  constructor(
    readonly event: string,
    readonly data: string,
  ) {}

  /** The SSE frame after its `id:`/`retry:` lines: `event:` and `data:` lines and the blank line. */
  sseBytes(): Uint8Array {
    this.sse ??= utf8.encode(sseEventLines(this.event, this.data));
    return this.sse;
  }

  /** The WebSocket message after its `{"id":...,` head: `"event":...,"data":...}`. */
  wsBytes(): Uint8Array {
    this.ws ??= utf8.encode(wsEventTail(this.event, this.data));
    return this.ws;
  }
}

/** One thing to write: an event (id, name, JSON text of its data) or a keep-alive. */
export interface OutFrame {
  id?: string;
  event?: string;
  /** JSON text. */
  data?: string;
  /** The event's name and data, encoded once for every subscriber (used instead of `event`/`data`). */
  shared?: SharedEvent;
  /** SSE reconnection time, ms (ignored on WebSocket). */
  retry?: number;
  /** A keep-alive (`: ping` on SSE, `{"event":"ping"}` on WebSocket). */
  ping?: true;
  /** The keep-alive's SSE comment text instead of `ping` (the v1 stream's `keepalive`). */
  comment?: string;
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
 * The per-connection head of an SSE frame: its `id:` and `retry:` lines (empty when it has neither).
 * @example sseHead({ id: "k3v9x0q2m1c8b7a5.3" }) // "id: k3v9x0q2m1c8b7a5.3\n"
 */
export function sseHead(frame: Pick<OutFrame, "id" | "retry">): string {
  let out = "";
  if (frame.id !== undefined) out += `id: ${line(frame.id)}\n`;
  if (frame.retry !== undefined && Number.isInteger(frame.retry) && frame.retry >= 0) out += `retry: ${frame.retry}\n`;
  return out;
}

/**
 * The `event:` line, one `data:` line per line of `data`, and the blank line that ends the event.
 * @example sseEventLines("credits", '{"remaining":90}') // "event: credits\ndata: {\"remaining\":90}\n\n"
 */
function sseEventLines(event: string | undefined, data: string | undefined): string {
  let out = event ? `event: ${line(event)}\n` : "";
  for (const l of (data ?? "").split(/\r\n|\r|\n/)) out += `data: ${l}\n`;
  return out + "\n";
}

/**
 * A frame in the event-stream format (WHATWG HTML, "Server-sent events"): head, then event lines.
 * @example sseText({ id: "k3v9x0q2m1c8b7a5.3", event: "credits", data: '{"remaining":90}' })
 * // "id: k3v9x0q2m1c8b7a5.3\nevent: credits\ndata: {\"remaining\":90}\n\n"
 */
export function sseText(frame: OutFrame): string {
  if (frame.ping) return `: ${line(frame.comment ?? "ping")}\n\n`;
  const s = frame.shared;
  return sseHead(frame) + (s ? sseEventLines(s.event, s.data) : sseEventLines(frame.event, frame.data));
}

function wsEventTail(event: string | undefined, data: string | undefined): string {
  return `"event":${JSON.stringify(event ?? "message")},"data":${data ?? "null"}}`;
}

/**
 * The per-connection head of a WebSocket message: `{` and the `"id":...,` member when there is an id.
 * @example wsHead({ id: "k3v9x0q2m1c8b7a5.3" }) // '{"id":"k3v9x0q2m1c8b7a5.3",'
 */
function wsHead(frame: Pick<OutFrame, "id">): string {
  return frame.id === undefined ? "{" : `{"id":${JSON.stringify(frame.id)},`;
}

/**
 * A frame as one WebSocket text message `{id, event, data}` (`data` is the parsed JSON).
 * @example wsText({ id: "k3v9x0q2m1c8b7a5.3", event: "credits", data: '{"remaining":90}' })
 * // '{"id":"k3v9x0q2m1c8b7a5.3","event":"credits","data":{"remaining":90}}'
 */
export function wsText(frame: OutFrame): string {
  if (frame.ping) return '{"event":"ping"}';
  const s = frame.shared;
  return wsHead(frame) + (s ? wsEventTail(s.event, s.data) : wsEventTail(frame.event, frame.data));
}

/**
 * The UTF-8 bytes of a WebSocket message: for a shared event, its shared tail copied after this
 * connection's head (one memory copy instead of serialising and encoding the board again).
 * @example new TextDecoder().decode(wsBytes({ id: "a.1", shared: new SharedEvent("x", "1") })) // '{"id":"a.1","event":"x","data":1}'
 */
export function wsBytes(frame: OutFrame): Uint8Array {
  if (!frame.shared || frame.ping) return utf8.encode(wsText(frame));
  const head = utf8.encode(wsHead(frame));
  const tail = frame.shared.wsBytes();
  const out = new Uint8Array(head.length + tail.length);
  out.set(head, 0);
  out.set(tail, head.length);
  return out;
}
