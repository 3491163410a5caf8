/**
 * The WebSocket transport: one JSON text message per event (`{id, event, data}`), backpressure from
 * the socket's buffered amount (a write past `highWaterBytes` waits for crossws's `drain` hook).
 * See docs/api.md#stream-websocket.
 */
import { wsText, type StreamSink } from "./sink";

/** The part of a crossws peer the sink uses. */
export interface WsPeerLike {
  send(data: string): number | void | undefined;
  close(code?: number, reason?: string): void;
  terminate?(): void;
}

/** Close codes: 1000 after `closed` / `reconnect`, 1001 ("going away") on shutdown. */
export const WS_CLOSE_CODES = Object.freeze({ closed: 1000, reconnect: 1000, shutdown: 1001 });

/**
 * A sink over a peer, and the `drain` callback to wire to the peer's `drain` hook.
 * @example const { sink, onDrain } = createWsSink(peer, 256 * 1024);
 */
export function createWsSink(peer: WsPeerLike, highWaterBytes: number): { sink: StreamSink; onDrain: () => void } {
  let waiter: (() => void) | null = null;
  let done = false;
  const sink: StreamSink = {
    write(frame) {
      if (done) throw new Error("socket ended");
      const buffered = peer.send(wsText(frame));
      if (typeof buffered !== "number" || buffered <= highWaterBytes) return;
      return new Promise<void>((resolve) => {
        waiter = resolve;
      });
    },
    end(code = "closed") {
      if (done) return;
      done = true;
      peer.close(WS_CLOSE_CODES[code], code);
    },
    abort() {
      if (done) return;
      done = true;
      if (peer.terminate) peer.terminate();
      else peer.close(1011, "dropped");
    },
  };
  return {
    sink,
    onDrain() {
      const w = waiter;
      waiter = null;
      w?.();
    },
  };
}
