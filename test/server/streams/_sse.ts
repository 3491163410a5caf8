// A raw SSE reader for tests: records every event and comment in arrival order, with waiters.
import { createSseParser } from "../../../lib/stream-client/sse-parser";

export interface Frame {
  id: string | null;
  event: string;
  data: any;
  /** true for a `: ping` comment */
  ping?: boolean;
}

export interface RawStream {
  status: number;
  headers: Headers;
  /** JSON body of a refused open. */
  body: any;
  frames: Frame[];
  events: () => Frame[];
  /** Resolves with the first frame matching (searching already received ones too). */
  waitFor: (pred: (f: Frame) => boolean, timeoutMs?: number) => Promise<Frame>;
  /** Resolves when the server ends the body. */
  ended: Promise<void>;
  abort: () => void;
}

export async function openRaw(
  baseUrl: string,
  key: string | null,
  query: string,
  init: { lastEventId?: string; headers?: Record<string, string>; path?: string } = {},
): Promise<RawStream> {
  const controller = new AbortController();
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  if (init.lastEventId !== undefined) headers["Last-Event-ID"] = init.lastEventId;
  const res = await fetch(`${baseUrl}${init.path ?? "/v1/stream"}?${query}`, { headers, signal: controller.signal });
  const frames: Frame[] = [];
  const waiters: { pred: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  const push = (f: Frame) => {
    frames.push(f);
    for (const w of [...waiters]) {
      if (w.pred(f)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(f);
      }
    }
  };
  let body: any = null;
  let ended: Promise<void> = Promise.resolve();
  if (res.ok && res.headers.get("content-type")?.startsWith("text/event-stream")) {
    const parser = createSseParser({
      onEvent: (m) => {
        let data: any = m.data;
        try {
          data = JSON.parse(m.data);
        } catch {
          // keep text
        }
        push({ id: m.id === "" ? null : m.id, event: m.event, data });
      },
      onComment: () => push({ id: null, event: "", data: null, ping: true }),
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    ended = (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          parser.feed(decoder.decode(value, { stream: true }));
        }
      } catch {
        // aborted
      }
    })();
  } else {
    body = await res.json().catch(() => null);
  }
  return {
    status: res.status,
    headers: res.headers,
    body,
    frames,
    events: () => frames.filter((f) => !f.ping),
    waitFor(pred, timeoutMs = 10_000) {
      const hit = frames.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const w = {
          pred,
          resolve: (f: Frame) => {
            clearTimeout(t);
            resolve(f);
          },
        };
        const t = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1);
          reject(
            new Error(
              `timed out waiting; got ${frames
                .filter((f) => !f.ping)
                .map((f) => f.event)
                .join(",")}`,
            ),
          );
        }, timeoutMs);
        waiters.push(w);
      });
    },
    ended,
    abort: () => controller.abort(),
  };
}

/** Seq of an id `lineage.seq`. */
export function seqOf(id: string | null): number {
  return id === null ? NaN : Number(id.slice(id.lastIndexOf(".") + 1));
}

/** Events that take a seq (everything but connected / reconnect / closed and pings). */
export function sequenced(frames: Frame[]): Frame[] {
  return frames.filter((f) => !f.ping && f.event !== "connected" && f.event !== "reconnect" && f.event !== "closed");
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
