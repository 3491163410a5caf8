/**
 * The SSE transport: a pull-based `ReadableStream` body. A write is accepted at once while the
 * consumer (srvx, which waits for the socket's `drain`) keeps pulling; otherwise the write's promise
 * settles at the next pull, so a slow reader holds at most one frame here plus the socket buffer.
 * (h3's `EventStream` appends to an unbounded string while paused and gives no pull signal, so it
 * is not used.) A shared event is two chunks, this connection's `id:` head and the event's shared
 * bytes (the same array for every subscriber); only the second counts against the one-frame queue.
 * See docs/api.md#stream-backpressure and docs/api.md#stream-fan-out.
 */
import { sseHead, sseText, type StreamSink } from "./sink";

/** Response headers of an event stream (as h3's `EventStream` sends them). */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "private, no-cache, no-store, no-transform, must-revalidate, max-age=0",
  "X-Accel-Buffering": "no",
});

/**
 * A sink and the body it writes to. `onCancel` runs when the client goes away.
 * @example const { sink, body } = createSseSink(() => conn.dispose()); return new Response(body, { headers: SSE_HEADERS });
 */
export function createSseSink(onCancel: () => void): { sink: StreamSink; body: ReadableStream<Uint8Array> } {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let waiter: { resolve: () => void; reject: (e: unknown) => void } | null = null;
  let done = false;
  // The queue counts frames, not chunks: a shared event's head chunk is enqueued with size 0.
  let chunkSize = 1;

  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        const w = waiter;
        waiter = null;
        w?.resolve();
      },
      cancel() {
        done = true;
        const w = waiter;
        waiter = null;
        w?.reject(new Error("stream cancelled"));
        onCancel();
      },
    },
    { highWaterMark: 1, size: () => chunkSize },
  );

  const sink: StreamSink = {
    write(frame) {
      if (done) throw new Error("stream ended");
      if (frame.shared && !frame.ping) {
        chunkSize = 0;
        controller.enqueue(encoder.encode(sseHead(frame)));
        chunkSize = 1;
        controller.enqueue(frame.shared.sseBytes());
      } else {
        controller.enqueue(encoder.encode(sseText(frame)));
      }
      if ((controller.desiredSize ?? 0) > 0) return;
      return new Promise<void>((resolve, reject) => {
        waiter = { resolve, reject };
      });
    },
    end() {
      if (done) return;
      done = true;
      try {
        controller.close();
      } catch {
        // already closed or errored
      }
    },
    abort() {
      if (done) return;
      done = true;
      const w = waiter;
      waiter = null;
      w?.reject(new Error("stream aborted"));
      try {
        controller.error(new Error("stream aborted"));
      } catch {
        // already closed
      }
    },
  };
  return { sink, body };
}
