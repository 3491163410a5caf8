// The event-stream parser against the examples of the WHATWG HTML standard, section 9.2.5
// ("Server-sent events: Parsing an event stream" / "Interpreting an event stream"), and the
// retry guidance of the spec ("Retry guidance" 1-3).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isRetryableStatus, parseRetryAfter, retryDelayMs } from "../../lib/stream-client/backoff";
import { createSseParser, type SseMessage } from "../../lib/stream-client/sse-parser";

function parseAll(chunks: string[]) {
  const events: SseMessage[] = [];
  const comments: string[] = [];
  const retries: number[] = [];
  const p = createSseParser({ onEvent: (m) => events.push(m), onComment: (c) => comments.push(c), onRetry: (r) => retries.push(r) });
  for (const c of chunks) p.feed(c);
  return { events, comments, retries };
}

describe("WHATWG examples", () => {
  it("joins data lines with LF (stock ticker example)", () => {
    expect(parseAll(["data: YHOO\ndata: +2\ndata: 10\n\n"]).events).toEqual([{ id: "", event: "message", data: "YHOO\n+2\n10" }]);
  });

  it("comments, ids, an empty id resets the last event id, one leading space is stripped", () => {
    const r = parseAll([": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n"]);
    expect(r.comments).toEqual(["test stream"]);
    expect(r.events).toEqual([
      { id: "1", event: "message", data: "first event" },
      { id: "", event: "message", data: "second event" },
      { id: "", event: "message", data: " third event" },
    ]);
  });

  it("empty data fields dispatch; an unterminated event at the end is discarded", () => {
    expect(parseAll(["data\n\ndata\ndata\n\ndata:"]).events.map((e) => e.data)).toEqual(["", "\n"]);
  });

  it("`data:test` and `data: test` are the same", () => {
    expect(parseAll(["data:test\n\ndata: test\n\n"]).events.map((e) => e.data)).toEqual(["test", "test"]);
  });

  it("event names, retry with digits only, ids containing NUL ignored, BOM skipped", () => {
    const r = parseAll(["\ufeffevent: credits\nretry: 1500\nretry: 1.5\nid: a\u0000b\ndata: {}\n\n"]);
    expect(r.events).toEqual([{ id: "", event: "credits", data: "{}" }]);
    expect(r.retries).toEqual([1500]);
  });
});

describe("line endings and chunking", () => {
  const doc = ': ping\n\nid: x.1\nevent: snapshot\ndata: {"a":1}\n\nid: x.2\nevent: credits\ndata: {"remaining":3}\ndata: more\n\n';
  const expected = parseAll([doc]);

  it("CRLF and CR mean the same as LF", () => {
    expect(parseAll([doc.replace(/\n/g, "\r\n")])).toEqual(expected);
    expect(parseAll([doc.replace(/\n/g, "\r")])).toEqual(expected);
  });

  it("any split of the stream into chunks gives the same events (property)", () => {
    fc.assert(
      fc.property(fc.constantFrom("\n", "\r\n", "\r"), fc.array(fc.nat(), { maxLength: 12 }), (eol, cuts) => {
        const text = doc.replace(/\n/g, eol);
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const chunks: string[] = [];
        let prev = 0;
        for (const p of points) {
          chunks.push(text.slice(prev, p));
          prev = p;
        }
        chunks.push(text.slice(prev));
        expect(parseAll(chunks)).toEqual(expected);
      }),
    );
  });
});

describe("retry guidance", () => {
  it("full jitter under min(30 s, 1 s * 2^attempt), never below Retry-After", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), fc.option(fc.integer({ min: 0, max: 120 })), (attempt, u, ra) => {
        const d = retryDelayMs(attempt, ra, { random: () => u });
        const ceiling = Math.min(30_000, 1000 * 2 ** attempt);
        expect(d).toBeGreaterThanOrEqual(ra === null ? 0 : ra * 1000);
        expect(d).toBe(Math.max(ra === null ? 0 : ra * 1000, u * ceiling));
      }),
    );
  });

  it("Retry-After as seconds or an HTTP date; retryable statuses are 429, 500, 502, 503, 504", () => {
    expect(parseRetryAfter("7")).toBe(7);
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:30 GMT", Date.parse("2015-10-21T07:28:00Z"))).toBe(30);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter("soon")).toBeNull();
    expect([400, 401, 402, 403, 404, 429, 500, 501, 502, 503, 504].filter(isRetryableStatus)).toEqual([429, 500, 502, 503, 504]);
  });
});
