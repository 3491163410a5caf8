// The library client (lib/stream-client): against a real server for reconnect/resume and terminal
// closes, and against scripted fetches for the retry guidance (backoff, Retry-After, give-up,
// no retry on other 4xx, silence as a drop).
import { describe, expect, it } from "vitest";
import { openStream, type StreamEvent, type StreamStatus } from "../../lib/stream-client";
import { seqOf } from "../server/streams/_sse";
import { startStreamServer } from "../server/streams/_server";

describe("against the server", () => {
  it("reconnects at once with the last id on `reconnect` and resumes without a gap", async () => {
    const s = await startStreamServer({ speed: 600, streams: { maxDurationS: 240 } });
    const statuses: StreamStatus[] = [];
    const client = openStream({ baseUrl: s.url, apiKey: s.key, symbols: ["SPY"], onStatus: (st) => statuses.push(st) });
    const events: StreamEvent[] = [];
    try {
      for await (const e of client) {
        events.push(e);
        if (e.event === "resumed") break;
      }
      const reconnect = events.find((e) => e.event === "reconnect")!;
      expect(reconnect.data).toEqual({ reason: "max_duration" });
      const connects = statuses.filter((st) => st.state === "connecting");
      expect(connects.length).toBe(2);
      expect(connects[1]).toMatchObject({ lastEventId: reconnect.id });
      expect(statuses.some((st) => st.state === "retrying")).toBe(false);
      const resumed = events.at(-1)!;
      expect(resumed.data).toMatchObject({ gap: false, replayed: 0 });
      const seqs = events.filter((e) => !["connected", "reconnect", "closed"].includes(e.event)).map((e) => seqOf(e.id));
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
      expect(await Promise.race([client.done, new Promise((r) => setTimeout(() => r("pending"), 10))])).toEqual({ kind: "stopped" });
    } finally {
      client.close();
      await s.close();
    }
  });

  it("stops for good on a terminal `closed` reason", async () => {
    const s = await startStreamServer({ speed: 600 });
    const { key } = s.accounts.createAccount({ plan: "top", credits: 2 });
    try {
      const client = openStream({ baseUrl: s.url, apiKey: key, symbols: "SPY" });
      const seen: string[] = [];
      for await (const e of client) seen.push(e.event);
      expect(seen.at(-1)).toBe("closed");
      expect(await client.done).toEqual({ kind: "closed", reason: "insufficient_credits" });
    } finally {
      await s.close();
    }
  });
});

/** A scripted fetch: each call takes the next answer. */
function scripted(answers: (() => Response)[]) {
  const calls: { url: string; headers: Headers }[] = [];
  const f = async (url: string, init: RequestInit) => {
    calls.push({ url, headers: new Headers(init.headers) });
    const next = answers[Math.min(calls.length - 1, answers.length - 1)];
    return next();
  };
  return { f, calls };
}
const json =
  (status: number, code: string, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify({ error: { code, message: code } }), { status, headers: { "Content-Type": "application/json", ...headers } });
const sse =
  (text: string, keepOpen = false) =>
  () =>
    new Response(
      new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode(text));
          if (!keepOpen) c.close();
        },
      }),
      { status: 200, headers: { "Content-Type": "text/event-stream" } },
    );

describe("retry guidance (scripted fetch)", () => {
  it("retries 503 with full-jitter backoff min(cap, base*2^attempt), gives up after 5 attempts", async () => {
    const { f, calls } = scripted([json(503, "stream_capacity")]);
    const statuses: StreamStatus[] = [];
    const client = openStream({ baseUrl: "http://x", apiKey: "k", symbols: "SPY", fetch: f, baseBackoffMs: 2, random: () => 0.5, onStatus: (s) => statuses.push(s) });
    const end = await client.done;
    expect(end.kind).toBe("failed");
    expect(end.kind === "failed" && end.error.code).toBe("stream_capacity");
    expect(calls.length).toBe(6);
    expect(statuses.filter((s) => s.state === "retrying").map((s) => (s as { delayMs: number }).delayMs)).toEqual([1, 2, 4, 8, 16]);
    expect(calls[0].headers.get("authorization")).toBe("Bearer k");
    expect(calls[0].url).toBe("http://x/v1/stream?symbols=SPY");
  });

  it("honours Retry-After on 429 and sends the last id when it reconnects", async () => {
    const { f, calls } = scripted([
      sse("id: aaaaaaaaaaaaaaaa.0\nevent: connected\ndata: {}\n\nid: aaaaaaaaaaaaaaaa.1\nevent: snapshot\ndata: {}\n\n"),
      json(429, "stream_limit_reached", { "Retry-After": "1" }),
      sse('id: aaaaaaaaaaaaaaaa.1\nevent: closed\ndata: {"reason":"key_revoked"}\n\n'),
    ]);
    const statuses: StreamStatus[] = [];
    const client = openStream({ baseUrl: "http://x", apiKey: "k", symbols: "SPY", fetch: f, baseBackoffMs: 1, random: () => 0, onStatus: (s) => statuses.push(s) });
    expect(await client.done).toEqual({ kind: "closed", reason: "key_revoked" });
    const delays = statuses.filter((s) => s.state === "retrying").map((s) => (s as { delayMs: number }).delayMs);
    expect(delays).toEqual([0, 1000]); // the dropped stream (jitter 0), then Retry-After: 1
    expect(calls.map((c) => c.headers.get("last-event-id"))).toEqual([null, "aaaaaaaaaaaaaaaa.1", "aaaaaaaaaaaaaaaa.1"]);
  });

  it("never retries other 4xx", async () => {
    const { f, calls } = scripted([json(403, "forbidden")]);
    const end = await openStream({ baseUrl: "http://x", apiKey: "k", symbols: "SPY", fetch: f }).done;
    expect(end.kind === "failed" && [end.error.status, end.error.code, end.error.retryable]).toEqual([403, "forbidden", false]);
    expect(calls.length).toBe(1);
  });

  it("treats silence as a drop and reconnects; credit_check_failed is reconnectable", async () => {
    const { f, calls } = scripted([
      sse("event: connected\ndata: {}\n\n", true),
      sse('id: bbbbbbbbbbbbbbbb.3\nevent: closed\ndata: {"reason":"credit_check_failed"}\n\n'),
      sse('event: closed\ndata: {"reason":"account_suspended"}\n\n'),
    ]);
    const statuses: StreamStatus[] = [];
    const client = openStream({
      baseUrl: "http://x",
      apiKey: "k",
      symbols: "SPY",
      fetch: f,
      silenceTimeoutMs: 60,
      baseBackoffMs: 1,
      random: () => 0,
      onStatus: (s) => statuses.push(s),
    });
    expect(await client.done).toEqual({ kind: "closed", reason: "account_suspended" });
    const causes = statuses.filter((s) => s.state === "retrying").map((s) => (s as { cause: string }).cause);
    expect(causes).toEqual(["no data for 60 ms", "credit_check_failed"]);
    expect(calls[2].headers.get("last-event-id")).toBe("bbbbbbbbbbbbbbbb.3");
  });
});
