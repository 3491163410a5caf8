/**
 * A fetch-based client of the positioning stream that a browser's `EventSource` cannot be: it
 * sends `Authorization`, treats silence as a drop, reconnects at once with the last id on
 * `reconnect`, backs off per the spec's retry guidance on errors and drops, and stops on terminal
 * `closed` reasons. Isomorphic: `fetch`, `AbortController`, `TextDecoder`, timers.
 * @see docs/api.md#stream-client
 */
import { isRetryableStatus, parseRetryAfter, RETRY_DEFAULTS, retryDelayMs } from "./backoff";
import { createSseParser, type SseMessage } from "./sse-parser";

/** One event as the client hands it out (`data` parsed from JSON when it is JSON). */
export interface StreamEvent {
  id: string | null;
  event: string;
  data: unknown;
}

/** Why a client stopped. */
export type StreamEnd = { kind: "closed"; reason: string } | { kind: "stopped" } | { kind: "failed"; error: StreamClientError };

/** What the client is doing (for `onStatus`). */
export type StreamStatus =
  | { state: "connecting"; attempt: number; lastEventId: string | null }
  | { state: "open" }
  | { state: "retrying"; attempt: number; delayMs: number; cause: string }
  | { state: "ended"; end: StreamEnd };

/** An error that ended the stream: the HTTP status and API code when the server answered. */
export class StreamClientError extends Error {
  override readonly name = "StreamClientError";
  constructor(
    message: string,
    readonly status: number | null,
    readonly code: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export interface StreamClientOptions {
  /** Server root, e.g. `http://localhost:8080`. */
  baseUrl: string;
  apiKey: string;
  symbols: string[] | string;
  /** Other query parameters (`metric`, `maxStrikes`, ...). */
  params?: Record<string, string>;
  /** Default `/v1/stream`. */
  path?: string;
  /** Resume from this id on the first connection. */
  lastEventId?: string | null;
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Silence (no byte, not even a ping) after which the connection counts as dropped; default 60000. */
  silenceTimeoutMs?: number;
  /** Consecutive failed attempts before giving up; default 5. */
  maxAttempts?: number;
  baseBackoffMs?: number;
  capBackoffMs?: number;
  random?: () => number;
  /** Abort to stop the client. */
  signal?: AbortSignal;
  onEvent?: (event: StreamEvent) => void;
  onPing?: () => void;
  onStatus?: (status: StreamStatus) => void;
}

/** A running client: an async iterable of events, plus control. */
export interface StreamClient extends AsyncIterable<StreamEvent> {
  /** The last id received (resume point), or null. */
  readonly lastEventId: string | null;
  /** Resolves when the client stops for good. */
  readonly done: Promise<StreamEnd>;
  /** Stop now. */
  close(): void;
}

/** `closed` reasons after which the client may reconnect (spec: only `credit_check_failed`). */
export const RECONNECTABLE_CLOSE_REASONS: ReadonlySet<string> = new Set(["credit_check_failed"]);

type ReadOutcome = { kind: "reconnect" } | { kind: "closed"; reason: string } | { kind: "drop"; cause: string };

function parseData(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Open a stream and keep it open.
 * @example
 * const client = openStream({ baseUrl: "http://localhost:8080", apiKey, symbols: ["SPXW", "SPY"] });
 * for await (const e of client) if (e.event === "snapshot") console.log(e.data);
 */
export function openStream(options: StreamClientOptions): StreamClient {
  const doFetch = options.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));
  const silenceMs = options.silenceTimeoutMs ?? 60_000;
  const maxAttempts = options.maxAttempts ?? RETRY_DEFAULTS.maxAttempts;
  const backoff = { baseMs: options.baseBackoffMs, capMs: options.capBackoffMs, random: options.random };
  const symbols = Array.isArray(options.symbols) ? options.symbols.join(",") : options.symbols;
  const query = new URLSearchParams({ symbols, ...(options.params ?? {}) });
  const url = `${options.baseUrl.replace(/\/+$/, "")}${options.path ?? "/v1/stream"}?${query}`;

  let lastEventId: string | null = options.lastEventId ?? null;
  let stopped = false;
  let current: AbortController | null = null;
  const queue: StreamEvent[] = [];
  // Without an `onEvent` callback the iterator is the consumer: buffer from the start.
  let iterating = options.onEvent === undefined;
  let wake: (() => void) | null = null;
  let end: StreamEnd | null = null;
  let resolveDone!: (e: StreamEnd) => void;
  const done = new Promise<StreamEnd>((r) => (resolveDone = r));

  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const status = (s: StreamStatus) => {
    try {
      options.onStatus?.(s);
    } catch {
      // a failing callback never stops the stream
    }
  };
  const finish = (e: StreamEnd) => {
    if (end) return;
    end = e;
    stopped = true;
    current?.abort();
    status({ state: "ended", end: e });
    resolveDone(e);
    notify();
  };
  const stop = () => finish({ kind: "stopped" });
  if (options.signal?.aborted) stop();
  options.signal?.addEventListener("abort", stop, { once: true });

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopped) return resolve();
      const t = setTimeout(done2, ms);
      const onStop = () => done2();
      function done2() {
        clearTimeout(t);
        options.signal?.removeEventListener("abort", onStop);
        resolve();
      }
      options.signal?.addEventListener("abort", onStop, { once: true });
      void doneFlag.then(onStop);
    });
  const doneFlag = done.then(() => undefined);

  const deliver = (m: SseMessage) => {
    if (m.id !== "") lastEventId = m.id;
    const e: StreamEvent = { id: m.id === "" ? null : m.id, event: m.event, data: parseData(m.data) };
    try {
      options.onEvent?.(e);
    } catch {
      // callbacks cannot break the reader
    }
    // Only an iterator consumer is buffered for; callback-only use keeps nothing.
    if (iterating) queue.push(e);
    notify();
    return e;
  };

  async function read(res: Response, controller: AbortController): Promise<ReadOutcome> {
    if (!res.body) return { kind: "drop", cause: "no body" };
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let outcome: ReadOutcome | null = null;
    const parser = createSseParser({
      onEvent: (m) => {
        if (outcome) return;
        const e = deliver(m);
        if (m.event === "connected") {
          attempt = 0;
          status({ state: "open" });
        } else if (m.event === "reconnect") outcome = { kind: "reconnect" };
        else if (m.event === "closed") {
          const reason = (e.data as { reason?: string } | null)?.reason ?? "unknown";
          outcome = { kind: "closed", reason };
        }
      },
      onComment: () => options.onPing?.(),
    });
    let timer: ReturnType<typeof setTimeout> | null = null;
    let silent = false;
    const arm = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        silent = true;
        controller.abort();
        // Some fetch implementations ignore the signal once the body started: cancel it too.
        reader.cancel().catch(() => {});
      }, silenceMs);
    };
    arm();
    try {
      while (!outcome) {
        const { value, done: eof } = await reader.read();
        if (eof) return { kind: "drop", cause: silent ? `no data for ${silenceMs} ms` : "stream ended" };
        arm();
        parser.feed(decoder.decode(value, { stream: true }));
      }
      return outcome;
    } catch (error) {
      if (silent) return { kind: "drop", cause: `no data for ${silenceMs} ms` };
      return { kind: "drop", cause: String((error as Error)?.message ?? error) };
    } finally {
      if (timer) clearTimeout(timer);
      reader.cancel().catch(() => {});
    }
  }

  let attempt = 0;

  /** Wait before the next try; false when the attempts are used up. */
  async function retry(cause: string, retryAfterS: number | null, error: StreamClientError): Promise<boolean> {
    if (attempt >= maxAttempts) {
      finish({ kind: "failed", error });
      return false;
    }
    const delayMs = retryDelayMs(attempt, retryAfterS, backoff);
    attempt += 1;
    status({ state: "retrying", attempt, delayMs, cause });
    await sleep(delayMs);
    return !stopped;
  }

  async function run(): Promise<void> {
    while (!stopped) {
      const controller = new AbortController();
      current = controller;
      status({ state: "connecting", attempt, lastEventId });
      const headers: Record<string, string> = { Authorization: `Bearer ${options.apiKey}`, Accept: "text/event-stream" };
      if (lastEventId) headers["Last-Event-ID"] = lastEventId;
      let res: Response;
      try {
        res = await doFetch(url, { headers, signal: controller.signal, cache: "no-store" });
      } catch (error) {
        if (stopped) return;
        const message = String((error as Error)?.message ?? error);
        if (!(await retry(message, null, new StreamClientError(message, null, "network_error", true)))) return;
        continue;
      }
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
        const code = body?.error?.code ?? String(res.status);
        const err = new StreamClientError(body?.error?.message ?? `HTTP ${res.status}`, res.status, code, isRetryableStatus(res.status));
        if (!err.retryable) {
          finish({ kind: "failed", error: err });
          return;
        }
        let retryAfterS = parseRetryAfter(res.headers.get("retry-after"));
        const reset = Number(res.headers.get("x-ratelimit-reset"));
        if (retryAfterS === null && res.status === 429 && Number.isFinite(reset) && reset > 0) {
          retryAfterS = Math.max(0, reset - Date.now() / 1000);
        }
        if (!(await retry(code, retryAfterS, err))) return;
        continue;
      }
      const outcome = await read(res, controller);
      if (stopped) return;
      if (outcome.kind === "reconnect") continue;
      if (outcome.kind === "closed") {
        if (!RECONNECTABLE_CLOSE_REASONS.has(outcome.reason)) {
          finish({ kind: "closed", reason: outcome.reason });
          return;
        }
        const err = new StreamClientError(`stream closed: ${outcome.reason}`, null, outcome.reason, true);
        if (!(await retry(outcome.reason, null, err))) return;
        continue;
      }
      const err = new StreamClientError(outcome.cause, null, "connection_dropped", true);
      if (!(await retry(outcome.cause, null, err))) return;
    }
  }

  run().catch((error) => finish({ kind: "failed", error: new StreamClientError(String(error?.message ?? error), null, "client_error", false) }));

  return {
    get lastEventId() {
      return lastEventId;
    },
    done,
    close: stop,
    [Symbol.asyncIterator](): AsyncIterator<StreamEvent> {
      iterating = true;
      return {
        async next(): Promise<IteratorResult<StreamEvent>> {
          for (;;) {
            if (queue.length > 0) return { value: queue.shift()!, done: false };
            if (end) {
              if (end.kind === "failed") throw end.error;
              return { value: undefined, done: true };
            }
            await new Promise<void>((r) => (wake = r));
          }
        },
        async return(): Promise<IteratorResult<StreamEvent>> {
          stop();
          return { value: undefined, done: true };
        },
      };
    },
  };
}
