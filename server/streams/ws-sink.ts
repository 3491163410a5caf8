/**
 * The WebSocket transport: one JSON text message per event (`{id, event, data}`), backpressure from
 * the socket's buffered amount (a write past `highWaterBytes` waits for crossws's `drain` hook).
 * A shared event goes out as UTF-8 bytes (this connection's head + the shared tail) flagged as
 * text, so the board is not serialised and encoded again per peer.
 * See docs/api.md#stream-websocket.
 */
import { wsBytes, wsText, type StreamSink } from "./sink";

/**
 * The part of a crossws peer the sink uses. crossws's Node peer passes `options` on to `ws`, whose
 * `binary: false` sends bytes as a text frame (they are valid UTF-8 JSON).
 */
export interface WsPeerLike {
  // biome-ignore lint/suspicious/noConfusingVoidType: crossws's peer types `send` as returning `number | void | undefined`
  send(data: string | Uint8Array, options?: { binary?: boolean }): number | void | undefined;
  close(code?: number, reason?: string): void;
  terminate?(): void;
}

/** Close codes: 1000 after `closed` / `reconnect`, 1001 ("going away") on shutdown. */
const WS_CLOSE_CODES = Object.freeze({ closed: 1000, reconnect: 1000, shutdown: 1001 });

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
      const buffered = frame.shared && !frame.ping ? peer.send(wsBytes(frame), { binary: false }) : peer.send(wsText(frame));
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
