/**
 * An incremental parser of the `text/event-stream` format, following the WHATWG HTML standard
 * ("Server-sent events", section 9.2.6 "Interpreting an event stream"): lines end in CRLF, LF or
 * CR; a blank line dispatches; `data` lines join with LF; `id` without NUL sets the last event id
 * (kept across events); `retry` takes ASCII digits only; lines starting with `:` are comments.
 * @see docs/api.md#stream-client
 */

/** One dispatched event. `id` is the last event id in force when it was dispatched ("" for none). */
export interface SseMessage {
  id: string;
  event: string;
  data: string;
}

export interface SseParserHandlers {
  onEvent(message: SseMessage): void;
  /** A comment line, without its leading `:` (the server's keep-alive is `: ping`). */
  onComment?(text: string): void;
  /** A valid `retry` field, milliseconds. */
  onRetry?(ms: number): void;
}

export interface SseParser {
  /** Feed decoded text (any split, even inside a CRLF). */
  feed(text: string): void;
  /** Forget a partial event (on reconnect); the last event id is kept, as the standard says. */
  reset(): void;
}

/**
 * Create a parser.
 * @example
 * const seen: SseMessage[] = [];
 * const p = createSseParser({ onEvent: (m) => seen.push(m) });
 * p.feed("id: 1\nevent: credits\ndata: {\"remaining\":9}\n\n"); // seen[0] = { id: "1", event: "credits", data: "{\"remaining\":9}" }
 */
export function createSseParser(handlers: SseParserHandlers): SseParser {
  let buffer = "";
  let sawCR = false;
  let first = true;
  let data = "";
  let hasData = false;
  let eventType = "";
  let lastId = "";

  function line(l: string): void {
    if (l === "") {
      if (!hasData) {
        eventType = "";
        return;
      }
      const message = { id: lastId, event: eventType || "message", data };
      data = "";
      hasData = false;
      eventType = "";
      handlers.onEvent(message);
      return;
    }
    if (l.charCodeAt(0) === 58 /* : */) {
      handlers.onComment?.(l.slice(1).replace(/^ /, ""));
      return;
    }
    const colon = l.indexOf(":");
    const field = colon === -1 ? l : l.slice(0, colon);
    let value = colon === -1 ? "" : l.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    switch (field) {
      case "event":
        eventType = value;
        break;
      case "data":
        data = hasData ? `${data}\n${value}` : value;
        hasData = true;
        break;
      case "id":
        if (!value.includes("\u0000")) lastId = value;
        break;
      case "retry":
        if (/^[0-9]+$/.test(value)) handlers.onRetry?.(Number(value));
        break;
      default:
        // unknown fields are ignored
        break;
    }
  }

  return {
    feed(text: string) {
      if (first && text.length > 0) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      let start = 0;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 10 /* LF */) {
          if (sawCR) {
            // second half of a CRLF split across chunks or lines
            sawCR = false;
            start = i + 1;
            continue;
          }
          line(buffer + text.slice(start, i));
          buffer = "";
          start = i + 1;
        } else if (c === 13 /* CR */) {
          line(buffer + text.slice(start, i));
          buffer = "";
          start = i + 1;
          sawCR = true;
          continue;
        }
        sawCR = false;
      }
      buffer += text.slice(start);
    },
    reset() {
      buffer = "";
      sawCR = false;
      first = true;
      data = "";
      hasData = false;
      eventType = "";
    },
  };
}
